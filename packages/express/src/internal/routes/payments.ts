import express, { type Request, type Response, type Router } from 'express';
import { CheckoutError } from '../../errors.js';
import type { CardInput, PaymentOutcome } from '../../gateway.js';
import type { CheckoutOrder } from '../../options.js';
import { httpStatusOf, type OwnedPaymentState, type PaymentState } from '../../payment-state.js';
import type { Context } from '../context.js';
import { classifyGatewayError } from '../gateway-errors.js';
import {
  asyncRoute,
  clientIpOf,
  enforceLimit,
  originGuard,
  ownedReference,
  scratch,
  sendJson,
  storeUnavailable,
} from '../guards.js';
import {
  attemptReference,
  nextAttempt,
  paidAttempt,
  parseAttemptReference,
  rebuildLedger,
  refreshAttempts,
  statusOfRecord,
  withOrder,
  type Ledger,
  type LedgerAttempt,
} from '../ledger.js';
import { maskPan } from '../mask.js';
import {
  alreadyPaidState,
  pendingState,
  stateFromFailure,
  stateFromLookup,
  stateFromOutcome,
} from '../outcomes.js';
import { isFinal, loadPayment, loadPaymentSafely, type PaymentRecord } from '../records.js';
import { gatewayView, settle } from '../settle.js';
import { retryPendingConfirm } from '../confirm.js';
import { CreatePaymentBody, parseBody, parseOrder } from '../schemas.js';
import { jsonBody } from '../json-body.js';
import { findSavedCard, registerCard, settleSavedCard, shopperOf } from '../saved-cards.js';

const timedOut = (message: string): PaymentState => ({
  success: false,
  status: 'failed',
  message,
  code: 'gateway_timeout',
});
const TIMEOUT_STATE = timedOut(
  'The payment service did not answer in time. Please wait a moment before trying again; you will not be charged twice.',
);

const NOT_CHARGED_TIMEOUT =
  'The payment service did not answer in time and your card was not charged. Please try again.';

const APPROVED = 'Payment approved.';
/** A double click waits for the first click's answer instead of failing with 409. */
const CREATE_LOCK_WAIT_MS = 1_500;

function send(res: Response, state: OwnedPaymentState): void {
  sendJson(res, httpStatusOf(state), state);
}

/** The state for the browser that started the payment: with the secret that lets it read it later. */
function owned(ctx: Context, state: PaymentState, merchantReference: string): OwnedPaymentState {
  return state.reference
    ? { ...state, clientSecret: ctx.secrets.clientSecret(state.reference, merchantReference) }
    : state;
}

/** The answer for an order some attempt already paid: that payment's state, never a new charge. */
async function paidState(ctx: Context, reference: string): Promise<PaymentState> {
  const record = await loadPaymentSafely(ctx, reference);
  if (record?.state.status === 'approved') return record.state;
  return { success: true, status: 'approved', reference, message: APPROVED };
}

/** The state a lookup of an attempt means when its own create answer was lost. */
function stateOfLostAttempt(
  found: ReturnType<typeof stateFromLookup>,
  reference: string,
): PaymentState {
  // A payment stuck before 3-D Secure lost its challenge data with the answer; it expires uncharged.
  return (
    found ?? {
      success: false,
      status: 'failed',
      reference,
      message: 'The payment could not be completed and was not charged. Please try again.',
      code: 'gateway_timeout',
    }
  );
}

