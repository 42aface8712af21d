import type { LookupRecord } from '../gateway/port.js';
import type { CheckoutLogger } from '../logger.js';
import type { RefundEvent } from '../options.js';
import type { CheckoutStore } from '../stores/store.js';
import { base64url, randomBytes } from '../runtime/crypto.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { directHand, type RefundHand } from '../facts/refund-hook.js';
import {
  freeSlot,
  indexHashedPrefix,
  readBook,
  refundReference,
  writeBook,
  type RefundBook,
  type RefundSlot,
} from '../facts/refund-slots.js';
import { paymentKeys } from '../stores/keys.js';
import {
  bookStore,
  isPendingRefund,
  readRefundable,
  RefundError,
  type RefundAnswer,
  type RefundBookDeps,
  type RefundGateway,
} from './refundable.js';

/** Refund `amount` cents (absent: all that is left) of the payment `reference`, once per `key`. */
export interface RefundCommand {
  reference: string;
  amount?: number | undefined;
  key: string;
}

/** The refund a result is about. */
export interface RefundFacts {
  paymentReference: string;
  /** The refund's slot reference at the gateway, `<paymentReference>~r<i>`. */
  merchantReference: string;
  /** The caller's key, when the book has it. */
  key?: string;
  /** Cents, > 0. */
  amount: number;
  currency: string;
  /** The refund's own gateway reference, when its record was read. */
  reference?: string;
}

export type RefundResult =
  /** Done now. `left`: cents still refundable after it. */
  | { status: 'refunded'; refund: RefundFacts; left: number; record?: LookupRecord }
  /** Code 7: processed manually; completes later and the notify webhook follows. */
  | { status: 'pending'; refund: RefundFacts; left: number; message: string }
  /** The key's refund exists at the gateway; nothing was sent. */
  | { status: 'already_refunded'; refund: RefundFacts; record: LookupRecord; pending: boolean }
  /** Sent, the answer lost, and the gateway's lookup does not show it yet: show "checking", ask again. */
  | { status: 'unknown'; refund: RefundFacts; message: string };

export interface RefundDeps extends RefundBookDeps {
  gateway: RefundGateway;
  onRefundCompleted?: ((event: RefundEvent) => void | Promise<void>) | undefined;
  logger?: CheckoutLogger | undefined;
}

const KEY = /^[A-Za-z0-9._:~-]{1,92}$/;
const REFERENCE = /^[A-Za-z0-9._:~-]{1,99}$/;

/** How long one refund holds its payment's refund lock: longer than its gateway calls take. */
const LOCK_TTL_MS = 120_000;
/** How long a refund waits for another refund of the same payment before it answers `conflict`. */
const LOCK_WAIT_MS = 30_000;

const UNKNOWN =
  'The refund was sent but its answer was lost, and the gateway does not show it yet. Checking: ask again with the same key; it is never refunded twice.';

function parse(cmd: RefundCommand): RefundCommand {
  if (typeof cmd.key !== 'string' || !KEY.test(cmd.key))
    throw new RefundError(
      'invalid_request',
      'key must be 1-92 characters of letters, digits and . _ : ~ -',
    );
  if (typeof cmd.reference !== 'string' || !REFERENCE.test(cmd.reference))
    throw new RefundError('invalid_request', 'reference must be the payment’s gateway reference');
  if (cmd.amount !== undefined && !(Number.isSafeInteger(cmd.amount) && cmd.amount > 0))
    throw new RefundError('invalid_request', 'amount must be whole cents above 0, or absent');
  return cmd;
}

/** The answer for a key whose slot the gateway already has. */
function existing(cmd: RefundCommand, merchantReference: string, record: LookupRecord) {
  if (record.amount >= 0)
    throw new RefundError(
      'key_reused',
      `${merchantReference} names a payment at the gateway, not a refund: use another key.`,
    );
  if (cmd.amount !== undefined && -record.amount !== cmd.amount)
    throw new RefundError(
      'key_reused',
      `The key's refund ${merchantReference} was for ${-record.amount} cents, not ${cmd.amount}: use a new key for another refund.`,
    );
  if (record.status === 'FAILED')
    throw new RefundError(
      'refused',
      `The key's refund ${merchantReference} failed at the gateway: use a new key.`,
    );
  const refund: RefundFacts = {
    paymentReference: cmd.reference,
    merchantReference,
    key: cmd.key,
    amount: -record.amount,
    currency: record.currency,
    reference: record.reference,
  };
  return { refund, pending: isPendingRefund(record) };
}

/**
 * Refunds once per key, safe to call twice and after a lost answer: under the payment's refund lock,
 * reads the book and the payment's refund slots from the gateway, answers the key's slot when the
 * gateway has it, else sends within what is left in the key's slot (a new key takes a free one).
 * Throws `RefundError` when nothing was sent (or the gateway refused).
 */
