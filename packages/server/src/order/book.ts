import type { LookupRecord } from '../gateway/port.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import { orderKeys } from '../stores/keys.js';
import { move, observe, type Ledger, type LedgerAttempt, type OrderSession } from './ledger.js';
import { isFinal, loadPayment, loadPaymentSafely, type PaymentRecord } from './records.js';
import { saveSafely, settle } from './settle.js';
import type { AttemptEvent } from './states.js';

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
  else await settle(ctx, answer.payment, { cache: answer.keep ?? true });
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
  if (state.status !== payment.state.status) await settle(ctx, { ...payment, state });
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
