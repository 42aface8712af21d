import { base64url, randomBytes } from '../runtime/crypto.js';
import { CheckoutError, storeUnavailable } from '../errors.js';
import type { LookupRecord } from '../gateway/port.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError, setupFault } from '../gateway/failures.js';
import { orderKeys, paymentKeys } from '../stores/keys.js';
import { enqueueSafely } from '../facts/sweep-list.js';
import { resolveSavedCard } from '../cards/saved-cards.js';
import { later } from '../runtime/timers.js';
import { orderDeclined } from '../limits/card-testing.js';
import {
  LEDGER_VERSION,
  LOOKUP_FRESH_MS,
  MAX_ATTEMPTS,
  attemptReference,
  chosen,
  decided,
  declineHolds,
  declinedNow,
  isEmpty,
  isStale,
  move,
  newlyOpen,
  observe,
  parseAttemptReference,
  startAttempt,
  undecided,
  type Ledger,
  type LedgerAttempt,
} from './ledger.js';
import { isFinal, type PaymentRecord } from './records.js';
import type { AttemptEvent } from './states.js';
import { emitLifecycle, stateFromLookup } from './outcomes.js';

/**
 * The order's book: one stored document per order (`ledger.ts` gives its shape and its rules). Its
 * attempts and what is kept of each attempt's payment live in one value under `{o:<order>}:ledger`,
 * read with the order's lock and written back with its release in one store call: no write of one
 * half can be lost without the other.
 *
 * Every call that can move money runs in {@link withOrder} and records what the gateway said with
 * {@link recordAnswer}. What is learnt outside the lock (a status read, a webhook) is written only
 * when the lock is free at once ({@link recordLookup}); otherwise the locked call under way asks the
 * gateway itself. Documents of the release before (a ledger beside `{p:<reference>}:pay` records)
 * are read, and moved into one document at their order's next locked call.
 * See docs/contracts.md, "One book per order".
 */

const LOCK_TTL_MS = 2 * 60_000;
const LOCK_POLL_MS = 50;

/** What a gateway answer does to attempt `n` of the order and to what is kept of its payment. */
export interface Answer {
  /** Our move of the attempt (`states.ts`); none when the answer decides nothing (a kept proof). */
  event?: AttemptEvent | undefined;
  /** The gateway's lookup record, taken as its word for the attempt (instead of `event`). */
  observed?: LookupRecord;
  /** What is kept of the payment, with its new state; none when the gateway has no payment. */
  payment?: PaymentRecord;
  /**
   * `false`: the payment is not kept, only its hooks run (a final state the browser already has
   * and the gateway's lookup gives back is not worth keeping).
   */
  keep?: boolean;
  /** `true`: only kept, no hook and no telemetry (a payment page opened decides nothing yet). */
  quiet?: boolean;
  /** `true`: the gateway refused the attempt's card now: it counts against the order's decline limit. */
  declined?: boolean;
}

/**
 * Records a gateway answer for attempt `n` of the order held in `book` (under the order's lock):
 * the attempt's state, its reference and its payment, in the one document written with the
 * lock's release; then the payment's hooks.
 */
export async function recordAnswer(
  ctx: Context,
  book: OrderSession,
  n: number,
  answer: Answer,
): Promise<void> {
  const { ledger } = book;
  const attempt = ledger.attempts[n];
  if (answer.observed && attempt) await observeAttempt(ctx, attempt, answer.observed);
  if (answer.declined && attempt) {
    attempt.declinedAt = ctx.now();
    orderDeclined(ctx, book.order, declineHolds(ledger));
  }
  if (answer.event) move(ledger, n, answer.event);
  const kept = ledger.attempts[n];
  const record = answer.payment;
  if (!record) return;
  if (kept) {
    const named = kept.reference === record.reference;
    kept.reference = record.reference;
    if (answer.keep !== false) {
      kept.payment = traced(ctx, record);
      if (!named) await indexReference(ctx, record);
    }
  }
  if (!answer.quiet) await announce(ctx, record);
}

/**
 * Records what the gateway's lookup said of a payment, learned outside its order's lock (a status
 * read, a webhook): its hooks run, and the order's document takes the lookup (the attempt's status
 * and the payment's state) when its lock is free at once. A locked call under way asks the gateway
 * itself, so nothing waits for it; a store failure is logged (the gateway keeps the truth).
 */
