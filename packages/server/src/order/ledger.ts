import { base64url, randomBytes } from '../runtime/crypto.js';
import { CheckoutError, storeUnavailable } from '../errors.js';
import type { LookupRecord } from '../gateway/port.js';
import type { PaymentMethodKind } from '../options.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError, setupFault } from '../gateway/failures.js';
import { orderKeys } from '../stores/keys.js';
import { enqueueSafely } from '../facts/sweep-list.js';
import { nextStatus, observed, type AttemptEvent, type AttemptStatus } from './states.js';
import { later } from '../runtime/timers.js';

/**
 * What the middleware remembers of one order's attempts. A cache of the gateway: when it is
 * missing, {@link rebuildLedger} reads the same facts back with lookups by merchant reference.
 */
export interface Ledger {
  /** By attempt number. */
  attempts: Record<string, LedgerAttempt>;
  /**
   * When the gateway's lookups gave this ledger back (ms since the epoch). A ledger with no attempts
   * is the knowledge "never charged" only for {@link LOOKUP_FRESH_MS} after it; our own creates, written
   * under the lock, need no date.
   */
  lookedUpAt?: number;
}

/** How long "no attempt was ever sent for this order", read from the gateway, is believed. */
export const LOOKUP_FRESH_MS = 10 * 60_000;

export interface LedgerAttempt {
  /** How it was started; `undefined` when read back from the gateway. */
  method?: PaymentMethodKind;
  /** See {@link AttemptStatus}; moved only through {@link move} and {@link observe}. */
  status: AttemptStatus;
  /** The gateway's reference, once known. */
  reference?: string;
  /** What the attempt asks the gateway to charge (or, read back, what the gateway holds). */
  amount?: number;
  currency?: string;
  /** When its create was sent (ms since the epoch); 0 when read back from the gateway. */
  openedAt: number;
  /** When a budgeted read last asked the gateway about it (see {@link refreshAttempts}). */
  checkedAt?: number;
  /** When the gateway refused its card (a decline, a failed authentication): the order's decline limit. */
  declinedAt?: number;
}

/** The most attempts one order may have; a shop that needs more has a bug or an attacker. */
export const MAX_ATTEMPTS = 50;
const LOCK_TTL_MS = 2 * 60_000;
const LOCK_POLL_MS = 50;

/** Attempt `n` of order `order` uses the merchant reference `order-n` for every method. */
export const attemptReference = (order: string, n: number): string => `${order}-${n}`;

/** The order and attempt number of a merchant reference this middleware made, or `undefined`. */
export function parseAttemptReference(
  merchantReference: string,
): { order: string; n: number } | undefined {
  const match = /^([A-Za-z0-9._:-]{1,80})-(\d{1,3})$/.exec(merchantReference);
  if (!match) return undefined;
  const n = Number(match[2]);
  return n >= 1 && n <= MAX_ATTEMPTS ? { order: match[1]!, n } : undefined;
}

/** Applies one of our own moves ({@link ATTEMPT_TRANSITIONS}); `never_created` frees the number. */
export function move(ledger: Ledger, n: number, event: AttemptEvent): void {
  const attempt = ledger.attempts[n];
  const next = nextStatus(attempt ? attempt.status : 'absent', event);
  if (next === null) delete ledger.attempts[n];
  else if (attempt) attempt.status = next;
}

/** Takes the gateway's word for an attempt: its lookup record. */
export function observe(attempt: LedgerAttempt, record: LookupRecord): void {
  attempt.status = observed(record.status);
  attempt.reference = record.reference;
  attempt.amount = record.amount;
  attempt.currency = record.currency;
}

/**
 * The number a new attempt uses: the lowest one the ledger does not hold. An attempt is dropped
 * from the ledger only once the gateway said, for longer than `reconcileGraceMs`, that it never got
 * its create, so the number is used again only when no late arrival of the first is expected.
 */
function nextAttempt(ledger: Ledger): number {
  let n = 1;
  while (ledger.attempts[n]) n += 1;
  if (n > MAX_ATTEMPTS)
    throw new CheckoutError('conflict', 'This order has had too many payment attempts.');
  return n;
}

/** Takes the next number for a create about to be sent: the attempt is `unknown` until answered. */
export function startAttempt(
  ctx: Context,
  ledger: Ledger,
  fields: { method: PaymentMethodKind; amount: number; currency: string },
): { n: number; attempt: LedgerAttempt } {
  const n = nextAttempt(ledger);
  const status = nextStatus('absent', 'sent');
  const attempt: LedgerAttempt = { ...fields, status: status!, openedAt: ctx.now() };
  // Its caller writes it ahead ({@link OrderSession.writeAhead}) before the create leaves.
  ledger.attempts[n] = attempt;
  return { n, attempt };
}

