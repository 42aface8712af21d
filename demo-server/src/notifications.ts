import { GatewayError, type GatewayClient } from '@pg-checkout/node';
import type { PaymentNotification } from '@pg-checkout/protocol';
import { formatAmount } from './html.js';
import { webhookLog } from './webhook-log.js';

/** A plain refusal (success false, no subclass) is the gateway saying it has no such payment. */
const isUnknownToGateway = (err: unknown): boolean =>
  err instanceof GatewayError && err.constructor === GatewayError;

/**
 * Records a payment notification whose hash checked out. The hash covers only the reference, so
 * the amount and status shown are the gateway's, from a lookup; a notification that disagrees with
 * the gateway is shown as such, and one for a payment the gateway does not know is only logged.
 * A lookup that fails for another reason throws, so the middleware answers 5xx and the gateway retries.
 */
export async function recordPaymentNotification(
  client: GatewayClient,
  notification: PaymentNotification,
  log: (line: string) => void,
): Promise<void> {
  const reference = notification.paymentReference;
  const claimed = `${notification.status} ${formatAmount(notification.amount, notification.currency)}`;
  let record;
  try {
    record = await client.lookups.payment(reference);
  } catch (err) {
    if (!isUnknownToGateway(err)) throw err;
    log(`[shop] WARN ignored a payment notification for ${reference}: unknown to the gateway`);
    webhookLog.add({
      receivedAt: new Date(),
      kind: 'payment',
      verified: false,
      reference,
      reason: 'ignored: the gateway has no such payment',
    });
    return;
  }
  // A refund's notification carries the refund's amount, at most what was paid.
  const amountFits =
    notification.status === 'REFUNDED'
      ? Math.abs(notification.amount) > 0 &&
        Math.abs(notification.amount) <= Math.abs(record.amount)
      : notification.amount === record.amount;
  const agrees = amountFits && notification.currency === record.currency;
  if (!agrees) {
    log(
      `[shop] WARN payment notification for ${reference} differs from the gateway's record: it said ${claimed}, the gateway ${record.status} ${formatAmount(record.amount, record.currency)}`,
    );
  }
  webhookLog.add({
    receivedAt: new Date(),
    kind: 'payment',
    verified: agrees,
    reference,
    status: record.status,
    amount: record.amount,
    currency: record.currency,
    reason: agrees
      ? notification.status === record.status
        ? undefined
        : `the notification said ${notification.status}`
      : `its ${notification.currency === record.currency ? 'amount' : 'currency'} differs from the gateway's record`,
  });
}
