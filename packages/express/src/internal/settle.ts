import type { PaymentState } from '../payment-state.js';
import { markPaid } from './attempts.js';
import type { Context } from './context.js';
import { classifyGatewayError } from './gateway-errors.js';
import { emitLifecycle, stateFromLookup } from './outcomes.js';
import { isFinal, savePayment, type PaymentRecord } from './records.js';
import { settleSavedCard } from './saved-cards.js';

/** Saves a record whose state changed, runs hooks and keeps the order's paid marker. */
export async function settle(ctx: Context, record: PaymentRecord): Promise<void> {
  await savePayment(ctx, record);
  if (record.state.status === 'approved')
    await markPaid(ctx, record.orderReference, record.reference);
  if (isFinal(record.state) || record.state.status === 'pending') {
    await settleSavedCard(ctx, record);
    await emitLifecycle(ctx, record);
  }
}

/** The gateway's view of a payment, or `undefined` when it is still in 3-D Secure or unreachable. */
export async function lookupState(
  ctx: Context,
  reference: string,
  method: PaymentRecord['method'] = 'card',
): Promise<PaymentState | undefined> {
  try {
    const { lookups } = await ctx.gateway();
    return stateFromLookup(
      await (method === 'redirect' ? lookups.redirect(reference) : lookups.payment(reference)),
    );
  } catch (error) {
    if (classifyGatewayError(error).kind === 'not_gateway') throw error;
    ctx.logger.warn('payment lookup failed', { reference, error });
    return undefined;
  }
}
