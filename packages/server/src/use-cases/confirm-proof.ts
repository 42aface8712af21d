import type { PaymentState } from '../payment-state.js';
import { noteDecline } from '../limits/card-testing.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError, type GatewayFailure } from '../gateway/failures.js';
import { paymentKeys } from '../stores/keys.js';
import { alreadyPaidState, pendingState, stateFromFailure } from '../order/outcomes.js';
import { isFinal, type PaymentRecord } from '../order/records.js';
import {
  attemptPayment,
  gatewayView,
  paymentOf,
  recordAnswer,
  refreshAttempts,
  withOrder,
} from '../order/book.js';
import { attemptReference, paidAttempt } from '../order/ledger.js';
import { later } from '../runtime/timers.js';

/** Least time between two sends of one kept proof, across instances. */
const RETRY_GAP_MS = 1_000;
/** When a kept proof is sent again after a confirm got no usable answer (ms after the bank's post). */
const RETRY_SCHEDULE_MS = [1_500, 4_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000];
/** How long a bank's post waits for the order's lock (another tab may be creating a payment). */
const LOCK_WAIT_MS = 10_000;

/**
 * How a bank's proof ended: `done` (the gateway decided, or had decided before), `rejected` (the
 * post was not a proof for this payment; it still waits for the genuine one), `waiting` (no usable
 * answer yet; the proof is kept and sent again).
 */
export type ProofResult =
  | { kind: 'done'; reference: string; state: PaymentState; pageOrigin?: string }
  | { kind: 'rejected'; reference?: string }
  | { kind: 'waiting'; reference: string; pageOrigin?: string };

export interface ProofPost {
  order: string;
  n: number;
  version: 1 | 2;
  proof: string;
  /** `threeDSSessionData` (v2) or `MD` (v1) as the bank posted it, when it did. */
  binding?: string;
  /** Set on a kept proof sent again: its place in the retry schedule. */
  retry?: number;
}

const eventOf = (state: PaymentState) =>
  state.status === 'approved' ? 'charged' : isFinal(state) ? 'refused' : 'created';

/** A record for a payment the store forgot, rebuilt from what the gateway and the reference say. */
function recordFromGateway(
  post: Pick<ProofPost, 'order' | 'n'>,
  reference: string,
  lookup: { amount: number; currency: string } | undefined,
  state: PaymentState,
): PaymentRecord {
  return {
    reference,
    merchantReference: attemptReference(post.order, post.n),
    orderReference: post.order,
    amount: lookup?.amount ?? 0,
    currency: lookup?.currency ?? '',
    state,
  };
}

/**
 * The bank's post on the v2 `callbackUrl` or the v1 `TermUrl`: sends its cres (v2) or PaRes (v1) to
 * the gateway, under the order's lock and only while no other attempt of the order is paid. The gateway decides: after any failure the payment is looked
 * up, and while the gateway still waits for 3-D Secure nothing is settled (a junk or foreign proof
 * must not end a payment whose genuine proof is still coming).
 */
export async function confirmProof(ctx: Context, post: ProofPost): Promise<ProofResult> {
  return withOrder(
    ctx,
    post.order,
    async (book) => {
      const { ledger } = book;
      const attempt = ledger.attempts[post.n];
      const reference = attempt?.reference;
      if (!attempt || !reference) return { kind: 'rejected' };
      const kept = paymentOf(ctx, book, post.n);
      const record = kept?.reference === reference ? kept : undefined;
      const pageOrigin = record?.pageOrigin;
      if (attempt.status !== 'open' || (record && isFinal(record.state))) {
        // A replay, or a post after the payment ended: confirm nothing twice. The kept state is
        // written with the attempt's status, so a decided attempt's final state is its answer.
        const state =
          (record && isFinal(record.state) ? record.state : undefined) ??
          (await (async () => {
            const view = await gatewayView(ctx, reference, record?.method);
            return view.kind === 'final' ? view.state : pendingState(reference);
          })());
        return { kind: 'done', reference, state, ...(pageOrigin ? { pageOrigin } : {}) };
      }
      const threeDS = record?.threeDS;
      if (threeDS) {
        const expected = post.version === 2 ? threeDS.sessionData : threeDS.transactionId;
        if (
          threeDS.version !== post.version ||
          (expected && post.binding !== undefined && post.binding !== expected)
        ) {
          ctx.logger.warn('3-D Secure post rejected: it belongs to another payment', { reference });
          return { kind: 'rejected', reference };
        }
      }
      await refreshAttempts(ctx, post.order, ledger, post.n);
      if (paidAttempt(ledger)) {
        ctx.logger.warn('3-D Secure proof not sent: another attempt already paid the order', {
          reference,
        });
        const state = alreadyPaidState(reference);
        await recordAnswer(ctx, book, post.n, {
          event: 'superseded',
          payment: { ...(record ?? recordFromGateway(post, reference, undefined, state)), state },
        });
        return { kind: 'done', reference, state, ...(pageOrigin ? { pageOrigin } : {}) };
      }
      const outcome = await sendProof(ctx, reference, record?.method, post.version, post.proof);
      if (outcome.kind === 'rejected') return { kind: 'rejected', reference };
      const base =
        record ??
        recordFromGateway(
          post,
          reference,
          // The ledger holds what the attempt asked to charge (or what the gateway's lookup said).
          outcome.lookup ??
            (attempt.amount && attempt.currency
              ? { amount: attempt.amount, currency: attempt.currency }
              : undefined),
          outcome.state ?? pendingState(reference),
        );
      const { retryProof: _previous, ...rest } = base;
      if (outcome.kind === 'waiting') {
        await recordAnswer(ctx, book, post.n, {
          payment: { ...rest, retryProof: { version: post.version, proof: post.proof } },
        });
        scheduleRetries(ctx, reference, post, post.retry === undefined ? 0 : post.retry + 1);
        return { kind: 'waiting', reference, ...(pageOrigin ? { pageOrigin } : {}) };
      }
      const declined = outcome.state.status === 'declined';
      if (declined) await noteDecline(ctx, { order: post.order, shopperId: rest.shopperId });
      await recordAnswer(ctx, book, post.n, {
        event: eventOf(outcome.state),
        declined,
        payment: { ...rest, state: outcome.state },
      });
      return {
        kind: 'done',
        reference,
        state: outcome.state,
        ...(pageOrigin ? { pageOrigin } : {}),
      };
    },
    { waitMs: LOCK_WAIT_MS, degraded: true },
  );
}

