import express, { type Request, type Response, type Router } from 'express';
import { CheckoutError } from '../../errors.js';
import type { CardInput, PaymentOutcome } from '../../gateway.js';
import type { CheckoutOrder } from '../../options.js';
import { httpStatusOf, type PaymentState } from '../../payment-state.js';
import {
  attemptReference,
  closeAttempt,
  newSession,
  openAttempt,
  openAttempts,
  paidReference,
  reconcileAttempt,
  setOpenAttempts,
  withOrderLock,
  type OpenAttempt,
} from '../attempts.js';
import type { Context } from '../context.js';
import { classifyGatewayError } from '../gateway-errors.js';
import { asyncRoute, enforceLimit, originGuard, scratch, sendJson } from '../guards.js';
import { maskPan } from '../mask.js';
import { pendingState, stateFromFailure, stateFromOutcome } from '../outcomes.js';
import { bindSession, isFinal, loadPayment, savePayment, type PaymentRecord } from '../records.js';
import { lookupState, settle } from '../settle.js';
import { retryPendingConfirm } from '../confirm.js';
import { CreatePaymentBody, parseBody, parseOrder } from '../schemas.js';
import { jsonBody } from '../json-body.js';
import { findSavedCard, registerCard, settleSavedCard, shopperOf } from '../saved-cards.js';

const TIMEOUT_STATE: PaymentState = {
  success: false,
  status: 'failed',
  message:
    'The payment service did not answer in time. Please wait a moment before trying again; you will not be charged twice.',
  code: 'gateway_timeout',
};

function send(res: Response, state: PaymentState): void {
  sendJson(res, httpStatusOf(state), state);
}

/**
 * Earlier attempts of this order with an unknown outcome: their result, if one went through, and
 * the attempts still open. Called under the order lock.
 */
async function resolveOpenAttempts(
  ctx: Context,
  order: CheckoutOrder,
): Promise<{ earlier?: PaymentState; stillOpen: OpenAttempt[] }> {
  const open = await openAttempts(ctx, order.reference);
  if (open.length === 0) return { stillOpen: open };
  const stillOpen: OpenAttempt[] = [];
  let found: PaymentState | undefined;
  for (const attempt of open) {
    const state = await reconcileAttempt(ctx, attempt);
    if (state === undefined) stillOpen.push(attempt);
    else if (state && state.reference) {
      await settle(ctx, {
        reference: state.reference,
        merchantReference: attempt.merchantReference,
        orderReference: order.reference,
        amount: order.amount,
        currency: order.currency,
        pageOrigin: attempt.pageOrigin,
        session: attempt.session,
        state,
        ...(attempt.shopperId ? { shopperId: attempt.shopperId } : {}),
      });
      if (state.status === 'approved' || state.status === 'pending') found ??= state;
    }
  }
  await setOpenAttempts(ctx, order.reference, stillOpen);
  if (found) return { earlier: found, stillOpen };
  // Charging again while an earlier attempt may have gone through could charge twice.
  if (stillOpen.length > 0) return { earlier: TIMEOUT_STATE, stillOpen };
  return { stillOpen };
}

