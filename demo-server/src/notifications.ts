import type { LookupRecord } from '@pg-checkout/express';
import type { PaymentNotification } from '@pg-checkout/protocol';
import { formatAmount } from './html.js';
import type { OrderPayment, OrderStore } from './orders.js';
import { webhookLog } from './webhook-log.js';

const PAID = new Set(['AUTHORIZED', 'SETTLED']);
const NOT_CHARGED = new Set(['CANCELLED', 'FAILED', 'REVERSED']);

/** The shop's word for a gateway record's status. */
export function paymentStatusOf(record: {
  status: string;
  pending?: boolean | null;
}): OrderPayment['status'] {
  if (record.pending) return 'pending';
  if (PAID.has(record.status)) return 'paid';
  if (record.status === 'REFUNDED') return 'refunded';
  if (NOT_CHARGED.has(record.status)) return 'failed';
  return 'pending';
}

/**
 * A verified payment webhook. The notify hash covers only the payment reference, and the payload's
 * merchant reference names an attempt (`order-…-1`), not an order: so the shop acts on the gateway's
 * own record (`record`, which the middleware looked up) and finds the order through its own table
 * of the payments it recorded (from the middleware's hooks and its lookups), never through the payload.
 * The payload is only shown, beside what the gateway said, when the two disagree.
 */
export async function handlePaymentWebhook(
  event: { payload: PaymentNotification; record: LookupRecord },
  orders: OrderStore,
  log: (line: string) => void,
  /** A second charge of an order already paid: given back (second-payment.ts). */
  onSecondPayment?: (payment: OrderPayment) => Promise<unknown>,
): Promise<void> {
  const { payload: notification, record } = event;
  const reference = record.reference;
  // A refund's notification carries the refund's amount, at most what was paid.
  const amountFits =
    notification.status === 'REFUNDED'
      ? Math.abs(notification.amount) > 0 &&
        Math.abs(notification.amount) <= Math.abs(record.amount)
      : notification.amount === record.amount;
  const agrees = amountFits && notification.currency === record.currency;
  if (!agrees) {
    log(
      `[shop] WARN payment notification for ${reference} differs from the gateway's record: it said ${notification.status} ${formatAmount(notification.amount, notification.currency)}, the gateway ${record.status} ${formatAmount(record.amount, record.currency)}`,
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

  const order = await orders.byPayment(reference);
  if (!order) {
    // Not a payment this shop recorded: the hooks or the result page's lookup record each payment of
    // the shop's orders; the payload's merchant reference is not believed.
    log(
      `[shop] payment webhook for ${reference}: no order of this shop has that payment; nothing changed`,
    );
    return;
  }
  const status = paymentStatusOf(record);
  const known = (await orders.paymentsOf(order.id)).find((p) => p.reference === reference)!;
  await orders.recordPayment({ ...known, status, gatewayStatus: record.status });
  if (status === 'paid') {
    const outcome = await orders.markPaid(order.id, {
      reference,
      amount: record.amount,
      currency: record.currency,
    });
    if (outcome === 'paid') log(`[shop] ${order.reference} paid by ${reference} (webhook)`);
    if (outcome === 'second-payment') {
      log(
        `[shop] WARN ${order.reference} was already paid by ${order.paid?.reference}; ${reference} is a second charge to refund`,
      );
      await onSecondPayment?.({ ...known, status, gatewayStatus: record.status });
    }
  } else if (status === 'refunded' && (await orders.markRefunded(order.id, reference))) {
    log(`[shop] ${order.reference} refunded (${reference})`);
  }
}