/**
 * What the order's book holds against its decline limit (limits/card-testing.ts): when each of
 * its refused cards was refused, and how many attempts the gateway may still decline.
 */
export function declineHolds(ledger: Ledger): { declinedAt: number[]; undecided: number } {
  const attempts = Object.values(ledger.attempts);
  return {
    declinedAt: attempts.flatMap((a) => (a.declinedAt === undefined ? [] : [a.declinedAt])),
    undecided: attempts.filter(undecided).length,
  };
}

/** Attempt `n`'s card was refused by the gateway now; written back with the lock's release. */
export function markDeclined(ctx: Context, ledger: Ledger, n: number): void {
  const attempt = ledger.attempts[n];
  if (attempt) attempt.declinedAt = ctx.now();
}

export const paidAttempt = (ledger: Ledger): [number, LedgerAttempt] | undefined => {
  for (const [n, attempt] of Object.entries(ledger.attempts))
    if (attempt.status === 'paid') return [Number(n), attempt];
  return undefined;
};

/**
 * Reads the order's attempts back from the gateway: `order-1`, `order-2`, ... until one is not
 * found. Throws when the gateway cannot be asked (nothing may be sent without knowing).
 */
export async function rebuildLedger(ctx: Context, order: string): Promise<Ledger> {
  const gateway = await ctx.gateway();
  const attempts: Ledger['attempts'] = {};
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    let result;
    try {
      result = await gateway.reconcile(attemptReference(order, n));
    } catch (error) {
      const failure = classifyGatewayError(error);
      if (failure.kind === 'not_gateway') throw error;
      // Wrong credentials or URL fail this first lookup of an order: say so, not "unavailable".
      const fault = setupFault(ctx, failure, error);
      if (fault) throw fault;
      ctx.logger.warn('could not read an order back from the gateway', { order, error });
      throw new CheckoutError(
        'gateway_unavailable',
        'The payment service is unavailable. Nothing was charged; please try again shortly.',
        { retryAfterSeconds: 5 },
      );
    }
    if (!result.found) return { attempts, lookedUpAt: ctx.now() };
    const attempt: LedgerAttempt = { status: 'unknown', openedAt: 0 };
    observe(attempt, result.record);
    attempts[n] = attempt;
  }
  throw new CheckoutError('conflict', 'This order has had too many payment attempts.');
}

export interface OrderSession {
  ledger: Ledger;
  /** False when the store could not be reached and the ledger was read from the gateway. */
  stored: boolean;
  /**
   * Writes the ledger now, under the lock, before a create is sent: an instance that dies during
   * the call leaves the attempt `unknown` (asked about next time), never a free number that a
   * later create would use again, which a gateway may charge as a new transaction (spec: merchant
   * reference uniqueness not shown). Only a ledger the store held is written ahead: one read back
   * from the gateway is read back again. Throws (nothing may be sent) when the store cannot take
   * it, and attempt `n` leaves the ledger again: its create was never sent.
   */
  writeAhead(n: number): Promise<void>;
}

/**
 * Runs `work` holding the order's lock, with its ledger (from the store, or rebuilt from the
 * gateway), then writes the ledger back and releases the lock in one store call. Every call that
 * can move money for an order (create, Step 2 confirm, 3-D Secure confirm) runs in here.
 *
 * - `waitMs`: how long to wait for a busy lock before refusing with `conflict`.
 * - `degraded`: when the store cannot be reached, go on with a ledger rebuilt from the gateway and
 *   no lock (a bank's post must not be lost to a store outage); otherwise refuse with `store_unavailable`.
 *
 * - `remember`: a ledger read back from the gateway with no attempts is written to the store for
 *   {@link LOOKUP_FRESH_MS}, so the order's next create needs no lookup first.
 *
 * A failure to write after `work` is logged, never thrown: the answer stands on what the gateway said.
 */