async function createCardPayment(ctx: Context, req: Request): Promise<PaymentState> {
  if (!ctx.methods.includes('card'))
    throw new CheckoutError(404, 'method_not_enabled', 'Card payments are not offered here.');
  const pageOrigin = scratch(req).pageOrigin!;
  const body = parseBody(CreatePaymentBody, req.body);
  const shopperId = await shopperOf(ctx, req);
  const clientIp = req.ip ?? req.socket.remoteAddress ?? '';
  if (ctx.rateLimit) {
    await enforceLimit(ctx, `ip:${clientIp}`, ctx.rateLimit.perIp, ctx.rateLimit.windowMs);
    if (shopperId)
      await enforceLimit(
        ctx,
        `shopper:${shopperId}`,
        ctx.rateLimit.perShopper,
        ctx.rateLimit.windowMs,
      );
  }
  const order = parseOrder(await ctx.options.resolveOrder(req));
  if ('token' in body.card) await findSavedCard(ctx, shopperId, body.card.token);

  return withOrderLock(ctx, order.reference, async () => {
    const paid = await paidReference(ctx, order.reference);
    const paidRecord = paid ? await loadPayment(ctx, paid) : undefined;
    if (paidRecord) return paidRecord.state;
    const { earlier, stillOpen } = await resolveOpenAttempts(ctx, order);
    if (earlier) return earlier;

    const gateway = await ctx.gateway();
    const merchantReference = attemptReference(order.reference);
    const session = newSession();
    const pendingCard =
      'token' in body.card || !body.saveCard
        ? undefined
        : await registerCard(ctx, req, shopperId, body.card as CardInput);
    const request = {
      creditCard: body.card,
      transaction: { reference: merchantReference, currency: order.currency, amount: order.amount },
      autoExecute: ctx.options.autoExecute ?? true,
      supports3dsV2: true,
      callbackUrl: `${ctx.publicUrl}/3ds/${session}/callback`,
      clientIp,
      screenWidth: String(body.screenWidth),
      screenHeight: String(body.screenHeight),
      ...(order.subscription ? { subscription: order.subscription } : {}),
      ...(order.affiliateMerchantId ? { affiliateMerchantId: order.affiliateMerchantId } : {}),
    };
    const attempt: OpenAttempt = {
      merchantReference,
      pageOrigin,
      session,
      ...(shopperId ? { shopperId } : {}),
      openedAt: Date.now(),
    };
    // Recorded before the call, so a crash or timeout leaves something to reconcile.
    await openAttempt(ctx, order.reference, attempt, stillOpen);
    const base = {
      merchantReference,
      orderReference: order.reference,
      amount: order.amount,
      currency: order.currency,
      pageOrigin,
      session,
      ...(shopperId ? { shopperId } : {}),
      ...(pendingCard ? { pendingCard } : {}),
    };
    let outcome: PaymentOutcome;
    try {
      outcome = await gateway.payments.create(request, { forwardedFor: clientIp });
    } catch (error) {
      const failure = classifyGatewayError(error);
      if (failure.kind === 'outcome_unknown') {
        ctx.logger.warn('payment create got no answer; reconciling', { merchantReference });
        const state = await reconcileAttempt(ctx, attempt);
        if (state === undefined) return TIMEOUT_STATE;
        await closeAttempt(ctx, order.reference, merchantReference, stillOpen);
        if (state === null)
          return {
            ...TIMEOUT_STATE,
            message:
              'The payment service did not answer in time and your card was not charged. Please try again.',
          };
        await settle(ctx, { ...base, reference: state.reference!, state });
        return state;
      }
      await closeAttempt(ctx, order.reference, merchantReference, stillOpen);
      if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
        const reference = (error as { reference?: unknown }).reference;
        const state = stateFromFailure(
          failure,
          typeof reference === 'string' ? reference : undefined,
        );
        if (state.reference) await settle(ctx, { ...base, reference: state.reference, state });
        else await settleSavedCard(ctx, { ...base, reference: merchantReference, state });
        ctx.logger.info('card payment declined', {
          merchantReference,
          card: 'number' in body.card ? maskPan(body.card.number) : 'token',
        });
        return state;
      }
      throw error;
    }
    await closeAttempt(ctx, order.reference, merchantReference, stillOpen);
    const { state, threeDS } = stateFromOutcome(ctx, outcome, session);
    const record: PaymentRecord = {
      ...base,
      reference: outcome.reference,
      state,
      ...(threeDS ? { threeDS } : {}),
    };
    if (threeDS) {
      await savePayment(ctx, record);
      await bindSession(ctx, session, outcome.reference);
    } else {
      await settle(ctx, record);
    }
    return state;
  });
}

const STEP2_LOST_STATE = (reference: string): PaymentState => ({
  success: false,
  status: 'failed',
  reference,
  message:
    'We could not finish verifying your card with your bank. You have not been charged; please try again.',
  code: 'gateway_timeout',
});