export async function recordLookup(
  ctx: Context,
  payment: PaymentRecord,
  state: PaymentState,
  lookup?: LookupRecord,
): Promise<void> {
  if (state.status === payment.state.status) return;
  const record = { ...payment, state };
  await keepOutsideLock(ctx, record, lookup);
  await announce(ctx, record);
}

async function keepOutsideLock(
  ctx: Context,
  record: PaymentRecord,
  lookup: LookupRecord | undefined,
): Promise<void> {
  const attempt = parseAttemptReference(record.merchantReference);
  if (!attempt) return;
  const keys = orderKeys(attempt.order);
  const token = base64url(randomBytes(12));
  let raw: string | undefined;
  try {
    const claim = await ctx.store.lockAndGet(keys.lock, LOCK_TTL_MS, keys.ledger, token);
    if (!claim.locked) return;
    raw = claim.value;
  } catch (error) {
    ctx.logger.error('store unavailable; a payment state learnt is not kept', {
      reference: record.reference,
      error,
    });
    return;
  }
  const ledger = raw ? (JSON.parse(raw) as Ledger) : undefined;
  const held = ledger?.attempts[attempt.n];
  // Only the attempt the document names with this reference, in a document of this release.
  if (!ledger || ledger.v !== LEDGER_VERSION || held?.reference !== record.reference) {
    await finish(ctx, attempt.order, token, [{ key: keys.lock, delete: true }]);
    return;
  }
  if (lookup) observe(held, lookup);
  held.payment = traced(ctx, record);
  await finish(ctx, attempt.order, token, [
    { key: keys.ledger, value: JSON.stringify(ledger), ttlMs: ctx.recordTtlMs },
    { key: keys.lock, delete: true },
  ]);
}

/**
 * Takes the gateway's lookup as its word for an attempt, under the lock. A kept answer the lookup
 * ends (a lost answer, a webhook missed) ends with it, and its hooks run now: the attempt's status
 * and the answer kept with it never tell two stories in the document.
 */
async function observeAttempt(
  ctx: Context,
  attempt: LedgerAttempt,
  record: LookupRecord,
): Promise<void> {
  observe(attempt, record);
  const kept = attempt.payment;
  if (!kept || kept.reference !== record.reference || isFinal(kept.state)) return;
  const state = stateFromLookup(record);
  if (!state || !isFinal(state)) return;
  attempt.payment = { ...kept, state };
  await announce(ctx, attempt.payment);
}

/** The record with the span where its payment began, to link later work to its trace. */
function traced(ctx: Context, record: PaymentRecord): PaymentRecord {
  const trace = record.trace ?? ctx.telemetry.origin();
  return trace ? { ...record, trace } : record;
}

/**
 * The kept payment of attempt `n` of the order held in `book`, under the order's lock: what the
 * document holds (documents of the release before were moved in when the lock was taken).
 */
export function paymentOf(ctx: Context, book: OrderSession, n: number): PaymentRecord | undefined {
  return linked(ctx, book.ledger.attempts[n]?.payment);
}

/**
 * The kept payment of attempt `n` of `order`, read without the lock (the 3-D Secure pages, a
 * scheduled retry): one store read. Store failures throw.
 */
export async function attemptPayment(
  ctx: Context,
  attempt: { order: string; n: number },
): Promise<PaymentRecord | undefined> {
  const ledger = await readLedger(ctx, attempt.order);
  const held = ledger?.attempts[attempt.n];
  if (!ledger || !held?.reference) return undefined;
  if (ledger.v === LEDGER_VERSION) return linked(ctx, held.payment);
  return held.payment ?? (await readLegacy(ctx, held.reference));
}

/**
 * Keeps the way from a kept payment's gateway reference to its order's document (a notification
 * may name only the reference), once, when the attempt first names it. Immutable, so a lost write
 * costs only that: a notification without a merchant reference then finds no record, and the
 * gateway's lookup answers for it.
 */