async function createCardPayment(ctx: Context, req: Request): Promise<OwnedPaymentState> {
  if (!ctx.methods.includes('card'))
    throw new CheckoutError(404, 'method_not_enabled', 'Card payments are not offered here.');
  const pageOrigin = scratch(req).pageOrigin!;
  const body = parseBody(CreatePaymentBody, req.body);
  const shopperId = await shopperOf(ctx, req);
  const clientIp = clientIpOf(req);
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
  if ('token' in body.card) {
    try {
      await findSavedCard(ctx, shopperId, body.card.token);
    } catch (error) {
      throw storeUnavailable(ctx, error);
    }
  }

  return withOrder(
    ctx,
    order.reference,
    async ({ ledger }) => {
      const paid = paidAttempt(ledger);
      if (paid)
        return owned(
          ctx,
          await paidState(ctx, paid[1].reference!),
          attemptReference(order.reference, paid[0]),
        );
      if ((await refreshAttempts(ctx, order.reference, ledger)) === 'wait') return TIMEOUT_STATE;
      const paidNow = paidAttempt(ledger);
      if (paidNow)
        return owned(
          ctx,
          await paidState(ctx, paidNow[1].reference!),
          attemptReference(order.reference, paidNow[0]),
        );
      return sendCreate(ctx, req, order, ledger, { body, shopperId, clientIp, pageOrigin });
    },
    { waitMs: CREATE_LOCK_WAIT_MS },
  );
}

interface CreateInput {
  body: ReturnType<typeof parseBody<typeof CreatePaymentBody>>;
  shopperId: string | undefined;
  clientIp: string;
  pageOrigin: string;
}

/** The one create call of an attempt, under the order's lock; the ledger learns its outcome. */
async function sendCreate(
  ctx: Context,
  req: Request,
  order: CheckoutOrder,
  ledger: Ledger,
  { body, shopperId, clientIp, pageOrigin }: CreateInput,
): Promise<OwnedPaymentState> {
  const gateway = await ctx.gateway();
  const n = nextAttempt(ledger);
  const merchantReference = attemptReference(order.reference, n);
  const own = (state: PaymentState) => owned(ctx, state, merchantReference);
  const pendingCard =
    'token' in body.card || !body.saveCard
      ? undefined
      : await registerCard(ctx, req, shopperId, body.card as CardInput);
  const request = {
    creditCard: body.card,
    transaction: { reference: merchantReference, currency: order.currency, amount: order.amount },
    autoExecute: ctx.options.autoExecute ?? true,
    supports3dsV2: true,
    callbackUrl: `${ctx.publicUrl}/3ds/${ctx.secrets.sessionToken(merchantReference)}/callback`,
    ...(clientIp ? { clientIp } : {}),
    screenWidth: String(body.screenWidth),
    screenHeight: String(body.screenHeight),
    ...(order.subscription ? { subscription: order.subscription } : {}),
    ...(order.affiliateMerchantId ? { affiliateMerchantId: order.affiliateMerchantId } : {}),
  };
  const attempt: LedgerAttempt = { method: 'card', status: 'unknown', openedAt: Date.now() };
  // Written back with the lock's release: a crash mid-call leaves the number unused, and reusing
  // it makes the gateway refuse the second create as a duplicate rather than charge again.
  ledger.attempts[n] = attempt;
  const base = {
    merchantReference,
    orderReference: order.reference,
    amount: order.amount,
    currency: order.currency,
    pageOrigin,
    method: 'card' as const,
    ...(shopperId ? { shopperId } : {}),
    ...(pendingCard ? { pendingCard } : {}),
  };
  let outcome: PaymentOutcome;
  try {
    outcome = await gateway.payments.create(request, clientIp ? { forwardedFor: clientIp } : {});
  } catch (error) {
    const failure = classifyGatewayError(error);
    if (failure.kind === 'outcome_unknown' || failure.kind === 'duplicate') {
      ctx.logger.warn(
        failure.kind === 'duplicate'
          ? 'payment create refused as a duplicate; reading the earlier attempt'
          : 'payment create got no answer; reconciling',
        { merchantReference },
      );
      return own(await settleLostCreate(ctx, base, ledger, n));
    }
    if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
      const reference = (error as { reference?: unknown }).reference;
      const state = stateFromFailure(
        failure,
        typeof reference === 'string' ? reference : undefined,
      );
      attempt.status = 'failed';
      if (state.reference) {
        attempt.reference = state.reference;
        await settle(ctx, { ...base, reference: state.reference, state }, { cache: false });
      } else await settleSavedCard(ctx, { ...base, reference: merchantReference, state });
      ctx.logger.info('card payment declined', {
        merchantReference,
        card: 'number' in body.card ? maskPan(body.card.number) : 'token',
      });
      return own(state);
    }
    // Refused before processing (bad request, signature): nothing was created, the number is free.
    delete ledger.attempts[n];
    if (pendingCard)
      await settleSavedCard(ctx, { ...base, reference: merchantReference, state: TIMEOUT_STATE });
    throw error;
  }
  const { state, threeDS } = stateFromOutcome(ctx, outcome, merchantReference);
  attempt.reference = outcome.reference;
  attempt.status = state.status === 'approved' ? 'paid' : 'open';
  const record: PaymentRecord = {
    ...base,
    reference: outcome.reference,
    state,
    ...(threeDS ? { threeDS } : {}),
  };
  // Only a payment still under way needs its record (3-D Secure ids, the page's origin).
  await settle(ctx, record, { cache: Boolean(threeDS) });
  return own(state);
}

