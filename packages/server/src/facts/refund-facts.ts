import type { ListedTransaction } from '../gateway/port.js';
import type { RefundEvent } from '../options.js';
import type { Context } from '../setup/context.js';
import { deliver, wantsFact, type DeliveryResult, type Fact } from './delivery.js';
import type { RefundHand } from './refund-hook.js';
import { paymentKeys } from '../stores/keys.js';
import { enqueueSafely } from './sweep-list.js';
import {
  highestSlot,
  paymentOfPrefix,
  parseRefundReference,
  readBook,
  readSlots,
  type RefundBook,
} from './refund-slots.js';

/** How long a pending refund is watched by the sweep (reconcile-refunds.ts), and its list item marked. */
export const WATCH_TTL_MS = 14 * 24 * 60 * 60_000;

/** A merchant reference the refund use case gave a refund (a slot, `<P>~r<i>`). */
export const isRefundReference = (m: string | null | undefined): m is string =>
  parseRefundReference(m) !== undefined;

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
  key?: string,
): RefundEvent {
  return {
    paymentReference,
    merchantReference: record.merchantReference,
    ...(key ? { key } : {}),
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

/** The caller's key of slot `i`, when the book has it. */
const keyOf = (book: RefundBook, i: number): string | undefined =>
  book.slots.find((s) => s.i === i)?.key;

/**
 * A notification of a refund on `payment`: its refund slots from the gateway's lookups by merchant
 * reference, each completed one handed over unless already delivered. `notifiedAmount`: the notified
 * cents (negative for a refund), narrowing to refunds of that size. Throws when the gateway cannot answer.
 */
export async function deliverRefundsOf(
  ctx: Context,
  payment: string,
  notifiedAmount: number,
  orderReference?: string,
): Promise<DeliveryResult[]> {
  if (!wantsFact(ctx, 'refunded')) return [];
  const gateway = await ctx.gateway();
  const book = await readBook(ctx.store, payment).catch(() => ({ slots: [] }));
  const readings = await readSlots((m) => gateway.reconcile(m), payment, highestSlot(book));
  const results: DeliveryResult[] = [];
  for (const { i, merchantReference, record } of readings) {
    if (!record || !isCompletedRefund(record)) continue;
    if (notifiedAmount < 0 && record.amount !== notifiedAmount) continue;
    const event = refundEventOf(
      payment,
      { ...record, merchantReference },
      orderReference,
      keyOf(book, i),
    );
    results.push(await deliver(ctx, refundFact(event)));
  }
  return results;
}

/**
 * A notification whose merchant reference names a refund slot (`<P>~r<i>`): that slot looked up (one
 * call) and, completed, handed over once. The payload is not covered by the hash: the slot counts
 * only when its record, or its payment, is the notified (verified) reference. `undefined` when the
 * reference names no payment of ours; no result while the slot is still pending or ended unrefunded.
 */
export async function deliverNotifiedRefund(
  ctx: Context,
  merchantReference: string | null | undefined,
  notifiedReference: string,
  orderOf: (payment: string) => Promise<string | undefined>,
): Promise<DeliveryResult[] | undefined> {
  const parsed = parseRefundReference(merchantReference);
  if (!parsed || !merchantReference || !wantsFact(ctx, 'refunded')) return undefined;
  const payment = await paymentOfPrefix(ctx.store, parsed, [notifiedReference]);
  if (!payment) return undefined;
  const found = await (await ctx.gateway()).reconcile(merchantReference);
  if (!found.found) return undefined;
  const { record } = found;
  if (record.reference !== notifiedReference && payment !== notifiedReference) return undefined;
  if (!isCompletedRefund(record)) return []; // still pending, or ended unrefunded
  const book = await readBook(ctx.store, payment).catch(() => ({ slots: [] }));
  const event = refundEventOf(
    payment,
    { ...record, merchantReference },
    await orderOf(payment),
    keyOf(book, parsed.i),
  );
  return [await deliver(ctx, refundFact(event))];
}
