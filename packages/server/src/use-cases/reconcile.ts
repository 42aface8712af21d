import { base64url, randomBytes } from '../runtime/crypto.js';
import type { ListedTransaction, LookupRecord } from '../gateway/port.js';
import type { ReconcileOptions, ReconcileSummary } from '../options.js';
import type { Context } from '../setup/context.js';
import { deliver, factKindOf, wantsFact, type Fact, type OutboxEntry } from '../facts/delivery.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { paymentKeys, sweepKeys } from '../stores/keys.js';
import { stateFromLookup } from '../order/outcomes.js';
import { drain, type SweepItem } from '../facts/sweep-list.js';
import { attemptReference, parseAttemptReference } from '../order/ledger.js';
import { readLedger } from '../order/book.js';
import { askAboutRefund, handOverLostRefunds } from './reconcile-refunds.js';
import { counted, type Summary } from './sweep-summary.js';

const DAY_MS = 24 * 60 * 60_000;
const DEFAULT_LIMIT = 100;
// Long enough for a slow run of `limit` gateway calls; released at the end of every run.
const SWEEP_LOCK_MS = 10 * 60_000;
/** A pending (NEW) attempt is asked about for this long before the sweep lets it go. */
const PENDING_WATCH_MS = DAY_MS;

const ms = (t: Date | number) => (t instanceof Date ? t.getTime() : t);

/**
 * The reconciliation sweep: redelivers money facts whose hook has not resolved, asks the gateway
 * about attempts left open, and hands on the gateway's charges in the window whose delivery the
 * store has no record of. Bounded by `limit`; one bad item is counted, never thrown.
 */
export async function reconcile(
  options: ReconcileOptions,
  ctx: Context,
): Promise<ReconcileSummary> {
  const until = options.until === undefined ? ctx.now() : ms(options.until);
  const since = options.since === undefined ? until - DAY_MS : ms(options.since);
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!(since <= until) || !Number.isFinite(since) || !Number.isFinite(until))
    throw new TypeError('reconcile: `since` must be a time before `until`');
  if (!Number.isInteger(limit) || limit < 1)
    throw new TypeError('reconcile: `limit` must be a positive whole number');
  const summary: Summary = { checked: 0, delivered: 0, failed: 0, gatewayCalls: 0 };
  const token = base64url(randomBytes(9));
  let locked: boolean;
  try {
    locked = await ctx.store.setIfAbsent(sweepKeys.lock, token, SWEEP_LOCK_MS);
  } catch (error) {
    // Without the store only the gateway's list is left, and nothing can be marked: try later.
    ctx.logger.error('reconcile: store unavailable; nothing swept', { error });
    return { ...summary, failed: 1 };
  }
  if (!locked) return { ...summary, busy: true };
  try {
    try {
      await drain(ctx, limit, (item) => sweepItem(ctx, item, summary));
    } catch (error) {
      summary.failed++;
      ctx.logger.error('reconcile: the sweep list could not be read', { error });
    }
    await sweepGatewayList(ctx, { since, until, limit }, summary);
  } finally {
    try {
      await ctx.store.writeAll([{ key: sweepKeys.lock, delete: true }], {
        key: sweepKeys.lock,
        value: token,
      });
    } catch (error) {
      ctx.logger.warn('reconcile: the sweep lock was left to expire', { error });
    }
  }
  ctx.logger.info('reconcile: swept', { ...summary });
  return summary;
}

/** One listed item; `true` when it must be looked at again next run. Never throws. */
async function sweepItem(ctx: Context, item: SweepItem, summary: Summary): Promise<boolean> {
  summary.checked++;
  try {
    if (item.kind === 'outbox') return await redeliver(ctx, item, summary);
    if (item.kind === 'refund') return await askAboutRefund(ctx, item, summary);
    return await askAboutOrder(ctx, item, summary);
  } catch (error) {
    if (classifyGatewayError(error).kind === 'not_gateway') {
      ctx.logger.error('reconcile: an item failed', { item, error });
    }
    summary.failed++;
    return true;
  }
}