/** A create whose answer was lost (or refused as a duplicate): the gateway's lookup says what happened. */
async function settleLostCreate(
  ctx: Context,
  base: Omit<PaymentRecord, 'reference' | 'state'>,
  ledger: Ledger,
  n: number,
): Promise<PaymentState> {
  const attempt = ledger.attempts[n]!;
  let result;
  try {
    result = await (await ctx.gateway()).reconcile(base.merchantReference);
  } catch (error) {
    if (classifyGatewayError(error).kind === 'not_gateway') throw error;
    ctx.logger.warn('reconcile failed; outcome still unknown', {
      merchantReference: base.merchantReference,
      error,
    });
    return TIMEOUT_STATE;
  }
  if (!result.found) {
    if (Date.now() - attempt.openedAt < ctx.reconcileGraceMs) return TIMEOUT_STATE; // asked again next try
    // The gateway says it never got it (and the merchant set no grace): the number is used again,
    // so a late arrival of this create is refused as a duplicate.
    delete ledger.attempts[n];
    return timedOut(NOT_CHARGED_TIMEOUT);
  }
  const reference = result.record.reference;
  attempt.reference = reference;
  attempt.status = statusOfRecord(result.record);
  const state = stateOfLostAttempt(stateFromLookup(result.record), reference);
  await settle(ctx, { ...base, reference, state });
  return state;
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
  const { reference } = ownedReference(ctx, req);
  let record: PaymentRecord | undefined;
  try {
    record = await loadPayment(ctx, reference);
  } catch (error) {
    throw storeUnavailable(ctx, error);
  }
  const attemptOf = record && parseAttemptReference(record.merchantReference);
  if (!record || !attemptOf) {
    const view = await gatewayView(ctx, reference);
    if (view.kind === 'final') return view.state;
    throw new CheckoutError(
      503,
      'store_unavailable',
      'We could not continue the payment right now. Please try again in a moment.',
      { 'Retry-After': '5' },
    );
  }
  if (record.pageOrigin && record.pageOrigin !== scratch(req).pageOrigin) {
    throw new CheckoutError(403, 'forbidden_origin', 'This payment was started on another page.');
  }
  if (
    record.state.status !== 'authenticating' ||
    record.threeDS?.version !== 2 ||
    !record.threeDS.txId
  )
    return record.state;
  return withOrder(
    ctx,
    attemptOf.order,
    async ({ ledger }) => {
      // Re-read under the lock: another call may have moved it on.
      const current = (await loadPaymentSafely(ctx, reference)) ?? record!;
      const threeDS = current.threeDS;
      if (current.state.status !== 'authenticating' || threeDS?.version !== 2 || !threeDS.txId)
        return current.state;
      const attempt = (ledger.attempts[attemptOf.n] ??= {
        method: 'card',
        status: 'open',
        reference,
        openedAt: 0,
      });
      await refreshAttempts(ctx, attemptOf.order, ledger, attemptOf.n);
      if (paidAttempt(ledger)) {
        attempt.status = 'failed';
        const state = alreadyPaidState(reference);
        await settle(ctx, { ...current, state });
        return state;
      }
      return sendStep2(ctx, current, attempt, threeDS as Required<typeof threeDS>);
    },
    { waitMs: 10_000 },
  );
}

