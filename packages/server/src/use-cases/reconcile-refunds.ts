import type { ListedTransaction } from '../gateway/port.js';
import type { Context } from '../setup/context.js';
import { deliver } from '../facts/delivery.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { paymentKeys } from '../stores/keys.js';
import {
  isCompletedRefund,
  isPendingRefundRecord,
  isRefundReference,
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
  const event = refundEventOf(item.payment, {
    ...record,
    merchantReference: item.merchantReference,
  });
  const result = await deliver(ctx, refundFact(event), { requireStore: true });
  counted(summary, result);
  // A throw left an outbox entry on the list: this item is done.
  return result === 'busy' || result === 'no_store';
}

type List = (filters: { paymentReference: string }) => Promise<ListedTransaction[]>;

/**
 * (c) for refunds: each completed `refund-<key>` on the window's list whose delivery the store has no
 * record of. The list does not say whose refund it is: the refunds of our charges in the window
 * (newest first, one call each) place it. At most `limit` calls and `limit` hook calls.
 */
export async function handOverLostRefunds(
  ctx: Context,
  list: List,
  listed: ListedTransaction[],
  limit: number,
  summary: Summary,
): Promise<void> {
  const lost = new Map<string, ListedTransaction>();
  for (const txn of listed) {
    if (!isCompletedRefund(txn) || !isRefundReference(txn.merchantReference)) continue;
    summary.checked++;
    const keys = paymentKeys(txn.merchantReference);
    // Delivered, or in the outbox (the sweep's list or a retry hands it over).
    if (await ctx.store.get(keys.delivered('refunded'))) continue;
    if (await ctx.store.get(keys.outbox('refunded'))) continue;
    lost.set(txn.merchantReference, txn);
  }
  if (lost.size === 0) return;
  // Only a settled charge can have been refunded (fully refunded: REFUNDED).
  const charges = listed
    .filter(
      (t) =>
        t.amount > 0 &&
        (t.status === 'SETTLED' || t.status === 'REFUNDED') &&
        parseAttemptReference(t.merchantReference ?? ''),
    )
    .reverse();
  let calls = 0;
  let hooks = 0;
  for (const charge of charges) {
    if (lost.size === 0 || calls >= limit || hooks >= limit) break;
    calls++;
    summary.gatewayCalls++;
    let refunds: ListedTransaction[];
    try {
      refunds = await list({ paymentReference: charge.reference });
    } catch (error) {
      if (classifyGatewayError(error).kind === 'not_gateway') throw error;
      ctx.logger.warn('reconcile: a payment’s refunds could not be listed', {
        reference: charge.reference,
        error,
      });
      summary.failed++;
      return;
    }
    for (const r of refunds) {
      const txn = lost.get(r.merchantReference ?? '');
      if (!txn || r.reference !== txn.reference) continue;
      lost.delete(txn.merchantReference!);
      const order = parseAttemptReference(charge.merchantReference!)!.order;
      const event = refundEventOf(
        charge.reference,
        { ...txn, merchantReference: txn.merchantReference! },
        order,
      );
      const result = await deliver(ctx, refundFact(event), { requireStore: true });
      if (result !== 'already') hooks++;
      counted(summary, result);
      if (result === 'no_store') return;
    }
  }
  if (lost.size > 0 && calls < limit && hooks < limit) {
    ctx.logger.warn('reconcile: refunds whose payment is not a charge of the window', {
      merchantReferences: [...lost.keys()].slice(0, 20),
    });
    summary.failed += lost.size;
  }
}
