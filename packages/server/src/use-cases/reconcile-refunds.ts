import type { ListedTransaction } from '../gateway/port.js';
import type { Context } from '../setup/context.js';
import { deliver } from '../facts/delivery.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { paymentKeys } from '../stores/keys.js';
import {
  highestSlot,
  parseRefundReference,
  paymentOfPrefix,
  readBook,
  readSlots,
  type RefundSlot,
  type SlotReading,
} from '../facts/refund-slots.js';
import {
  isCompletedRefund,
  isPendingRefundRecord,
  refundEventOf,
  refundFact,
  WATCH_TTL_MS,
} from '../facts/refund-facts.js';
import type { SweepItem } from '../facts/sweep-list.js';
import { parseAttemptReference } from '../order/ledger.js';
import { counted, type Summary } from './sweep-summary.js';

/** A pending refund on the sweep's list: delivered once the gateway shows it completed. */
export async function askAboutRefund(
  ctx: Context,
  item: Extract<SweepItem, { kind: 'refund' }>,
  summary: Summary,
): Promise<boolean> {
  // A manual refund takes up to 8 working days: it is asked about for two weeks.
  const watching = ctx.now() - item.at < WATCH_TTL_MS;
  const gateway = await ctx.gateway();
  summary.gatewayCalls++;
  let found: Awaited<ReturnType<typeof gateway.reconcile>>;
  try {
    found = await gateway.reconcile(item.merchantReference);
  } catch (error) {
    if (classifyGatewayError(error).kind === 'not_gateway') throw error;
    ctx.logger.warn('reconcile: the gateway could not be asked about a refund', {
      merchantReference: item.merchantReference,
      error,
    });
    summary.failed++;
    return watching;
  }
  if (!found.found) return watching; // not listed yet
  const { record } = found;
  if (isPendingRefundRecord(record)) return watching;
  if (!isCompletedRefund(record)) return false; // ended unrefunded (or not a refund)
  const slot = parseRefundReference(item.merchantReference)?.i;
  const book = await readBook(ctx.store, item.payment);
  const key = book.slots.find((s) => s.i === slot)?.key;
  const event = refundEventOf(
    item.payment,
    { ...record, merchantReference: item.merchantReference },
    undefined,
    key,
  );
  const result = await deliver(ctx, refundFact(event), { requireStore: true });
  counted(summary, result);
  // A throw left an outbox entry on the list: this item is done.
  return result === 'busy' || result === 'no_store';
}

/**
 * (c) for refunds: each completed refund on the window's list whose merchant reference is a slot of
 * ours (`<P>~r<i>`) and whose delivery the store has no record of names its payment; that payment's
 * slots are read again from the gateway (lookups by merchant reference) and each completed one not
 * delivered is handed over. At most `limit` payments read and `limit` hook calls.
 */
export async function handOverLostRefunds(
  ctx: Context,
  listed: ListedTransaction[],
  limit: number,
  summary: Summary,
): Promise<void> {
  const charges = listed.filter((t) => t.amount > 0);
  const lost = new Map<string, string[]>(); // payment -> its lost slot references
  const unplaced: string[] = [];
  for (const txn of listed) {
    const parsed = parseRefundReference(txn.merchantReference);
    if (!parsed || !isCompletedRefund(txn)) continue;
    summary.checked++;
    const keys = paymentKeys(txn.merchantReference!);
    // Delivered, or in the outbox (the sweep's list or a retry hands it over).
    if (await ctx.store.get(keys.delivered('refunded'))) continue;
    if (await ctx.store.get(keys.outbox('refunded'))) continue;
    const payment = await paymentOfPrefix(
      ctx.store,
      parsed,
      charges.map((c) => c.reference),
    );
    if (!payment) unplaced.push(txn.merchantReference!);
    else lost.set(payment, [...(lost.get(payment) ?? []), txn.merchantReference!]);
  }
  if (unplaced.length > 0) {
    ctx.logger.warn('reconcile: refunds whose payment is not a charge of the window', {
      merchantReferences: unplaced.slice(0, 20),
    });
    summary.failed += unplaced.length;
  }
  const gateway = await ctx.gateway();
  let read = 0;
  let hooks = 0;
  for (const payment of lost.keys()) {
    if (read >= limit || hooks >= limit) break;
    read++;
    const book = await readBook(ctx.store, payment).catch(() => ({ slots: [] as RefundSlot[] }));
    let readings: SlotReading[];
    try {
      readings = await readSlots(
        (m) => {
          summary.gatewayCalls++;
          return gateway.reconcile(m);
        },
        payment,
        highestSlot(book),
      );
    } catch (error) {
      if (classifyGatewayError(error).kind === 'not_gateway') throw error;
      ctx.logger.warn('reconcile: a payment’s refund slots could not be read', {
        reference: payment,
        error,
      });
      summary.failed++;
      continue;
    }
    const charge = charges.find((c) => c.reference === payment);
    const order = parseAttemptReference(charge?.merchantReference ?? '')?.order;
    for (const { i, merchantReference, record } of readings) {
      if (!record || !isCompletedRefund(record)) continue;
      const key = book.slots.find((s) => s.i === i)?.key;
      const event = refundEventOf(payment, { ...record, merchantReference }, order, key);
      const result = await deliver(ctx, refundFact(event), { requireStore: true });
      if (result !== 'already') hooks++;
      counted(summary, result);
      if (result === 'no_store') return;
    }
  }
}