async function sendStep2(
  ctx: Context,
  record: PaymentRecord,
  attempt: LedgerAttempt,
  threeDS: NonNullable<PaymentRecord['threeDS']>,
): Promise<PaymentState> {
  const { reference } = record;
  const gateway = await ctx.gateway();
  try {
    const outcome = await gateway.payments.confirmStep2(reference, {
      txId: threeDS.txId!,
      transactionId: threeDS.transactionId,
    });
    const next = stateFromOutcome(ctx, outcome, record.merchantReference);
    attempt.status = next.state.status === 'approved' ? 'paid' : 'open';
    await settle(ctx, {
      ...record,
      state: next.state,
      ...(next.threeDS ? { threeDS: next.threeDS } : {}),
    });
    return next.state;
  } catch (error) {
    const failure = classifyGatewayError(error);
    if ((failure.kind === 'declined' || failure.kind === 'rejected') && threeDS.step2Unknown) {
      // The lost answer moved the gateway past Step 2; its challenge data is gone, and nothing was charged.
      const view = await gatewayView(ctx, reference);
      const state = view.kind === 'final' ? view.state : STEP2_LOST_STATE(reference);
      attempt.status =
        state.status === 'approved' ? 'paid' : view.kind === 'waiting' ? 'open' : 'failed';
      await settle(ctx, { ...record, state });
      return state;
    }
    if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
      const state = stateFromFailure(failure, reference);
      attempt.status = 'failed';
      await settle(ctx, { ...record, state });
      return state;
    }
    if (failure.kind === 'outcome_unknown') {
      const view = await gatewayView(ctx, reference);
      if (view.kind === 'final') {
        attempt.status = view.state.status === 'approved' ? 'paid' : 'failed';
        await settle(ctx, { ...record, state: view.state });
        return view.state;
      }
      await settle(ctx, { ...record, threeDS: { ...threeDS, step2Unknown: true } });
    }
    // Nothing settled: the component may try Step 2 again.
    throw error;
  }
}

async function paymentStatus(ctx: Context, req: Request): Promise<PaymentState> {
  const { reference, merchantReference } = ownedReference(ctx, req);
  let record = await loadPaymentSafely(ctx, reference);
  const attemptOf = record && parseAttemptReference(record.merchantReference);
  if (record && attemptOf) record = await retryPendingConfirm(ctx, record, attemptOf);
  if (record && isFinal(record.state)) return record.state;
  const view = await gatewayView(ctx, reference, record?.method);
  if (view.kind === 'final') {
    if (record && view.state.status !== record.state.status)
      await settle(ctx, { ...record, state: view.state });
    return view.state;
  }
  if (record) return record.state.status === 'pending' ? pendingState(reference) : record.state;
  // The store forgot this payment while the gateway still waits for its 3-D Secure: the secret
  // names its attempt, so the order is read back from the gateway. When another attempt paid it,
  // this one will never be confirmed: say so rather than "still checking" until the session ends.
  const attempt = parseAttemptReference(merchantReference);
  if (view.kind === 'waiting' && attempt) {
    const ledger = await rebuildLedger(ctx, attempt.order).catch(() => undefined);
    const paid = ledger && paidAttempt(ledger);
    if (paid && paid[0] !== attempt.n) return alreadyPaidState(reference);
  }
  throw new CheckoutError(
    503,
    'temporarily_unavailable',
    'We are still checking this payment. Please wait a moment.',
    { 'Retry-After': '2' },
  );
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
