import type { LookupRecord } from '@pg-checkout/express';
import type { PaymentNotification } from '@pg-checkout/protocol';
import { formatAmount } from '../platform/html.js';
import type { GatewayClient } from '@pg-checkout/node';
import type { Order, OrderPayment, OrderStore } from './orders.js';
import { webhookLog } from './webhook-log.js';

const PAID = new Set(['AUTHORIZED', 'SETTLED']);
const NOT_CHARGED = new Set(['CANCELLED', 'FAILED', 'REVERSED']);

/** The shop's word for a gateway record's status. */
export function paymentStatusOf(record: {
  status: string;
  pending?: boolean | null | undefined;
}): OrderPayment['status'] {
  if (record.pending) return 'pending';
  if (PAID.has(record.status)) return 'paid';
  if (record.status === 'REFUNDED') return 'refunded';
  if (NOT_CHARGED.has(record.status)) return 'failed';
  return 'pending';
}

/**
 * The order and attempt of a notified payment the shop has no row for (the hook that writes it
 * failed: the shop's database was down). `orderReference` is the middleware's (its record of the
 * payment, or the payload's merchant reference once the gateway confirmed it); the attempt's merchant
 * reference counts only when it is one of that order's and the gateway's lookup by it finds this
 * payment. Throws when the gateway cannot be asked, so the delivery is answered 5xx and retried.
 */
async function attemptOf(
  event: {
    payload: PaymentNotification;
    record: LookupRecord;
    orderReference?: string | undefined;
  },
  orders: OrderStore,
  client: Pick<GatewayClient, 'reconcile'>,
): Promise<{ order: Order; merchantReference: string } | undefined> {
  const order = event.orderReference ? await orders.byReference(event.orderReference) : undefined;
  const claimed = event.payload.merchantReference;
  if (!order || typeof claimed !== 'string') return undefined;
  if (!new RegExp(`^${order.reference}-[1-9][0-9]{0,5}$`).test(claimed)) return undefined;
  const found = await client.reconcile(claimed);
  return found.found && found.record.reference === event.record.reference
    ? { order, merchantReference: claimed }
    : undefined;
}

/**
 * A verified payment webhook. The notify hash covers only the payment reference, and the payload's
 * merchant reference names an attempt (`order-…-1`), not an order: so the shop acts on the gateway's
 * own record (`record`, which the middleware looked up) and finds the order through its own table
 * of the payments it recorded, or, when it has none (the hook that records it failed), through the
 * middleware's verified order reference and the gateway's lookup of the attempt: then it writes the
 * payment row itself, so a retried delivery completes the order. Never through the payload alone.
 * The payload is only shown, beside what the gateway said, when the two disagree.
 */
export async function handlePaymentWebhook(
  event: {
    payload: PaymentNotification;
    record: LookupRecord;
    orderReference?: string | undefined;
  },
  deps: {
    orders: OrderStore;
    client: Pick<GatewayClient, 'reconcile'>;
    log: (line: string) => void;
    /** A second charge of an order already paid: given back (second-payment.ts). */
    onSecondPayment?: ((payment: OrderPayment) => Promise<unknown>) | undefined;
  },
): Promise<void> {
  const { orders, client, log, onSecondPayment } = deps;
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

  let order = await orders.byPayment(reference);
  let known = order
    ? (await orders.paymentsOf(order.id)).find((p) => p.reference === reference)
    : undefined;
  if (!order || !known) {
    const attempt = await attemptOf(event, orders, client);
    if (!attempt) {
      // Not a payment of this shop's orders as far as the middleware and the gateway can tell; the
      // payload's merchant reference alone is not believed.
      log(
        `[shop] payment webhook for ${reference}: no order of this shop has that payment; nothing changed`,
      );
      return;
    }
    order = attempt.order;
    known = {
      reference,
      orderId: order.id,
      merchantReference: attempt.merchantReference,
      amount: record.amount,
      currency: record.currency,
      status: 'pending',
    };
    log(`[shop] payment ${reference} of ${order.reference} recorded from its webhook`);
  }
  const status = paymentStatusOf(record);
  await orders.recordPayment({ ...known, status, gatewayStatus: record.status });
  if (status === 'paid') {
    const outcome = await orders.markPaid(order.id, {
      reference,
      amount: record.amount,
      currency: record.currency,
    });
    if (outcome === 'paid') log(`[shop] ${order.reference} paid by ${reference} (webhook)`);
    if (outcome === 'changed')
      log(
        `[shop] WARN ${order.reference} charged ${formatAmount(record.amount, record.currency)} for ${formatAmount(order.total, order.currency)} (webhook): refund or collect the rest`,
      );
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