export function refund(command: RefundCommand, deps: RefundDeps): Promise<RefundResult> {
  return refundWith(command, deps, directHand(deps));
}

/** What a refund decided under the lock, and the hand-over to run once the lock is released. */
type Decided = { result: RefundResult; hand?: () => Promise<void> };

/** {@link refund}, its completed and pending refunds handed to `hand` (a checkout's outbox). */
export async function refundWith(
  command: RefundCommand,
  deps: Omit<RefundDeps, 'onRefundCompleted'>,
  hand: RefundHand,
): Promise<RefundResult> {
  const cmd = parse(command);
  const store = bookStore(deps);
  const decided = await underRefundLock(store, cmd.reference, (token) =>
    decide(cmd, { ...deps, store }, hand, token),
  );
  // The shop's hook runs after the lock: a slow hook holds no other refund of the payment.
  await decided.hand?.();
  return decided.result;
}

/** A store call before anything is sent: a store that cannot answer sends nothing. */
async function stored<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof RefundError) throw error;
    throw new RefundError(
      'store_unavailable',
      'The checkout’s store could not keep the refund’s key; nothing was sent. Try again in a moment.',
    );
  }
}

/** Runs `work` holding the payment's refund lock (waits for another refund of it; never overlaps one). */
async function underRefundLock<T>(
  store: CheckoutStore,
  payment: string,
  work: (token: string) => Promise<T>,
): Promise<T> {
  const lock = paymentKeys(payment).refundLock;
  const token = base64url(randomBytes(9));
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 10; !(await stored(store.setIfAbsent(lock, token, LOCK_TTL_MS)));) {
    if (Date.now() > deadline)
      throw new RefundError(
        'conflict',
        `Another refund of ${payment} is under way; nothing was sent. Try again in a moment.`,
      );
    await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())));
    wait = Math.min(wait * 2, 250);
  }
  try {
    return await work(token);
  } finally {
    await store
      .writeAll([{ key: lock, delete: true }], { key: lock, value: token })
      .catch(() => undefined); // left to expire
  }
}

/** The book with `slot` put in (or replaced), or taken out (`undefined`). */
const withSlot = (book: RefundBook, i: number, slot: RefundSlot | undefined): RefundBook => ({
  slots: [...book.slots.filter((s) => s.i !== i), ...(slot ? [slot] : [])].sort(
    (a, b) => a.i - b.i,
  ),
});

const close = ({ open: _, ...slot }: RefundSlot): RefundSlot => slot;