export async function withOrder<T>(
  ctx: Context,
  order: string,
  work: (session: OrderSession) => Promise<T>,
  options: { waitMs?: number; degraded?: boolean; remember?: boolean } = {},
): Promise<T> {
  const keys = orderKeys(order);
  const deadline = ctx.now() + (options.waitMs ?? 0);
  // Fences the write-back: after a store restart another request may hold the lock anew.
  const token = base64url(randomBytes(12));
  let raw: string | undefined;
  let stored = true;
  for (;;) {
    let claim;
    try {
      claim = await ctx.store.lockAndGet(keys.lock, LOCK_TTL_MS, keys.ledger, token);
    } catch (error) {
      if (!options.degraded) {
        throw storeUnavailable(ctx.logger, error);
      }
      ctx.logger.error('store unavailable; reading the order from the gateway', { error });
      stored = false;
      break;
    }
    if (claim.locked) {
      raw = claim.value;
      break;
    }
    if (ctx.now() >= deadline)
      throw new CheckoutError('conflict', 'A payment for this order is already in progress.');
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
  let ledger: Ledger;
  try {
    const kept = raw ? (JSON.parse(raw) as Ledger) : undefined;
    // Knowledge past its time is looked up again, as if the store had lost it.
    if (kept && !isStale(ctx, kept)) ledger = kept;
    else {
      raw = undefined;
      ledger = await rebuildLedger(ctx, order);
    }
  } catch (error) {
    if (stored) await finish(ctx, order, token, [{ key: keys.lock, delete: true }]);
    throw error;
  }
  // A ledger the store did not have counts as unchanged while it holds only decided attempts:
  // the gateway's lookups give it back as it is, so a paid order costs no ledger write.
  const read = raw ?? JSON.stringify({ attempts: {} });
  // What the store holds now: after a write-ahead, the ledger as it was written, not as it was read.
  let held = raw;
  const writeAhead = async (n: number) => {
    // A ledger the store did not hold was read from the gateway's lookups, and one that dies with
    // this call is read from them again: only a stored ledger can hide a sent create.
    if (!stored || held === undefined) return;
    const value = JSON.stringify(ledger);
    let applied: boolean;
    try {
      applied = await ctx.store.writeAll([{ key: keys.ledger, value, ttlMs: ctx.recordTtlMs }], {
        key: keys.lock,
        value: token,
      });
    } catch (error) {
      delete ledger.attempts[n];
      throw storeUnavailable(ctx.logger, error);
    }
    if (!applied) {
      delete ledger.attempts[n];
      throw new CheckoutError('conflict', 'A payment for this order is already in progress.');
    }
    held = value;
  };
  try {
    return await work({ ledger, stored, writeAhead });
  } finally {
    if (stored) {
      const now = JSON.stringify(ledger);
      // A refused card is kept: the order's decline limit counts it (a rebuilt ledger cannot).
      // A lookup that found nothing is kept (briefly) when asked: the next Pay sends its create at once.
      const learnt = raw === undefined && options.remember === true && isEmpty(ledger);
      const unchanged =
        !learnt &&
        (now === (held ?? read) || (held === undefined && decided(ledger) && !declinedNow(ledger)));
      if (now !== read && newlyOpen(JSON.parse(read) as Ledger, ledger))
        void enqueueSafely(ctx, { kind: 'order', order, at: ctx.now() });
      await finish(
        ctx,
        order,
        token,
        unchanged
          ? [{ key: keys.lock, delete: true }]
          : [
              {
                key: keys.ledger,
                value: now,
                ttlMs: learnt ? Math.min(LOOKUP_FRESH_MS, ctx.recordTtlMs) : ctx.recordTtlMs,
              },
              { key: keys.lock, delete: true },
            ],
      );
    }
  }
}

const isEmpty = (ledger: Ledger) => Object.keys(ledger.attempts).length === 0;

/** A ledger of no attempts whose lookup is older than {@link LOOKUP_FRESH_MS}. */
const isStale = (ctx: Context, ledger: Ledger) =>
  isEmpty(ledger) &&
  ledger.lookedUpAt !== undefined &&
  ctx.now() - ledger.lookedUpAt >= LOOKUP_FRESH_MS;

/**
 * The order's "was it charged already?", asked when the checkout loads the order (not on the click):
 * when the store holds no ledger for it, the gateway's lookups are read under the order's lock (never
 * waited for: someone paying already knows) and kept while fresh. Best effort: a failure only leaves
 * the lookup to Pay, as before.
 */
export async function learnOrder(ctx: Context, order: string): Promise<void> {
  try {
    if (await ctx.store.get(orderKeys(order).ledger)) return;
    await withOrder(ctx, order, async () => undefined, { remember: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'conflict')
      ctx.logger.warn('could not look the order up ahead of Pay; Pay will', { order, error });
  }
}

/** Whether an attempt is open or unanswered now that was not before: the sweep asks about it. */
function newlyOpen(before: Ledger, after: Ledger): boolean {
  const unsettled = (a: LedgerAttempt | undefined) =>
    a?.status === 'open' || a?.status === 'unknown';
  return Object.entries(after.attempts).some(
    ([n, attempt]) => unsettled(attempt) && !unsettled(before.attempts[n]),
  );
}

const declinedNow = (ledger: Ledger) =>
  Object.values(ledger.attempts).some((a) => a.declinedAt !== undefined);

const decided = (ledger: Ledger) =>
  Object.values(ledger.attempts).every((a) => a.status === 'paid' || a.status === 'failed');

const FINISH_RETRY_MS = [100, 400, 1_500, 5_000, 15_000];
type Ops = Parameters<Context['store']['writeAll']>[0];

/**
 * Writes the ledger back and releases the lock, only while the lock is still this request's: a
 * request whose store restarted under it must not overwrite what others wrote since.
 */
async function finish(ctx: Context, order: string, token: string, ops: Ops): Promise<void> {
  const held = { key: orderKeys(order).lock, value: token };
  try {
    if (!(await ctx.store.writeAll(ops, held)))
      ctx.logger.warn('order lock lost during a payment call; the ledger was left to others', {
        order,
      });
  } catch (error) {
    ctx.logger.error('store write failed after a gateway call; the gateway keeps the truth', {
      order,
      error,
    });
    // The answer stands; keep trying in the background so the order is not locked until the TTL.
    retryFinish(ctx, order, ops, held, 0);
  }
}

function retryFinish(
  ctx: Context,
  order: string,
  ops: Ops,
  held: { key: string; value: string },
  attempt: number,
): void {
  const delay = FINISH_RETRY_MS[attempt];
  if (delay === undefined) return;
  later(() => {
    ctx.store.writeAll(ops, held).then(
      (applied) =>
        ctx.logger.info(
          applied ? 'order released after a store outage' : 'order lock gone after a store outage',
          { order },
        ),
      () => retryFinish(ctx, order, ops, held, attempt + 1),
    );
  }, delay);
}

const undecided = (attempt: LedgerAttempt) =>
  attempt.status !== 'paid' && attempt.status !== 'failed';

/**
 * The attempts a read with a budget of `budget` lookups asks about: unanswered creates first,
 * then the attempt asked about longest ago (never asked: the newest first), so a cart with many
 * open attempts costs one lookup per read and every attempt's turn comes.
 */
function chosen(entries: [string, LedgerAttempt][], budget: number): Set<string> {
  const rank = ([key, a]: [string, LedgerAttempt]) =>
    [a.status === 'unknown' ? 0 : 1, a.checkedAt ?? -1, -Number(key)] as const;
  const sorted = [...entries].sort((x, y) => {
    const [a, b] = [rank(x), rank(y)];
    return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  });
  return new Set(sorted.slice(0, budget).map(([key]) => key));
}

/**
 * Asks the gateway about every attempt of the order whose outcome the ledger does not know for
 * sure (`unknown`, `open`), except `skip`, or, with `budget`, about that many of them (reads: the
 * others keep what the ledger says, which is never "open"). Returns `'wait'` while an unanswered
 * create may still be processed (within `reconcileGraceMs`) or was not asked about: nothing new
 * may be sent for the order then.
 */
export async function refreshAttempts(
  ctx: Context,
  order: string,
  ledger: Ledger,
  skip?: number,
  { budget }: { budget?: number } = {},
): Promise<'ok' | 'wait'> {
  let wait = false;
  const open = Object.entries(ledger.attempts).filter(
    ([key, attempt]) => Number(key) !== skip && undecided(attempt),
  );
  const asked = budget === undefined ? undefined : chosen(open, budget);
  for (const [key, attempt] of open) {
    const n = Number(key);
    if (asked && !asked.has(key)) {
      if (attempt.status === 'unknown') wait = true;
      continue;
    }
    if (asked) attempt.checkedAt = ctx.now();
    let result;
    try {
      result = await (await ctx.gateway()).reconcile(attemptReference(order, n));
    } catch (error) {
      const failure = classifyGatewayError(error);
      if (failure.kind === 'not_gateway') throw error;
      // Still unknown (a bank's proof must not be lost to it), but a setup fault is said loudly.
      if (!setupFault(ctx, failure, error))
        ctx.logger.warn('reconcile failed; outcome still unknown', { order, n, error });
      if (attempt.status === 'unknown') wait = true;
      continue;
    }
    if (result.found) observe(attempt, result.record);
    else if (attempt.status === 'unknown') {
      if (ctx.now() - attempt.openedAt < ctx.reconcileGraceMs) {
        ctx.logger.info('payment not found yet; waiting before treating it as never created', {
          order,
          n,
        });
        wait = true;
      } else move(ledger, n, 'never_created');
    }
  }
  return wait ? 'wait' : 'ok';
}