/** (a) An outbox entry: its hook is called again (under the fact's lock). */
async function redeliver(
  ctx: Context,
  item: Extract<SweepItem, { kind: 'outbox' }>,
  summary: Summary,
): Promise<boolean> {
  const raw = await ctx.store.get(paymentKeys(item.reference).outbox(item.fact));
  if (!raw) return false; // delivered, or expired
  const entry = JSON.parse(raw) as OutboxEntry;
  const result = await deliver(ctx, entry.fact, {
    attempt: entry.attempts,
    enqueue: false,
    requireStore: true,
  });
  counted(summary, result);
  // Taken meanwhile by a call that had no outbox entry to drop: drop it here.
  if (result === 'already' || result === 'no_hook')
    await ctx.store.delete(paymentKeys(item.reference).outbox(item.fact));
  return result === 'failed' || result === 'busy' || result === 'no_store';
}

/** (b) An order with attempts left open or unanswered: the gateway says what became of each. */
async function askAboutOrder(
  ctx: Context,
  item: Extract<SweepItem, { kind: 'order' }>,
  summary: Summary,
): Promise<boolean> {
  const ledger = await readLedger(ctx, item.order);
  if (!ledger) return false; // the store lost it: the gateway's list finds its charges
  const age = ctx.now() - item.at;
  const gateway = await ctx.gateway();
  let again = false;
  for (const [n, attempt] of Object.entries(ledger.attempts)) {
    if (attempt.status !== 'open' && attempt.status !== 'unknown') continue;
    const merchantReference = attemptReference(item.order, Number(n));
    let record: LookupRecord | undefined;
    summary.gatewayCalls++;
    try {
      const found = await gateway.reconcile(merchantReference);
      record = found.found ? found.record : undefined;
    } catch (error) {
      if (classifyGatewayError(error).kind === 'not_gateway') throw error;
      ctx.logger.warn('reconcile: the gateway could not be asked', { merchantReference, error });
      summary.failed++;
      again = true;
      continue;
    }
    if (!record) {
      // Never created, once the grace for a late create has passed.
      if (age < ctx.reconcileGraceMs) again = true;
      continue;
    }
    const state = stateFromLookup(record);
    if (!state) {
      // Still in 3-D Secure: the shopper may yet answer, until the session ends.
      if (age < ctx.sessionTtlMs + ctx.reconcileGraceMs) again = true;
      continue;
    }
    if (record.status === 'NEW' && age < PENDING_WATCH_MS) again = true;
    // A refund or reversal of the attempt is the refund use case's fact, not a payment failure.
    if (record.status === 'REFUNDED' || record.status === 'REVERSED') continue;
    const kind = factKindOf(state);
    if (!kind || kind === 'refunded' || !wantsFact(ctx, kind)) continue;
    const result = await deliver(
      ctx,
      {
        kind,
        reference: record.reference,
        event: {
          reference: record.reference,
          merchantReference,
          orderReference: item.order,
          amount: record.amount,
          currency: record.currency,
          state,
        },
      },
      { requireStore: true },
    );
    counted(summary, result);
    if (result === 'busy' || result === 'no_store') again = true;
  }
  return again;
}

const iso = (t: number) => new Date(t).toISOString();
/**
 * A list this long may have been cut short (the spec names no maximum, no order and no paging): its
 * window is asked for again in halves, and the halves tell whether it was. A gateway that cuts lists
 * shorter than this is not read whole (docs/contracts.md, "Assumed of the gateway").
 */
const MAYBE_CUT = 20;
// Halving a day 24 times leaves 5 ms windows: enough for any burst.
const MAX_SPLITS = 24;

type List = NonNullable<Awaited<ReturnType<Context['gateway']>>['lookups']['list']>;
type Window = { since: number; until: number };

/** One list call for a window; `undefined` when the gateway could not be asked (counted as failed). */
async function listOnce(
  ctx: Context,
  list: List,
  window: Window,
  summary: Summary,
): Promise<ListedTransaction[] | undefined> {
  summary.gatewayCalls++;
  try {
    return await list({ fromDate: iso(window.since), toDate: iso(window.until) });
  } catch (error) {
    const level = classifyGatewayError(error).kind === 'not_gateway' ? 'error' : 'warn';
    ctx.logger[level]('reconcile: the gateway’s list could not be read', { error });
    summary.failed++;
    return undefined;
  }
}