type SendOutcome =
  | { kind: 'decided'; state: PaymentState; lookup?: { amount: number; currency: string } }
  | { kind: 'rejected' }
  | { kind: 'waiting'; state?: undefined; lookup?: { amount: number; currency: string } };

/** One confirm call and, after any failure, the gateway's lookup as the judge. */
async function sendProof(
  ctx: Context,
  reference: string,
  method: PaymentRecord['method'],
  version: 1 | 2,
  proof: string,
): Promise<SendOutcome> {
  let failure: GatewayFailure;
  try {
    const gateway = await ctx.gateway();
    const answer =
      version === 2
        ? await gateway.payments.confirm3dsV2(reference, proof)
        : await gateway.payments.confirm3dsV1(reference, proof);
    return {
      kind: 'decided',
      state: {
        success: true,
        status: 'approved',
        reference,
        message: answer.message || 'Payment approved.',
      },
    };
  } catch (error) {
    failure = classifyGatewayError(error);
    if (failure.kind === 'not_gateway') throw error;
  }
  const view = await gatewayView(ctx, reference, method);
  const lookup = view.kind === 'unknown' ? undefined : view.record;
  const definite = failure.kind === 'declined' || failure.kind === 'authentication_failed';
  if (view.kind === 'final') {
    // The failure's own words are better than the lookup's when both say "refused".
    const state =
      definite && view.state.status === 'declined'
        ? stateFromFailure(failure as Extract<GatewayFailure, { kind: 'declined' }>, reference)
        : view.state;
    return { kind: 'decided', state, ...(lookup ? { lookup } : {}) };
  }
  if (view.kind === 'waiting') {
    ctx.logger.warn('3-D Secure confirm did not end the payment; it still waits for the bank', {
      reference,
      failure: failure.kind,
    });
    return failure.kind === 'outcome_unknown' || failure.kind === 'unavailable'
      ? { kind: 'waiting', ...(lookup ? { lookup } : {}) }
      : { kind: 'rejected' };
  }
  if (definite)
    return {
      kind: 'decided',
      state: stateFromFailure(
        failure as Extract<GatewayFailure, { kind: 'declined' | 'authentication_failed' }>,
        reference,
      ),
    };
  ctx.logger.warn('3-D Secure confirm got no usable answer; the proof is kept', {
    reference,
    failure: failure.kind,
  });
  return { kind: 'waiting' };
}

/**
 * Sends a kept proof again on a schedule, from the instance that took the bank's post, until the
 * gateway decides or the 3-D Secure session ends. No read route sends anything to the gateway.
 */
function scheduleRetries(ctx: Context, reference: string, post: ProofPost, step: number): void {
  const delay = RETRY_SCHEDULE_MS[step];
  if (delay === undefined || delay > ctx.sessionTtlMs) return;
  later(() => {
    void (async () => {
      const record = await attemptPayment(ctx, post);
      if (record?.reference !== reference || !record.retryProof || isFinal(record.state)) return;
      // A send that again gets no usable answer schedules the next one itself (confirmProof).
      await retryPendingConfirm(ctx, record, { ...post, retry: step });
    })().catch((error: unknown) =>
      ctx.logger.warn('re-sending a kept 3-D Secure proof failed', { reference, error }),
    );
  }, delay);
}

/** Re-sends a kept proof, at most once per second across instances; returns the fresh record. */
async function retryPendingConfirm(
  ctx: Context,
  record: PaymentRecord,
  post: Pick<ProofPost, 'order' | 'n' | 'retry'>,
): Promise<PaymentRecord> {
  const kept = record.retryProof;
  if (!kept) return record;
  try {
    if (!(await ctx.store.setIfAbsent(paymentKeys(record.reference).retry, '1', RETRY_GAP_MS)))
      return record;
    await confirmProof(ctx, { ...post, version: kept.version, proof: kept.proof });
  } catch (error) {
    ctx.logger.warn('re-sending a kept 3-D Secure proof failed; it stays kept', {
      reference: record.reference,
      error,
    });
    return record;
  }
  return (await attemptPayment(ctx, post).catch(() => undefined)) ?? record;
}