async function confirmStep2(ctx: Context, req: Request): Promise<PaymentState> {
  const reference = String(req.params.reference);
  const record = await loadPayment(ctx, reference);
  if (!record) throw new CheckoutError(404, 'not_found', 'This payment was not found.');
  if (record.pageOrigin !== scratch(req).pageOrigin) {
    throw new CheckoutError(403, 'forbidden_origin', 'This payment was started on another page.');
  }
  const threeDS = record.threeDS;
  if (record.state.status !== 'authenticating' || threeDS?.version !== 2 || !threeDS.txId)
    return record.state;
  if (!(await ctx.store.setIfAbsent(`step2:${reference}`, '1', ctx.recordTtlMs))) {
    const current = await loadPayment(ctx, reference);
    if (current && current.state.status === 'authenticating' && current.threeDS?.txId) {
      throw new CheckoutError(409, 'conflict', 'This payment is already being confirmed.');
    }
    return (current ?? record).state;
  }
  const gateway = await ctx.gateway();
  try {
    const outcome = await gateway.payments.confirmStep2(reference, {
      txId: threeDS.txId,
      transactionId: threeDS.transactionId,
    });
    const next = stateFromOutcome(ctx, outcome, record.session);
    const updated: PaymentRecord = {
      ...record,
      state: next.state,
      ...(next.threeDS ? { threeDS: next.threeDS } : {}),
    };
    if (next.threeDS) await savePayment(ctx, updated);
    else await settle(ctx, updated);
    return next.state;
  } catch (error) {
    const failure = classifyGatewayError(error);
    if (failure.kind === 'declined' && threeDS.step2Unknown) {
      // The lost answer moved the gateway past Step 2; its challenge data is gone, and nothing was charged.
      await settle(ctx, { ...record, state: STEP2_LOST_STATE(reference) });
      return STEP2_LOST_STATE(reference);
    }
    if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
      const state = stateFromFailure(failure, reference);
      await settle(ctx, { ...record, state });
      return state;
    }
    if (failure.kind === 'outcome_unknown') {
      const looked = await lookupState(ctx, reference);
      if (looked) {
        await settle(ctx, { ...record, state: looked });
        return looked;
      }
      await savePayment(ctx, { ...record, threeDS: { ...threeDS, step2Unknown: true } });
    }
    // Nothing settled: let the component try Step 2 again.
    await ctx.store.delete(`step2:${reference}`);
    throw error;
  }
}

async function paymentStatus(ctx: Context, req: Request): Promise<PaymentState> {
  const reference = String(req.params.reference);
  const found = await loadPayment(ctx, reference);
  if (!found) throw new CheckoutError(404, 'not_found', 'This payment was not found.');
  const record = await retryPendingConfirm(ctx, found);
  if (isFinal(record.state)) return record.state;
  const looked = await lookupState(ctx, reference, record.method);
  if (looked && (looked.status !== record.state.status || looked.status === 'pending')) {
    if (looked.status !== record.state.status) await settle(ctx, { ...record, state: looked });
    return looked;
  }
  return record.state.status === 'pending' ? pendingState(reference) : record.state;
}

export function paymentRoutes(ctx: Context): Router {
  const router = express.Router();
  const json = jsonBody(ctx.bodyLimitBytes);
  const guard = originGuard(ctx);

  router.get(
    '/config',
    asyncRoute(async (req, res) => {
      const order = parseOrder(await ctx.options.resolveOrder(req));
      sendJson(res, 200, {
        success: true,
        amount: order.amount,
        currency: order.currency,
        methods: ctx.methods,
        savedCards: Boolean(ctx.options.savedCards),
      });
    }),
  );
  router.post(
    '/payments',
    guard,
    json,
    asyncRoute(async (req, res) => send(res, await createCardPayment(ctx, req))),
  );
  router.post(
    '/payments/:reference/3dsv2/confirm',
    guard,
    json,
    asyncRoute(async (req, res) => send(res, await confirmStep2(ctx, req))),
  );
  router.get(
    '/payments/:reference',
    asyncRoute(async (req, res) => send(res, await paymentStatus(ctx, req))),
  );
  return router;
}
