import { CheckoutError } from '../errors.js';
import type { PaymentState } from '../payment-state.js';
import type { Caller } from '../setup/caller.js';
import type { Context } from '../setup/context.js';
import { enforceLimits } from '../limits/limits.js';
import { isFinal } from '../order/records.js';
import { gatewayView, paymentOf, recordAnswer, withOrder } from '../order/book.js';
import { parseAttemptReference } from '../order/ledger.js';
import type { OwnedPayment } from './confirm-step2.js';
import { paymentStatus } from './status.js';

/** Long enough for a bank's proof being confirmed right now to finish first. */
const LOCK_WAIT_MS = 10_000;

const stillChecking = () =>
  new CheckoutError(
    'temporarily_unavailable',
    'We are still checking this payment. Please wait a moment.',
  );

const cancelled = (reference: string): PaymentState => ({
  success: false,
  status: 'failed',
  reference,
  code: 'authentication_cancelled',
  message: 'The bank check was cancelled. No payment was made.',
});

/**
 * `POST {mount}/payments/:reference/cancel`: the shopper closed the bank's check. Under the order's
 * lock (a proof being confirmed finishes first): a decided payment answers its state; one the
 * gateway still waits for is ended on our side, so a proof arriving later is never sent.
 */
export async function cancelChallenge(
  payment: OwnedPayment,
  caller: Caller,
  ctx: Context,
): Promise<PaymentState> {
  const { reference, merchantReference } = payment;
  const attempt = parseAttemptReference(merchantReference);
  if (!attempt) throw stillChecking();
  await enforceLimits(ctx, caller, 'read');
  const ended = await withOrder(
    ctx,
    attempt.order,
    async (book) => {
      const kept = paymentOf(ctx, book, attempt.n);
      const record = kept?.reference === reference ? kept : undefined;
      if (record && isFinal(record.state)) return undefined;
      const view = await gatewayView(ctx, reference, record?.method);
      if (view.kind === 'final') return undefined;
      // A proof whose confirm got no answer may still be charged: only the gateway can end that.
      if (view.kind === 'unknown' || record?.retryProof) throw stillChecking();
      const state = cancelled(reference);
      ctx.logger.info('3-D Secure closed by the shopper; its proof will not be sent', {
        reference,
      });
      await recordAnswer(ctx, book, attempt.n, {
        event: book.ledger.attempts[attempt.n]?.status === 'open' ? 'superseded' : undefined,
        payment: {
          ...(record ?? {
            reference,
            merchantReference,
            orderReference: attempt.order,
            amount: view.record.amount,
            currency: view.record.currency,
          }),
          state,
        },
      });
      return state;
    },
    { waitMs: LOCK_WAIT_MS },
  );
  return ended ?? paymentStatus(payment, caller, ctx);
}