async function decide(
  cmd: RefundCommand,
  deps: Omit<RefundDeps, 'onRefundCompleted'> & { store: CheckoutStore },
  hand: RefundHand,
  token: string,
): Promise<Decided> {
  const { gateway, store } = deps;
  let book = await stored(readBook(store, cmd.reference));
  const mine = book.slots.find((s) => s.key === cmd.key);
  if (mine && cmd.amount !== undefined && mine.amount !== cmd.amount)
    throw new RefundError(
      'key_reused',
      `The key's refund was for ${mine.amount} cents, not ${cmd.amount}: use a new key for another refund.`,
    );
  const { now, readings } = await readRefundable(cmd.reference, gateway, book, cmd.key);
  const save = async (next: RefundBook) => {
    if (!(await stored(writeBook(store, cmd.reference, next, token))))
      throw new RefundError(
        'conflict',
        `The refund lock of ${cmd.reference} was lost; nothing more was sent. Try again in a moment.`,
      );
    book = next;
  };

  if (mine) {
    const seen = readings.find((r) => r.i === mine.i);
    if (seen?.record) {
      const { refund, pending } = existing(cmd, seen.merchantReference, seen.record);
      if (mine.open) await save(withSlot(book, mine.i, close(mine))).catch(() => undefined);
      return {
        result: { status: 'already_refunded', refund, record: seen.record, pending },
        hand: () => (pending ? hand.pending(refund) : hand.completed(refund)),
      };
    }
    // The key's send never showed at the gateway: it is sent again, in the same slot.
  }

  // REFUNDED: nothing is left (below); any other status has nothing refundable yet or any more.
  if (
    now.payment.status !== 'REFUNDED' &&
    (now.payment.status !== 'SETTLED' || now.payment.pending)
  )
    throw new RefundError(
      'not_refundable',
      `Payment ${cmd.reference} is ${now.payment.status}; only a settled payment can be refunded.`,
    );
  const amount = cmd.amount ?? mine?.amount ?? now.left;
  if (amount <= 0 || amount > now.left)
    throw new RefundError(
      'more_than_left',
      `${now.left} cents are left to refund on ${cmd.reference}${now.pending ? ` (${now.pending} pending)` : ''}; nothing was sent.`,
      { left: now.left, pending: now.pending },
    );
  const i = mine?.i ?? freeSlot(book, readings);
  const merchantReference = await refundReference(cmd.reference, i);
  const slot: RefundSlot = { i, key: cmd.key, amount, at: mine?.at ?? Date.now(), open: true };
  // Kept before it is sent: the same key finds its slot, and what is left counts it meanwhile.
  await save(withSlot(book, i, slot));
  await stored(indexHashedPrefix(store, cmd.reference, i));
  const facts: RefundFacts = {
    paymentReference: cmd.reference,
    merchantReference,
    key: cmd.key,
    amount,
    currency: now.currency,
  };
  const transaction = { reference: merchantReference, currency: now.currency, amount };
  // After the send the book is only told what happened: a refund that went out is never unsaid.
  const keepSlot = (open: boolean) =>
    save(withSlot(book, i, open ? slot : close(slot))).catch(() => undefined);

  let answer: RefundAnswer;
  try {
    answer =
      now.currency === 'ZAR'
        ? await gateway.payments.refund(cmd.reference, transaction)
        : await gateway.foreign.refund(cmd.reference, transaction);
  } catch (error) {
    return afterFailure(cmd, facts, error, deps, now.left, hand, {
      keepSlot,
      free: () => save(withSlot(book, i, undefined)).catch(() => undefined),
    });
  }
  await keepSlot(false);
  const left = now.left - amount;
  if (answer.kind === 'pending')
    return {
      result: { status: 'pending', refund: facts, left, message: answer.message },
      hand: () => hand.pending(facts),
    };
  const found = await gateway.reconcile(merchantReference).catch(() => undefined);
  const record = found?.found ? found.record : undefined;
  const refund = record ? { ...facts, reference: record.reference } : facts;
  return {
    result: { status: 'refunded', refund, left, ...(record ? { record } : {}) },
    hand: () => hand.completed(refund),
  };
}

/**
 * A refund whose send failed: a lost answer or a duplicate is looked up (the slot stays open while
 * the gateway does not show it); a refusal is said, and its slot freed when the gateway has no
 * record of it.
 */
async function afterFailure(
  cmd: RefundCommand,
  facts: RefundFacts,
  error: unknown,
  deps: Omit<RefundDeps, 'onRefundCompleted'>,
  leftBefore: number,
  hand: RefundHand,
  slot: { keepSlot: (open: boolean) => Promise<void>; free: () => Promise<void> },
): Promise<Decided> {
  const failure = classifyGatewayError(error);
  if (failure.kind === 'not_gateway') throw error;
  const lookup = () =>
    deps.gateway
      .reconcile(facts.merchantReference)
      .then((found) => (found.found ? found.record : undefined));
  if (failure.kind === 'duplicate' || failure.kind === 'outcome_unknown') {
    const record = await lookup().catch(() => undefined);
    if (!record) return { result: { status: 'unknown', refund: facts, message: UNKNOWN } };
    await slot.keepSlot(false);
    const { refund, pending } = existing(cmd, facts.merchantReference, record);
    const handOver = () => (pending ? hand.pending(refund) : hand.completed(refund));
    // A duplicate: the slot was taken at the gateway by this key's earlier send.
    if (failure.kind === 'duplicate')
      return {
        result: { status: 'already_refunded', refund, record, pending },
        hand: handOver,
      };
    const left = leftBefore - refund.amount;
    if (pending)
      return {
        result: { status: 'pending', refund, left, message: 'The refund is processed manually.' },
        hand: handOver,
      };
    return { result: { status: 'refunded', refund, left, record }, hand: handOver };
  }
  // The gateway answered: no refund. Its slot is free again unless the gateway keeps a record of it.
  const kept = await lookup().catch(() => 'unknown' as const);
  await (kept === undefined ? slot.free() : slot.keepSlot(false));
  deps.logger?.warn('refund refused by the gateway', {
    reference: cmd.reference,
    merchantReference: facts.merchantReference,
    error,
  });
  if (failure.kind === 'rejected' && failure.originalErrorCode === 'fin058')
    throw new RefundError(
      'more_than_left',
      `The gateway has less than ${facts.amount} cents left to refund on ${cmd.reference}: ${failure.message}`,
    );
  if (failure.kind === 'rejected' || failure.kind === 'declined')
    throw new RefundError('refused', failure.message);
  throw new RefundError(
    'gateway_unavailable',
    `The gateway did not take the refund (${failure.kind}); nothing was refunded. Try again in a moment.`,
  );
}
