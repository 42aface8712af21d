import type { LookupRecord } from '../gateway/port.js';
import type { CheckoutStore } from '../stores/store.js';
import { sha256Hex } from '../runtime/crypto.js';
import { paymentKeys } from '../stores/keys.js';

/**
 * Refund slots (docs/contracts.md, "Refunds once"): refund number `i` of payment `P` has the merchant
 * reference `<P>~r<i>`, so a payment's refunds are found by the spec's lookup by merchant reference,
 * one slot after another, even when the store lost which key took which slot.
 */

/** The gateway's limit on a merchant reference. */
const MAX_REFERENCE = 99;
const SLOT = /^(.+)~r([1-9][0-9]{0,8})$/;
const HASHED = /^h[0-9a-f]{20}$/;

/** A refund slot's merchant reference: `<P>~r<i>`, or `h<first 20 hex of SHA-256(P)>~r<i>` past 99 characters. */
export async function refundReference(payment: string, i: number): Promise<string> {
  const plain = `${payment}~r${i}`;
  if (plain.length <= MAX_REFERENCE) return plain;
  return `h${(await sha256Hex(payment)).slice(0, 20)}~r${i}`;
}

/** A slot reference read back: the payment (or its hashed prefix) and the slot number. */
export function parseRefundReference(
  merchantReference: string | null | undefined,
): { prefix: string; i: number; hashed: boolean } | undefined {
  const m = typeof merchantReference === 'string' ? SLOT.exec(merchantReference) : null;
  if (!m) return undefined;
  return { prefix: m[1]!, i: Number(m[2]), hashed: HASHED.test(m[1]!) };
}

/** One slot of the book: written under the payment's refund lock before its refund is sent. */
export interface RefundSlot {
  i: number;
  /** The caller's idempotency key. */
  key: string;
  /** Cents asked. */
  amount: number;
  /** When the slot was taken (ms since the epoch). */
  at: number;
  /** Sent, and not yet seen answered: counted as pending while the gateway does not show it. */
  open?: true;
}

/** The core's book of a payment's refunds, `{p:P}:refunds`. */
export interface RefundBook {
  slots: RefundSlot[];
}

/** Refunds are asked for long after the charge: the book is kept for half a year. */
export const BOOK_TTL_MS = 183 * 24 * 60 * 60_000;

const EMPTY: RefundBook = { slots: [] };

/** The payment's book; an empty one when the store has none (never written, or lost). */
export async function readBook(store: CheckoutStore, payment: string): Promise<RefundBook> {
  const raw = await store.get(paymentKeys(payment).refunds);
  if (!raw) return EMPTY;
  try {
    const book = JSON.parse(raw) as RefundBook;
    return Array.isArray(book.slots) ? book : EMPTY;
  } catch {
    return EMPTY;
  }
}

/**
 * Writes the book while `lockToken` still holds the payment's refund lock; `false` when the lock was
 * lost (nothing written). A hashed prefix is indexed to its payment beside it.
 */
export async function writeBook(
  store: CheckoutStore,
  payment: string,
  book: RefundBook,
  lockToken: string,
): Promise<boolean> {
  const keys = paymentKeys(payment);
  return store.writeAll([{ key: keys.refunds, value: JSON.stringify(book), ttlMs: BOOK_TTL_MS }], {
    key: keys.refundLock,
    value: lockToken,
  });
}

/** Keeps the way from a hashed prefix back to its payment (the webhook and the sweep read it). */
export async function indexHashedPrefix(
  store: CheckoutStore,
  payment: string,
  i: number,
): Promise<void> {
  const parsed = parseRefundReference(await refundReference(payment, i));
  // Also a payment whose own reference looks like a hash: the index says which it is.
  if (parsed?.hashed)
    await store.set(paymentKeys(parsed.prefix).refundPayment, payment, BOOK_TTL_MS);
}

/**
 * The payment a slot reference names: its prefix, or for a hashed prefix the payment the store
 * indexed under it, else the one of `candidates` (payments at hand) that hashes to it.
 */
export async function paymentOfPrefix(
  store: CheckoutStore,
  parsed: { prefix: string; i: number; hashed: boolean },
  candidates: readonly string[] = [],
): Promise<string | undefined> {
  if (!parsed.hashed) return parsed.prefix;
  const indexed = await store.get(paymentKeys(parsed.prefix).refundPayment).catch(() => undefined);
  if (indexed) return indexed;
  const wanted = `${parsed.prefix}~r${parsed.i}`;
  for (const candidate of candidates)
    if ((await refundReference(candidate, parsed.i)) === wanted) return candidate;
  return undefined;
}

/** The highest slot the book knows (0 without a book). */
export const highestSlot = (book: RefundBook): number =>
  book.slots.reduce((max, s) => Math.max(max, s.i), 0);

/** One slot as the gateway's lookup by its merchant reference answers it. */
export interface SlotReading {
  i: number;
  merchantReference: string;
  /** `undefined`: the gateway has no transaction with that merchant reference (a miss). */
  record: LookupRecord | undefined;
}

type Lookup = (
  merchantReference: string,
) => Promise<{ found: false } | { found: true; record: LookupRecord }>;

/**
 * The payment's slots from the gateway: `1..n`, every slot up to the highest the book knows (a gap
 * from a send that never left is allowed), then on until two consecutive misses. Throws when the
 * gateway cannot answer a lookup.
 */
export async function readSlots(
  lookup: Lookup,
  payment: string,
  knownHighest: number,
): Promise<SlotReading[]> {
  const read = async (i: number): Promise<SlotReading> => {
    const merchantReference = await refundReference(payment, i);
    const found = await lookup(merchantReference);
    return { i, merchantReference, record: found.found ? found.record : undefined };
  };
  // The slots the book knows, and the two after them, at once; then one at a time.
  const first = Array.from({ length: knownHighest + 2 }, (_, n) => n + 1);
  const readings = await Promise.all(first.map(read));
  const missesAtEnd = () => {
    const [a, b] = readings.slice(-2);
    return a?.record === undefined && b?.record === undefined;
  };
  while (!missesAtEnd()) readings.push(await read(readings.length + 1));
  return readings;
}

/**
 * The slot a new key takes: the lowest the book does not hold and the gateway does not know (a slot
 * freed after a refusal is taken again, so no gap is left behind).
 */
export function freeSlot(book: RefundBook, readings: readonly SlotReading[]): number {
  const held = new Set(book.slots.map((s) => s.i));
  const free = readings.find((r) => !held.has(r.i) && r.record === undefined);
  return free ? free.i : readings.length + 1;
}
