import { CheckoutError } from '../errors.js';
import type { LookupRecord } from '../gateway/port.js';
import type { PaymentMethodKind } from '../options.js';
import type { PaymentRecord } from './records.js';
import { nextStatus, observed, type AttemptEvent, type AttemptStatus } from './states.js';

/**
 * The order's one stored document (`{o:<order>}:ledger`, `book.ts` reads and writes it): its
 * attempts by number, each with its status and what is kept of its payment, written in one store
 * call. A cache of the gateway: when it is missing, `rebuildLedger` reads the attempts back with
 * lookups by merchant reference (their payments are then not kept: the gateway answers for them).
 */
export interface Ledger {
  /** By attempt number. */
  attempts: Record<string, LedgerAttempt>;
  /**
   * `2`: written as one document, its attempts' payments inside. Without it, a document of the
   * release before, whose payments are kept under `{p:<reference>}:pay` (read once, then moved in).
   */
  v?: 2;
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
  /** When a budgeted read last asked the gateway about it (see `refreshAttempts`, book.ts). */
  checkedAt?: number;
  /** When the gateway refused its card (a decline, a failed authentication): the order's decline limit. */
  declinedAt?: number;
  /**
   * What is kept of its payment (the browser's state, 3-D Secure ids, the page's origin); never card
   * data. `status` above is the attempt's one status, the one the book decides on; the payment's
   * `state` is the answer given to the browser for it. Every move of the status moves the answer in
   * the same write (a gateway answer, or a lookup that ends the attempt, whose hooks then run), so
   * the two never tell different stories.
   */
  payment?: PaymentRecord;
}

/** The document version this release writes ({@link Ledger.v}). */
export const LEDGER_VERSION = 2;

/** The most attempts one order may have; a shop that needs more has a bug or an attacker. */
export const MAX_ATTEMPTS = 50;

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
  ledger: Ledger,
  fields: { method: PaymentMethodKind; amount: number; currency: string },
  now: number,
): { n: number; attempt: LedgerAttempt } {
  const n = nextAttempt(ledger);
  const status = nextStatus('absent', 'sent');
  const attempt: LedgerAttempt = { ...fields, status: status!, openedAt: now };
  // Written ahead before the create leaves (`OrderSession.start`, book.ts).
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

export const paidAttempt = (ledger: Ledger): [number, LedgerAttempt] | undefined => {
  for (const [n, attempt] of Object.entries(ledger.attempts))
    if (attempt.status === 'paid') return [Number(n), attempt];
  return undefined;
};

export const isEmpty = (ledger: Ledger) => Object.keys(ledger.attempts).length === 0;

/** A ledger of no attempts whose lookup is older than {@link LOOKUP_FRESH_MS}. */
export const isStale = (now: number, ledger: Ledger) =>
  isEmpty(ledger) && ledger.lookedUpAt !== undefined && now - ledger.lookedUpAt >= LOOKUP_FRESH_MS;

/** Whether an attempt is open or unanswered now that was not before: the sweep asks about it. */
export function newlyOpen(before: Ledger, after: Ledger): boolean {
  const unsettled = (a: LedgerAttempt | undefined) =>
    a?.status === 'open' || a?.status === 'unknown';
  return Object.entries(after.attempts).some(
    ([n, attempt]) => unsettled(attempt) && !unsettled(before.attempts[n]),
  );
}

export const declinedNow = (ledger: Ledger) =>
  Object.values(ledger.attempts).some((a) => a.declinedAt !== undefined);

export const decided = (ledger: Ledger) =>
  Object.values(ledger.attempts).every((a) => a.status === 'paid' || a.status === 'failed');

export const undecided = (attempt: LedgerAttempt) =>
  attempt.status !== 'paid' && attempt.status !== 'failed';

/**
 * The attempts a read with a budget of `budget` lookups asks about: unanswered creates first,
 * then the attempt asked about longest ago (never asked: the newest first), so a cart with many
 * open attempts costs one lookup per read and every attempt's turn comes.
 */
export function chosen(entries: [string, LedgerAttempt][], budget: number): Set<string> {
  const rank = ([key, a]: [string, LedgerAttempt]) =>
    [a.status === 'unknown' ? 0 : 1, a.checkedAt ?? -1, -Number(key)] as const;
  const sorted = [...entries].sort((x, y) => {
    const [a, b] = [rank(x), rank(y)];
    return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  });
  return new Set(sorted.slice(0, budget).map(([key]) => key));
}
