import type { PaymentState } from '../payment-state.js';
import type { Context } from './context.js';
import { classifyGatewayError } from './gateway-errors.js';
import { pendingState, stateFromFailure, stateFromOutcome } from './outcomes.js';
import { loadPayment, type PaymentRecord } from './records.js';
import { lookupState, settle } from './settle.js';

const RETRY_GAP_MS = 5_000;

/**
 * Sends the bank's cres (v2) or PaRes (v1) to the gateway. When the answer is lost and the gateway
 * still waits for it, the proof is kept so a later status read can send it again: nothing is lost.
 */
export async function confirmWithProof(
  ctx: Context,
  record: PaymentRecord,
  version: 1 | 2,
  proof: string,
): Promise<PaymentState> {
  let state: PaymentState;
  let retryProof: PaymentRecord['retryProof'];
  try {
    const gateway = await ctx.gateway();
    const outcome =
      version === 2
        ? await gateway.payments.confirm3dsV2(record.reference, proof)
        : await gateway.payments.confirm3dsV1(record.reference, proof);
    state = stateFromOutcome(
      ctx,
      { ...outcome, kind: 'approved', reference: record.reference },
      record.session,
    ).state;
  } catch (error) {
    const failure = classifyGatewayError(error);
    if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
      state = stateFromFailure(failure, record.reference);
    } else {
      ctx.logger.warn('3-D Secure confirm got no usable answer; checking the gateway', {
        reference: record.reference,
        error,
      });
      const looked = await lookupState(ctx, record.reference, record.method);
      state = looked ?? pendingState(record.reference);
      if (!looked) retryProof = { version, proof };
    }
  }
  const { retryProof: _previous, ...rest } = record;
  await settle(ctx, { ...rest, state, ...(retryProof ? { retryProof } : {}) });
  return state;
}

/** Re-sends a kept proof, at most once per few seconds across instances; returns the fresh record. */
export async function retryPendingConfirm(
  ctx: Context,
  record: PaymentRecord,
): Promise<PaymentRecord> {
  const kept = record.retryProof;
  if (
    !kept ||
    !(await ctx.store.setIfAbsent(`confirm-retry:${record.reference}`, '1', RETRY_GAP_MS))
  )
    return record;
  await confirmWithProof(ctx, record, kept.version, kept.proof);
  return (await loadPayment(ctx, record.reference)) ?? record;
}