/**
 * The gateway's transactions created in the window. A long answer is checked by asking for its two
 * halves: when both hold rows and together no more than the whole did, the whole was complete;
 * otherwise each half is read the same way. `undefined` when the gateway could not be asked.
 */
async function listWindow(
  ctx: Context,
  list: List,
  window: Window,
  summary: Summary,
  depth: number,
  answered?: ListedTransaction[],
): Promise<ListedTransaction[] | undefined> {
  const listed = answered ?? (await listOnce(ctx, list, window, summary));
  if (!listed || listed.length < MAYBE_CUT) return listed;
  if (depth >= MAX_SPLITS || window.until - window.since < 2) {
    ctx.logger.warn('reconcile: the gateway’s list may be cut short even for a short window', {
      since: iso(window.since),
      until: iso(window.until),
      listed: listed.length,
    });
    return listed;
  }
  const middle = Math.floor((window.since + window.until) / 2);
  const halves: Window[] = [
    { since: window.since, until: middle },
    { since: middle + 1, until: window.until },
  ];
  const [first, second] = [
    await listOnce(ctx, list, halves[0]!, summary),
    await listOnce(ctx, list, halves[1]!, summary),
  ];
  // A half that could not be read: what the whole window gave is still worth handing over.
  if (!first || !second) return listed;
  // Both halves hold rows and no more than the whole did: the whole was not cut. A cut whole has
  // a half that is cut too, which holds more beside any row of the other half; all in one half
  // says nothing, so that half is read the same way.
  if (first.length > 0 && second.length > 0 && first.length + second.length <= listed.length)
    return [...first, ...second];
  const a = await listWindow(ctx, list, halves[0]!, summary, depth + 1, first);
  const b = await listWindow(ctx, list, halves[1]!, summary, depth + 1, second);
  return a && b ? [...a, ...b] : listed;
}

/**
 * (c) The gateway's own list: each charge of ours in the window whose delivery is not recorded,
 * then each refund of ours (see reconcile-refunds.ts).
 */
async function sweepGatewayList(
  ctx: Context,
  window: { since: number; until: number; limit: number },
  summary: Summary,
): Promise<void> {
  const charges = wantsFact(ctx, 'completed');
  const refunds = wantsFact(ctx, 'refunded');
  if (!charges && !refunds) return;
  const gateway = await ctx.gateway();
  const list = gateway.lookups.list?.bind(gateway.lookups);
  if (!list) return;
  const listed = await listWindow(ctx, list, window, summary, 0);
  if (!listed) return;
  if (charges && !(await handOverCharges(ctx, listed, window.limit, summary))) return;
  if (!refunds) return;
  try {
    await handOverLostRefunds(ctx, listed, window.limit, summary);
  } catch (error) {
    summary.failed++;
    ctx.logger.error('reconcile: the refunds on the gateway’s list could not be handed over', {
      error,
    });
  }
}

/** The charges of (c); `false` when the store is gone (nothing more can be marked this run). */
async function handOverCharges(
  ctx: Context,
  listed: ListedTransaction[],
  limit: number,
  summary: Summary,
): Promise<boolean> {
  let hooks = 0;
  try {
    for (const txn of listed) {
      if (hooks >= limit) break;
      if (txn.amount <= 0 || (txn.status !== 'SETTLED' && txn.status !== 'AUTHORIZED')) continue;
      const attempt = parseAttemptReference(txn.merchantReference ?? '');
      if (!attempt) continue;
      summary.checked++;
      // One read for a charge already handed over (the common case), the lock only for the rest.
      if (await ctx.store.get(paymentKeys(txn.reference).delivered('completed'))) continue;
      const fact: Fact = {
        kind: 'completed',
        reference: txn.reference,
        event: {
          reference: txn.reference,
          merchantReference: txn.merchantReference!,
          orderReference: attempt.order,
          amount: txn.amount,
          currency: txn.currency,
          state: {
            success: true,
            status: 'approved',
            reference: txn.reference,
            message: 'Payment approved.',
          },
        },
      };
      const result = await deliver(ctx, fact, { requireStore: true });
      if (result !== 'already') hooks++;
      counted(summary, result);
      if (result === 'no_store') return false;
    }
  } catch (error) {
    summary.failed++;
    ctx.logger.error('reconcile: the store failed while reading delivery marks', { error });
    return false;
  }
  return true;
}
