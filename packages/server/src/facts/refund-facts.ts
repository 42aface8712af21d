import type { ListedTransaction } from '../gateway/port.js';
import type { RefundEvent } from '../options.js';
import type { Context } from '../setup/context.js';
import { deliver, wantsFact, type DeliveryResult, type Fact } from './delivery.js';
import type { RefundHand } from './refund-hook.js';
import { paymentKeys } from '../stores/keys.js';
import { enqueueSafely } from './sweep-list.js';

/** How long a pending refund is watched by the sweep (reconcile-refunds.ts), and its list item marked. */
export const WATCH_TTL_MS = 14 * 24 * 60 * 60_000;

const PREFIX = 'refund-';

/** A merchant reference the refund use case gave a refund (`refund-<key>`). */
export const isRefundReference = (m: string | null | undefined): m is string =>
  typeof m === 'string' && m.length > PREFIX.length && m.startsWith(PREFIX);

/** A refund record the gateway completed: negative, not pending, not ended unrefunded. */
export const isCompletedRefund = (t: {
  amount: number;
  status: string;
  pending?: boolean | null | undefined;
}): boolean =>
  t.amount < 0 && t.pending !== true && (t.status === 'REFUNDED' || t.status === 'SETTLED');

/** A refund record still to be processed (code 7): negative and pending or `NEW`. */
export const isPendingRefundRecord = (t: {
  amount: number;
  status: string;
  pending?: boolean | null | undefined;
}): boolean => t.amount < 0 && (t.pending === true || t.status === 'NEW');

/** A refund fact is keyed by its merchant reference: the one name the gateway's list gives back. */
export const refundFact = (event: RefundEvent): Fact => ({
  kind: 'refunded',
  reference: event.merchantReference,
  event,
});

/** The event of a refund record of the gateway (`record.amount` negative). */
export function refundEventOf(
  paymentReference: string,
  record: Pick<ListedTransaction, 'reference' | 'amount' | 'currency'> & {
    merchantReference: string;
  },
  orderReference?: string,
): RefundEvent {
  return {
    paymentReference,
    merchantReference: record.merchantReference,
    reference: record.reference,
    ...(orderReference ? { orderReference } : {}),
    amount: -record.amount,
    currency: record.currency,
  };
}

/**
 * A checkout's hand: a completed refund goes through the outbox (retried, swept); a pending one is
 * put on the sweep's list, which asks the gateway about it until it completes.
 */
export function outboxHand(ctx: Context): RefundHand {
  return {
    async completed(event) {
      await deliver(ctx, refundFact(event));
    },
    async pending(event) {
      if (!wantsFact(ctx, 'refunded')) return;
      // Asked about again with the same key: one item on the list is enough.
      const watch = paymentKeys(event.merchantReference).refundWatch;
      if (!(await ctx.store.setIfAbsent(watch, '1', WATCH_TTL_MS).catch(() => true))) return;
      await enqueueSafely(ctx, {
        kind: 'refund',
        payment: event.paymentReference,
        merchantReference: event.merchantReference,
        at: ctx.now(),
      });
    },
  };
}

/**
 * A notification of a refund on `payment`: its refunds from the gateway's list (one call), each
 * completed `refund-<key>` one handed over unless already delivered. `amount`: the notified cents
 * (negative for a refund), narrowing to refunds of that size. Throws when the gateway cannot answer.
 */
export async function deliverRefundsOf(
  ctx: Context,
  payment: string,
  notifiedAmount: number,
  orderReference?: string,
): Promise<DeliveryResult[]> {
  const { lookups } = await ctx.gateway();
  if (!lookups.list || !wantsFact(ctx, 'refunded')) return [];
  const listed = await lookups.list({ paymentReference: payment });
  const results: DeliveryResult[] = [];
  for (const r of listed) {
    if (r.reference === payment || !isCompletedRefund(r)) continue;
    if (!isRefundReference(r.merchantReference)) continue;
    if (notifiedAmount < 0 && r.amount !== notifiedAmount) continue;
    const event = refundEventOf(
      payment,
      { ...r, merchantReference: r.merchantReference },
      orderReference,
    );
    results.push(await deliver(ctx, refundFact(event)));
  }
  return results;
}
