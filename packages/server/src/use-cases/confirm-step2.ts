import { CheckoutError, storeUnavailable } from '../errors.js';
import type { PaymentState } from '../payment-state.js';
import type { Caller } from '../setup/caller.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { noteDecline } from '../limits/card-testing.js';
import { enforceLimits } from '../limits/limits.js';
import { alreadyPaidState, stateFromFailure, stateFromOutcome } from '../order/outcomes.js';
import type { PaymentRecord } from '../order/records.js';
import {
  gatewayView,
  paymentOf,
  readPaymentStrictly,
  recordAnswer,
  refreshAttempts,
  withOrder,
  type OrderSession,
} from '../order/book.js';
import { paidAttempt, parseAttemptReference } from '../order/ledger.js';
import { approvalFor } from './paid.js';

const STEP2_LOST_STATE = (reference: string): PaymentState => ({
  success: false,
  status: 'failed',
  reference,
  message:
    'We could not finish verifying your card with your bank. You have not been charged; please try again.',
  code: 'gateway_timeout',
});

/** A payment the browser proved it created (`X-PG-Client-Secret`): see `ownedReference`. */
export interface OwnedPayment {
  reference: string;
  merchantReference: string;
}

/**
 * `POST {mount}/payments/:reference/3dsv2/confirm`: after the method step, asks the gateway for
 * Step 2 (frictionless approval, or the challenge), under the order's lock, once.
 */
export async function confirmStep2(
  payment: OwnedPayment,
  caller: Caller,
  ctx: Context,
): Promise<PaymentState> {
  const { reference } = payment;
  let record: PaymentRecord | undefined;
  try {
    record = await readPaymentStrictly(ctx, payment.merchantReference, reference);
  } catch (error) {
    throw storeUnavailable(error);
  }
  const attemptOf = record && parseAttemptReference(record.merchantReference);
  if (!record || !attemptOf) {
    const view = await gatewayView(ctx, reference);
    if (view.kind === 'final') return view.state;
    throw new CheckoutError(
      'store_unavailable',
      'We could not continue the payment right now. Please try again in a moment.',
    );
  }
  // Not the edge's guard (an allowed origin): the page that started this payment, which only its record knows.
  if (record.pageOrigin && record.pageOrigin !== caller.pageOrigin) {
    throw new CheckoutError('forbidden_origin', 'This payment was started on another page.');
  }
  if (
    record.state.status !== 'authenticating' ||
    record.threeDS?.version !== 2 ||
    !record.threeDS.txId
  )
    return record.state;
  await enforceLimits(ctx, caller, 'pay');
  const state = await withOrder(
    ctx,
    attemptOf.order,
    async (book) => {
      const { ledger } = book;
      // As the lock holds it: another call may have moved it on. A document lost since it was
      // read is rebuilt from the gateway, which then names the attempt without its payment.
      const kept = paymentOf(ctx, book, attemptOf.n);
      const current = kept?.reference === reference ? kept : record!;
      const threeDS = current.threeDS;
      if (current.state.status !== 'authenticating' || threeDS?.version !== 2 || !threeDS.txId)
        return current.state;
      // The gateway's lookup says it ended (another tab's Step 2, a webhook): ask for its state.
      if (ledger.attempts[attemptOf.n]?.status !== 'open')
        return (await gatewayViewState(ctx, reference)) ?? current.state;
      await refreshAttempts(ctx, attemptOf.order, ledger, attemptOf.n);
      if (paidAttempt(ledger)) {
        const state = alreadyPaidState(reference);
        await recordAnswer(ctx, book, attemptOf.n, {
          event: 'superseded',
          payment: { ...current, state },
        });
        return state;
      }
      return sendStep2(
        ctx,
        current,
        book,
        attemptOf.n,
        threeDS as Required<typeof threeDS>,
        caller.clientIp,
      );
    },
    { waitMs: 10_000 },
  );
  if (state.status !== 'approved') return state;
  // Frictionless: charged now, for the amount of the create. The order may have changed since.
  const charge = {
    ...payment,
    order: attemptOf.order,
    method: record.method ?? 'card',
    amount: record.amount,
    currency: record.currency,
  };
  return approvalFor(ctx, caller, charge, state);
}

async function gatewayViewState(ctx: Context, reference: string) {
  const view = await gatewayView(ctx, reference);
  return view.kind === 'final' ? view.state : undefined;
}

async function sendStep2(
  ctx: Context,
  record: PaymentRecord,
  book: OrderSession,
  n: number,
  threeDS: NonNullable<PaymentRecord['threeDS']>,
  clientIp: string,
): Promise<PaymentState> {
  const { reference } = record;
  const gateway = await ctx.gateway();
  try {
    const outcome = await gateway.payments.confirmStep2(reference, {
      txId: threeDS.txId!,
      transactionId: threeDS.transactionId,
    });
    const next = await stateFromOutcome(ctx, outcome, record.merchantReference);
    await recordAnswer(ctx, book, n, {
      event: next.state.status === 'approved' ? 'charged' : 'created',
      payment: { ...record, state: next.state, ...(next.threeDS ? { threeDS: next.threeDS } : {}) },
    });
    return next.state;
  } catch (error) {
    const failure = classifyGatewayError(error);
    if ((failure.kind === 'declined' || failure.kind === 'rejected') && threeDS.step2Unknown) {
      // The lost answer moved the gateway past Step 2; its challenge data is gone, and nothing was charged.
      const view = await gatewayView(ctx, reference);
      const state = view.kind === 'final' ? view.state : STEP2_LOST_STATE(reference);
      await recordAnswer(ctx, book, n, {
        event:
          view.kind === 'waiting' ? undefined : state.status === 'approved' ? 'charged' : 'refused',
        payment: { ...record, state },
      });
      return state;
    }
    if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
      const state = stateFromFailure(failure, reference);
      const { orderReference: order, shopperId } = record;
      await noteDecline(ctx, { order, shopperId, clientIp });
      await recordAnswer(ctx, book, n, {
        event: 'refused',
        declined: true,
        payment: { ...record, state },
      });
      return state;
    }
    if (failure.kind === 'outcome_unknown') {
      const view = await gatewayView(ctx, reference);
      if (view.kind === 'final') {
        await recordAnswer(ctx, book, n, {
          event: view.state.status === 'approved' ? 'charged' : 'refused',
          payment: { ...record, state: view.state },
        });
        return view.state;
      }
      await recordAnswer(ctx, book, n, {
        payment: { ...record, threeDS: { ...threeDS, step2Unknown: true } },
      });
    }
    // Nothing settled: the component may try Step 2 again.
    throw error;
  }
}
