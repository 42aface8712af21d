import type { LookupRecord } from '../gateway/port.js';
import type { CheckoutLogger } from '../logger.js';
import type { RefundEvent } from '../options.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { directHand, type RefundHand } from '../facts/refund-hook.js';
import {
  isPendingRefund,
  refundable,
  RefundError,
  type RefundAnswer,
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
  /** `refund-<key>`: the refund's merchant reference at the gateway. */
  merchantReference: string;
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

export interface RefundDeps {
  gateway: RefundGateway;
  onRefundCompleted?: ((event: RefundEvent) => void | Promise<void>) | undefined;
  logger?: CheckoutLogger | undefined;
}

const KEY = /^[A-Za-z0-9._:~-]{1,92}$/;
const REFERENCE = /^[A-Za-z0-9._:~-]{1,99}$/;

/** The refund's merchant reference: at most 99 characters, the gateway's limit. */
export const refundMerchantReference = (key: string): string => `refund-${key}`;

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

/** The key's refund at the gateway: undefined when not found; throws when the gateway cannot say. */
async function lookupKey(
  gateway: RefundGateway,
  merchantReference: string,
): Promise<LookupRecord | undefined> {
  const found = await gateway.reconcile(merchantReference);
  return found.found ? found.record : undefined;
}

/** The answer for a key whose refund the gateway already has (or refuses to reuse). */
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
    amount: -record.amount,
    currency: record.currency,
    reference: record.reference,
  };
  return { refund, pending: isPendingRefund(record) };
}

/**
 * Refunds once per key, safe to call twice and after a lost answer: looks the key's merchant
 * reference up before sending, computes what is left from the gateway's records, sends, and after
 * a lost answer looks up again. Throws `RefundError` when nothing was sent (or the gateway refused).
 */
export function refund(command: RefundCommand, deps: RefundDeps): Promise<RefundResult> {
  return refundWith(command, deps, directHand(deps));
}

/** {@link refund}, its completed and pending refunds handed to `hand` (a checkout's outbox). */
export async function refundWith(
  command: RefundCommand,
  deps: Omit<RefundDeps, 'onRefundCompleted'>,
  hand: RefundHand,
): Promise<RefundResult> {
  const cmd = parse(command);
  const { gateway } = deps;
  const merchantReference = refundMerchantReference(cmd.key);
  const completed = (refund: RefundFacts) => hand.completed({ ...refund });

  let earlier: LookupRecord | undefined;
  try {
    earlier = await lookupKey(gateway, merchantReference);
  } catch {
    throw new RefundError(
      'gateway_unavailable',
      `The gateway could not be asked whether ${merchantReference} was refunded; nothing was sent. Try again in a moment.`,
    );
  }
  if (earlier) {
    const { refund, pending } = existing(cmd, merchantReference, earlier);
    await (pending ? hand.pending(refund) : completed(refund));
    return { status: 'already_refunded', refund, record: earlier, pending };
  }

  const now = await refundable(cmd.reference, deps);
  // REFUNDED: nothing is left (below); any other status has nothing refundable yet or any more.
  if (
    now.payment.status !== 'REFUNDED' &&
    (now.payment.status !== 'SETTLED' || now.payment.pending)
  )
    throw new RefundError(
      'not_refundable',
      `Payment ${cmd.reference} is ${now.payment.status}; only a settled payment can be refunded.`,
    );
  const amount = cmd.amount ?? now.left;
  if (amount <= 0 || amount > now.left)
    throw new RefundError(
      'more_than_left',
      `${now.left} cents are left to refund on ${cmd.reference}${now.pending ? ` (${now.pending} pending)` : ''}; nothing was sent.`,
      { left: now.left, pending: now.pending },
    );
  const facts: RefundFacts = {
    paymentReference: cmd.reference,
    merchantReference,
    amount,
    currency: now.currency,
  };
  const transaction = { reference: merchantReference, currency: now.currency, amount };

  let answer: RefundAnswer;
  try {
    answer =
      now.currency === 'ZAR'
        ? await gateway.payments.refund(cmd.reference, transaction)
        : await gateway.foreign.refund(cmd.reference, transaction);
  } catch (error) {
    return afterFailure(cmd, facts, error, deps, now.left, hand);
  }
  const left = now.left - amount;
  if (answer.kind === 'pending') {
    await hand.pending(facts);
    return { status: 'pending', refund: facts, left, message: answer.message };
  }
  const record = await lookupKey(gateway, merchantReference).catch(() => undefined);
  const refund = record ? { ...facts, reference: record.reference } : facts;
  await completed(refund);
  return { status: 'refunded', refund, left, ...(record ? { record } : {}) };
}

/** A refund whose send failed: a lost answer or a duplicate is looked up; a refusal is said. */
async function afterFailure(
  cmd: RefundCommand,
  facts: RefundFacts,
  error: unknown,
  deps: Omit<RefundDeps, 'onRefundCompleted'>,
  leftBefore: number,
  hand: RefundHand,
): Promise<RefundResult> {
  const failure = classifyGatewayError(error);
  if (failure.kind === 'not_gateway') throw error;
  if (failure.kind === 'duplicate' || failure.kind === 'outcome_unknown') {
    let record: LookupRecord | undefined;
    try {
      record = await lookupKey(deps.gateway, facts.merchantReference);
    } catch {
      record = undefined;
    }
    if (!record) return { status: 'unknown', refund: facts, message: UNKNOWN };
    const { refund, pending } = existing(cmd, facts.merchantReference, record);
    // A duplicate: another call with this key sent it. A lost answer: this call's refund went through.
    if (failure.kind === 'duplicate') {
      await (pending ? hand.pending(refund) : hand.completed(refund));
      return { status: 'already_refunded', refund, record, pending };
    }
    const left = leftBefore - refund.amount;
    if (pending) {
      await hand.pending(refund);
      return { status: 'pending', refund, left, message: 'The refund is processed manually.' };
    }
    await hand.completed(refund);
    return { status: 'refunded', refund, left, record };
  }
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
