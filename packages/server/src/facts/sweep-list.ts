import type { Context } from '../setup/context.js';
import { sweepKeys } from '../stores/keys.js';

/** The kinds of money fact the merchant's hooks are told of, each once delivered per reference. */
export type FactKind = 'completed' | 'failed' | 'pending' | 'refunded';

/** What the sweep looks at again: a fact whose hook has not resolved, an order with open attempts, a pending refund. */
export type SweepItem =
  | { kind: 'outbox'; reference: string; fact: FactKind }
  /** `at`: when the attempt was first seen open (ms since the epoch). */
  | { kind: 'order'; order: string; at: number }
  /** A pending (code 7) refund of `payment`, asked about until it completes; `at`: when it was sent. */
  | { kind: 'refund'; payment: string; merchantReference: string; at: number };

const ITEM_TTL_MS = 7 * 24 * 60 * 60_000;
// The sequence outlives every item: a restarted count never overwrites a live one.
const SEQ_TTL_MS = 365 * 24 * 60 * 60_000;

/** Appends an item to the sweep's list (one counter and one write, under one hash tag). */
export async function enqueue(ctx: Context, item: SweepItem): Promise<void> {
  const n = await ctx.store.increment(sweepKeys.seq, SEQ_TTL_MS);
  await ctx.store.set(sweepKeys.item(n), JSON.stringify(item), ITEM_TTL_MS);
}

/** Like {@link enqueue}; a store failure is logged: the gateway's list still finds charges. */
export async function enqueueSafely(ctx: Context, item: SweepItem): Promise<void> {
  try {
    await enqueue(ctx, item);
  } catch (error) {
    ctx.logger.error('store write failed; the sweep will find this only from the gateway', {
      item,
      error,
    });
  }
}

/**
 * Hands each listed item from the head on, at most `limit`, to `visit`; an item `visit` answers
 * `true` for is moved to the tail (looked at again next run), so one stuck item never blocks the rest.
 */
export async function drain(
  ctx: Context,
  limit: number,
  visit: (item: SweepItem) => Promise<boolean>,
): Promise<void> {
  const { store } = ctx;
  const seq = Number((await store.get(sweepKeys.seq)) ?? 0);
  let head = Number((await store.get(sweepKeys.head)) ?? 0);
  if (!(head <= seq)) head = 0; // the sequence restarted
  const end = Math.min(seq, head + limit);
  try {
    for (let n = head + 1; n <= end; n++) {
      const raw = await store.get(sweepKeys.item(n));
      if (raw) {
        const item = JSON.parse(raw) as SweepItem;
        if (await visit(item)) await enqueue(ctx, item);
        await store.delete(sweepKeys.item(n));
      }
      head = n;
    }
  } finally {
    await store.set(sweepKeys.head, String(head), SEQ_TTL_MS);
  }
}
