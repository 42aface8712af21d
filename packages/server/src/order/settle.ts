import type { LookupRecord } from '../gateway/port.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { emitLifecycle, stateFromLookup } from './outcomes.js';
import { isFinal, savePayment, type PaymentRecord } from './records.js';
import { settleSavedCard } from '../cards/saved-cards.js';

/**
 * Saves a record whose state changed and runs the hooks. Called after the gateway answered, so a
 * store failure is logged and swallowed: the shopper is told what the gateway said.
 * `cache: false` skips the save: a final state the browser already has and the gateway's lookup
 * gives back is not worth a store write on the hot path.
 */
export async function settle(
  ctx: Context,
  record: PaymentRecord,
  { cache = true }: { cache?: boolean } = {},
): Promise<void> {
  ctx.telemetry.paymentSettled(record);
  if (cache) await saveSafely(ctx, record);
  if (isFinal(record.state) || record.state.status === 'pending') {
    await settleSavedCard(ctx, record);
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