async function indexReference(ctx: Context, record: PaymentRecord): Promise<void> {
  try {
    await ctx.store.set(
      paymentKeys(record.reference).order,
      record.merchantReference,
      ctx.recordTtlMs,
    );
  } catch (error) {
    ctx.logger.warn('store write failed; the payment is found by its merchant reference only', {
      reference: record.reference,
      error,
    });
  }
}

/**
 * The kept payment of a gateway reference whose merchant reference is `merchantReference` (from
 * a signed secret, or a payload checked here: the document's attempt must name this very
 * reference); without one, the index kept with the payment names it. Read without the lock;
 * store failures throw.
 */
export async function readPaymentStrictly(
  ctx: Context,
  merchantReference: string | null | undefined,
  reference: string,
): Promise<PaymentRecord | undefined> {
  merchantReference ||= await ctx.store.get(paymentKeys(reference).order);
  const attempt = merchantReference ? parseAttemptReference(merchantReference) : undefined;
  if (!attempt) return readLegacy(ctx, reference);
  const ledger = await readLedger(ctx, attempt.order);
  const held = ledger?.attempts[attempt.n];
  if (ledger?.v === LEDGER_VERSION)
    return held?.reference === reference ? linked(ctx, held.payment) : undefined;
  // The release before: its record, under its own key (with or without its ledger).
  const legacy = held?.payment ?? (await readLegacy(ctx, reference));
  return legacy?.merchantReference === merchantReference ? legacy : undefined;
}

/** Like {@link readPaymentStrictly}, but a store failure reads as "not kept" (logged): the gateway answers instead. */
export async function readPayment(
  ctx: Context,
  merchantReference: string | null | undefined,
  reference: string,
): Promise<PaymentRecord | undefined> {
  try {
    return await readPaymentStrictly(ctx, merchantReference, reference);
  } catch (error) {
    ctx.logger.error('store read failed; asking the gateway instead', { reference, error });
    return undefined;
  }
}

/** The order's document as the store keeps it, read without the lock (to look, never to move). */
export async function readLedger(ctx: Context, order: string): Promise<Ledger | undefined> {
  const raw = await ctx.store.get(orderKeys(order).ledger);
  return raw ? (JSON.parse(raw) as Ledger) : undefined;
}

function linked(ctx: Context, record: PaymentRecord | undefined): PaymentRecord | undefined {
  if (record) ctx.telemetry.linkPayment(record);
  return record;
}

/** A payment record the release before kept under its own key. */
async function readLegacy(ctx: Context, reference: string): Promise<PaymentRecord | undefined> {
  const raw = await ctx.store.get(paymentKeys(reference).record);
  return linked(ctx, raw ? (JSON.parse(raw) as PaymentRecord) : undefined);
}

/**
 * A document of the release before: each attempt's payment record, kept then under its own key,
 * is moved in, and the document is marked as this release's once every record could be read (a
 * store failure leaves it for the next locked call; meanwhile the gateway answers for it).
 */
async function adoptLegacy(ctx: Context, ledger: Ledger): Promise<void> {
  let complete = true;
  for (const attempt of Object.values(ledger.attempts)) {
    if (!attempt.reference || attempt.payment) continue;
    try {
      const record = await readLegacy(ctx, attempt.reference);
      if (record) attempt.payment = record;
    } catch (error) {
      complete = false;
      ctx.logger.warn('store read failed; an earlier release’s payment record is read later', {
        reference: attempt.reference,
        error,
      });
    }
  }
  if (complete) ledger.v = LEDGER_VERSION;
}

const keepsPayment = (ledger: Ledger) =>
  Object.values(ledger.attempts).some((attempt) => attempt.payment !== undefined);

/**
 * A payment's hooks, once the gateway said what became of it: telemetry, the shopper's card kept
 * for an approval, and the money fact (`onPaymentCompleted`, ...) handed over once.
 */
async function announce(ctx: Context, record: PaymentRecord): Promise<void> {
  ctx.telemetry.paymentSettled(record);
  if (isFinal(record.state) || record.state.status === 'pending') {
    await resolveSavedCard(ctx, record);
    const known = await withCharge(ctx, record);
    if (known) await emitLifecycle(ctx, known);
    else
      ctx.logger.warn('charge amount unknown; the reconciliation sweep hands the payment over', {
        reference: record.reference,
      });
  }
}

