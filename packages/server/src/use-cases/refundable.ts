import type { CallOptions, LookupRecord } from '../gateway/port.js';
import type { CheckoutStore } from '../stores/store.js';
import { CheckoutError, type RefundErrorCode } from '../errors.js';
import { classifyGatewayError } from '../gateway/failures.js';
import {
  highestSlot,
  readBook,
  readSlots,
  type RefundBook,
  type SlotReading,
} from '../facts/refund-slots.js';
import { MemoryStore } from '../stores/memory.js';

/** A transaction as the gateway's list answers it (the fields the refund use case reads). */
export interface ListedTransaction {
  reference: string;
  amount: number;
  currency: string;
  status: string;
  pending?: boolean | null | undefined;
  merchantReference?: string | null | undefined;
}

/** What a refund sends: always an amount, so it carries the refund's merchant reference. */
export interface RefundTransaction {
  reference: string;
  currency: string;
  amount: number;
}

export type RefundAnswer =
  { kind: 'refunded'; transactionDate?: string | undefined } | { kind: 'pending'; message: string };

/** The part of `@pg-checkout/node`'s `GatewayClient` refunds use; a real client fits it. */
export interface RefundGateway {
  payments: {
    refund(
      reference: string,
      transaction: RefundTransaction,
      options?: CallOptions | undefined,
    ): Promise<RefundAnswer>;
  };
  foreign: {
    refund(
      reference: string,
      transaction: RefundTransaction,
      options?: CallOptions | undefined,
    ): Promise<RefundAnswer>;
  };
  lookups: {
    payment(reference: string, options?: CallOptions | undefined): Promise<LookupRecord>;
  };
  reconcile(
    merchantReference: string,
    options?: CallOptions | undefined,
  ): Promise<{ found: false } | { found: true; record: LookupRecord }>;
}

export type { RefundErrorCode } from '../errors.js';

/** A refund that was not sent by this call (or that the gateway refused): branch on `code`. */
export class RefundError extends CheckoutError {
  override readonly code: RefundErrorCode;
  /** Cents still refundable, on `more_than_left`. */
  readonly left: number | undefined;
  /** Cents of pending (manual) refunds, on `more_than_left`. */
  readonly pending: number | undefined;

  constructor(
    code: RefundErrorCode,
    message: string,
    amounts: { left?: number; pending?: number } = {},
  ) {
    super(code, message);
    this.code = code;
    this.left = amounts.left;
    this.pending = amounts.pending;
  }
}

/** A refund record the gateway has not completed yet (code 7, manual): taken, not refunded. */
export const isPendingRefund = (t: {
  status: string;
  pending?: boolean | null | undefined;
}): boolean => t.pending === true || t.status === 'NEW';

/** Refund records that moved no money and hold none. */
const ENDED_UNREFUNDED = new Set(['FAILED', 'CANCELLED', 'REVERSED']);

/** What the gateway's records leave to refund on a payment. */
export interface Refundable {
  payment: LookupRecord;
  currency: string;
  /** What the payment charged, cents. */
  amount: number;
  /** Cents of completed refunds. */
  refunded: number;
  /** Cents of pending (manual) refunds: not refunded yet, not refundable again either. */
  pending: number;
  /** Cents that may still be refunded: `amount - refunded - pending`, 0 unless the payment is SETTLED. */
  left: number;
  /**
   * The payment's refund slots the gateway knows, as its lookups by merchant reference answer them
   * (amounts negative), each with the caller's key when the book has it.
   */
  refunds: (ListedTransaction & { key?: string })[];
}

/** Where refunds keep their book: the checkout's store, the caller's, or one for this process. */
export interface RefundBookDeps {
  /** Default: one memory store for the process (keys kept until it restarts). */
  store?: CheckoutStore | undefined;
}

let processStore: MemoryStore | undefined;
/** The plain functions' book when given no store: this process's, made at first use. */
export const bookStore = (deps: RefundBookDeps): CheckoutStore =>
  deps.store ?? (processStore ??= new MemoryStore());

/** A lookup that failed: the payment is unknown (the gateway said so) or the gateway could not answer. */
function lookupFailed(reference: string, error: unknown): RefundError {
  const failure = classifyGatewayError(error);
  if (failure.kind === 'rejected')
    return new RefundError('not_found', `The gateway does not know the payment ${reference}.`);
  return new RefundError(
    'gateway_unavailable',
    `The gateway could not be asked about ${reference}; nothing was sent. Try again in a moment.`,
  );
}

/**
 * What is left to refund on a payment, from calls the spec offers: the payment's lookup and one
 * lookup by merchant reference per refund slot (the book says how far the slots go at least).
 * Throws `RefundError` `not_found` or `gateway_unavailable`.
 */
export async function refundable(
  reference: string,
  deps: { gateway: RefundGateway } & RefundBookDeps,
): Promise<Refundable> {
  // The book only adds keys and sends still open: without the store, the gateway's slots still count.
  const book = await readBook(bookStore(deps), reference).catch(() => ({ slots: [] }));
  return (await readRefundable(reference, deps.gateway, book)).now;
}

/**
 * {@link refundable} with the book read already (under the refund lock): the slots as read too.
 * A slot the book holds open (sent, answer not seen) and the gateway does not show yet is counted
 * pending, except `ownKey`'s own (which is about to be sent again).
 */
export async function readRefundable(
  reference: string,
  gateway: RefundGateway,
  book: RefundBook,
  ownKey?: string,
): Promise<{ now: Refundable; readings: SlotReading[] }> {
  let payment: LookupRecord;
  let readings: SlotReading[];
  try {
    [payment, readings] = await Promise.all([
      gateway.lookups.payment(reference),
      readSlots((m) => gateway.reconcile(m), reference, highestSlot(book)),
    ]);
  } catch (error) {
    throw lookupFailed(reference, error);
  }
  const refunds: Refundable['refunds'] = [];
  let refunded = 0;
  let pending = 0;
  for (const reading of readings) {
    const r = reading.record;
    if (!r) {
      const slot = book.slots.find((s) => s.i === reading.i);
      if (slot?.open && slot.key !== ownKey) pending += slot.amount;
      continue;
    }
    if (r.amount >= 0) continue; // not a refund: nothing of this payment's
    const key = book.slots.find((s) => s.i === reading.i)?.key;
    refunds.push({ ...r, merchantReference: reading.merchantReference, ...(key ? { key } : {}) });
    if (isPendingRefund(r)) pending += -r.amount;
    else if (!ENDED_UNREFUNDED.has(r.status)) refunded += -r.amount;
  }
  const settled = payment.status === 'SETTLED' && !payment.pending;
  return {
    now: {
      payment,
      currency: payment.currency,
      amount: payment.amount,
      refunded,
      pending,
      left: settled ? Math.max(0, payment.amount - refunded - pending) : 0,
      refunds,
    },
    readings,
  };
}
