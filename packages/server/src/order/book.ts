import type { LookupRecord } from '../gateway/port.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import { orderKeys, paymentKeys } from '../stores/keys.js';
import { move, observe, type Ledger, type LedgerAttempt, type OrderSession } from './ledger.js';
import { isFinal, type PaymentRecord } from './records.js';
import type { AttemptEvent } from './states.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { emitLifecycle, stateFromLookup } from './outcomes.js';
import { resolveSavedCard } from '../cards/saved-cards.js';

/**
 * The payment's book. One payment is an attempt of its order's ledger (its state, `ledger.ts`)
 * and what is kept of it (`records.ts`: the browser's state, 3-D Secure ids, the page's origin).
 * A use case records what the gateway said with one call here, which changes both and runs the
 * hooks; no use case moves a ledger attempt or saves a payment itself.
 *
 * The two halves have different hash tags (`{o:..}`, `{p:..}`), so no fenced store call writes
 * both. They are written in one order: the payment at once, the ledger with the order lock's
 * release. A crash between them leaves the payment ahead of the ledger, which never lies: every
 * locked use case asks the gateway about a ledger attempt still `unknown` or `open`, and a final
 * payment state is what the gateway said. See docs/contracts.md, "One book per payment".
 */

/** What a gateway answer does to attempt `n` of the order and to what is kept of its payment. */
export interface Answer {
  /** Our move of the attempt (`states.ts`); none when the answer decides nothing (a kept proof). */
  event?: AttemptEvent | undefined;
  /** The gateway's lookup record, taken as its word for the attempt (instead of `event`). */
  observed?: LookupRecord;
  /** What is kept of the payment, with its new state; none when the gateway has no payment. */
  payment?: PaymentRecord;
  /**
   * `false`: the payment is not written, only its hooks run (a final state the browser already
   * has and the gateway's lookup gives back is not worth a store write on the hot path).
   */
  keep?: boolean;
  /** `true`: only kept, no hook and no telemetry (a payment page opened decides nothing yet). */
  quiet?: boolean;
}

/**
 * Records a gateway answer for attempt `n` of the order held in `book` (under the order's lock):
 * the attempt's state and reference, then the payment, in one call.
 */
export async function recordAnswer(
  ctx: Context,
  book: OrderSession,
  n: number,
  answer: Answer,
): Promise<void> {
  const { ledger } = book;
  const attempt = ledger.attempts[n];
  if (answer.observed && attempt) observe(attempt, answer.observed);
  if (answer.event) move(ledger, n, answer.event);
  const kept = ledger.attempts[n];
  if (kept && answer.payment) kept.reference = answer.payment.reference;
  if (!answer.payment) return;
  if (answer.quiet) await saveSafely(ctx, answer.payment);
  else await recordPayment(ctx, answer.payment, { cache: answer.keep ?? true });
}

/**
 * Attempt `n` as the ledger holds it. A payment waiting for Step 2 that the ledger lacks (its
 * ledger write was lost after the create: the payment is ahead) is held again as `open`.
 */
export function heldAttempt(
  book: OrderSession,
  n: number,
  payment: Pick<PaymentRecord, 'reference' | 'method'>,
): LedgerAttempt {
  const { reference, method = 'card' } = payment;
  return (book.ledger.attempts[n] ??= { method, status: 'open', reference, openedAt: 0 });
}

/**
 * Records what the gateway's lookup said of a payment, learned outside its order's lock (a status
 * read, a webhook): only the payment's half is written. The ledger catches up at the order's next
 * locked call, which asks the gateway about every attempt it does not know as decided.
 */
export async function recordLookup(
  ctx: Context,
  payment: PaymentRecord,
  state: PaymentState,
): Promise<void> {
  if (state.status !== payment.state.status) await recordPayment(ctx, { ...payment, state });
}

/** The kept payment of a gateway reference; a store failure reads as "not kept" (logged). */
export const readPayment = loadPaymentSafely;

/** Like {@link readPayment}, but a store failure throws (nothing may be sent without it). */
export const readPaymentStrictly = loadPayment;

/**
 * The kept payment of attempt `n`, under the order's lock. A kept state still under way for an
 * attempt the ledger knows as decided is stale (its write failed after the gateway answered):
 * `stale` says so, and the caller asks the gateway rather than believe it.
 */
export async function paymentOf(
  ctx: Context,
  book: OrderSession,
  n: number,
): Promise<{ payment: PaymentRecord | undefined; stale: boolean }> {
  const attempt = book.ledger.attempts[n];
  const reference = attempt?.reference;
  const payment = reference && book.stored ? await readPayment(ctx, reference) : undefined;
  const decided = attempt?.status === 'paid' || attempt?.status === 'failed';
  return { payment, stale: Boolean(payment && decided && !isFinal(payment.state)) };
}

/**
 * The kept payment of attempt `n` of `order` read outside the lock (the 3-D Secure pages):
 * the ledger names its gateway reference. Store failures throw.
 */
export async function attemptPayment(
  ctx: Context,
  attempt: { order: string; n: number },
): Promise<PaymentRecord | undefined> {
  const reference = (await readLedger(ctx, attempt.order))?.attempts[attempt.n]?.reference;
  return reference ? readPaymentStrictly(ctx, reference) : undefined;
}

/** The order's ledger as the store keeps it, read without the lock (to look, never to move). */
export async function readLedger(ctx: Context, order: string): Promise<Ledger | undefined> {
  const raw = await ctx.store.get(orderKeys(order).ledger);
  return raw ? (JSON.parse(raw) as Ledger) : undefined;
}

/**
 * Saves a record whose state changed and runs the hooks. Called after the gateway answered, so a
 * store failure is logged and swallowed: the shopper is told what the gateway said.
 * `cache: false` skips the save: a final state the browser already has and the gateway's lookup
 * gives back is not worth a store write on the hot path.
 */
export async function recordPayment(
  ctx: Context,
  record: PaymentRecord,
  { cache = true }: { cache?: boolean } = {},
): Promise<void> {
  ctx.telemetry.paymentSettled(record);
  if (cache) await saveSafely(ctx, record);
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

/** Saves a record after the gateway answered; a store failure is logged, not thrown. */
export async function saveSafely(ctx: Context, record: PaymentRecord): Promise<void> {
  try {
    await savePayment(ctx, record);
  } catch (error) {
    ctx.logger.error('store write failed after the gateway answered; the gateway keeps the truth', {
      reference: record.reference,
      error,
    });
  }
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

async function loadPayment(ctx: Context, reference: string): Promise<PaymentRecord | undefined> {
  const raw = await ctx.store.get(paymentKeys(reference).record);
  if (!raw) return undefined;
  const record = JSON.parse(raw) as PaymentRecord;
  ctx.telemetry.linkPayment(record);
  return record;
}

/** Like {@link loadPayment}, but a store failure reads as "not kept" (logged): the gateway answers instead. */
async function loadPaymentSafely(
  ctx: Context,
  reference: string,
): Promise<PaymentRecord | undefined> {
  try {
    return await loadPayment(ctx, reference);
  } catch (error) {
    ctx.logger.error('store read failed; asking the gateway instead', { reference, error });
    return undefined;
  }
}

async function savePayment(ctx: Context, record: PaymentRecord): Promise<void> {
  const trace = record.trace ?? ctx.telemetry.origin();
  await ctx.store.set(
    paymentKeys(record.reference).record,
    JSON.stringify(trace ? { ...record, trace } : record),
    ctx.recordTtlMs,
  );
}