/**
 * The record with the amount and currency the gateway holds, when a record rebuilt without its
 * lookup lacks them: a hook is never told a charge of 0. `undefined` when a charge's amount cannot
 * be learned now (its fact is left to the sweep, which reads it from the gateway's list).
 */
async function withCharge(ctx: Context, record: PaymentRecord): Promise<PaymentRecord | undefined> {
  if (record.amount > 0 && record.currency) return record;
  const view = await gatewayView(ctx, record.reference, record.method);
  if (view.kind !== 'unknown')
    return { ...record, amount: view.record.amount, currency: view.record.currency };
  return record.state.status === 'approved' ? undefined : record;
}

/** What the gateway's lookup says of a payment. */
export type GatewayView =
  | { kind: 'final'; state: PaymentState; record: LookupRecord }
  /** It still waits for 3-D Secure. */
  | { kind: 'waiting'; record: LookupRecord }
  /** The gateway could not be asked, or does not know the reference. */
  | { kind: 'unknown' };

export async function gatewayView(
  ctx: Context,
  reference: string,
  method: PaymentRecord['method'] = 'card',
): Promise<GatewayView> {
  try {
    const { lookups } = await ctx.gateway();
    const record = await (method === 'redirect'
      ? lookups.redirect(reference)
      : lookups.payment(reference));
    const state = stateFromLookup(record);
    return state ? { kind: 'final', state, record } : { kind: 'waiting', record };
  } catch (error) {
    if (classifyGatewayError(error).kind === 'not_gateway') throw error;
    ctx.logger.warn('payment lookup failed', { reference, error });
    return { kind: 'unknown' };
  }
}

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
        { nothingSent: true },
      );
    }
    if (!result.found) return { attempts, lookedUpAt: ctx.now(), v: LEDGER_VERSION };
    const attempt: LedgerAttempt = { status: 'unknown', openedAt: 0 };
    observe(attempt, result.record);
    attempts[n] = attempt;
  }
  throw new CheckoutError('conflict', 'This order has had too many payment attempts.');
}

export interface OrderSession {
  /** The order's reference. */
  order: string;
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
  /**
   * Takes the next attempt number for a create about to be sent and writes it ahead
   * ({@link OrderSession.writeAhead}): the attempt is `unknown` until the gateway answers.
   */
  start(fields: Parameters<typeof startAttempt>[1]): Promise<{ n: number; attempt: LedgerAttempt }>;
}

/**
 * Runs `work` holding the order's lock, with its ledger (from the store, or rebuilt from the
 * gateway), then writes the ledger, with its attempts' payments, back and releases the lock in one
 * store call. Every call that
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
        throw storeUnavailable(error);
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
    if (kept && !isStale(ctx.now(), kept)) ledger = kept;
    else {
      raw = undefined;
      ledger = await rebuildLedger(ctx, order);
    }
    if (ledger.v !== LEDGER_VERSION) await adoptLegacy(ctx, ledger);
  } catch (error) {
    if (stored) await finish(ctx, order, token, [{ key: keys.lock, delete: true }]);
    throw error;
  }
  // A ledger the store did not have counts as unchanged while it holds only decided attempts and
  // no payment: the gateway's lookups give it back as it is, so a paid order costs no ledger write.
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
      throw storeUnavailable(error);
    }
    if (!applied) {
      delete ledger.attempts[n];
      throw new CheckoutError('conflict', 'A payment for this order is already in progress.');
    }
    held = value;
  };
  try {
    const start: OrderSession['start'] = async (fields) => {
      const started = startAttempt(ledger, fields, ctx.now());
      await writeAhead(started.n);
      return started;
    };
    return await work({ order, ledger, stored, writeAhead, start });
  } finally {
    if (stored) {
      const now = JSON.stringify(ledger);
      // A refused card is kept: the order's decline limit counts it (a rebuilt ledger cannot).
      // A lookup that found nothing is kept (briefly) when asked: the next Pay sends its create at once.
      const learnt = raw === undefined && options.remember === true && isEmpty(ledger);
      const unchanged =
        !learnt &&
        (now === (held ?? read) ||
          (held === undefined && decided(ledger) && !declinedNow(ledger) && !keepsPayment(ledger)));
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
    if (result.found) await observeAttempt(ctx, attempt, result.record);
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
