import { CheckoutError, storeUnavailable } from '../errors.js';
import type { CardInput, PaymentOutcome } from '../gateway/port.js';
import type { CheckoutOrder, PaymentMethodKind } from '../options.js';
import type { OwnedPaymentState, PaymentState } from '../payment-state.js';
import type { Caller } from '../setup/caller.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError, setupFault } from '../gateway/failures.js';
import {
  refuseOrderTester,
  reserveDeclines,
  type DeclineReservation,
} from '../limits/card-testing.js';
import { enforceLimits } from '../limits/limits.js';
import { maskPan } from '../cards/mask.js';
import { callbackUrl } from '../order/route-url.js';
import { stateFromFailure, stateFromLookup, stateFromOutcome } from '../order/outcomes.js';
import type { FormStart, PaymentRecord } from '../order/records.js';
import { findSavedCard, registerCard, resolveSavedCard } from '../cards/saved-cards.js';
import type { CreatePaymentCommand } from './schemas.js';
import { recordAnswer, refreshAttempts, withOrder, type OrderSession } from '../order/book.js';
import { attemptReference, declineHolds } from '../order/ledger.js';
import { amountChanged } from './amount-shown.js';
import { alreadyPaidBy, owned, paidAnswer } from './paid.js';

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

/** A double click waits for the first click's answer instead of failing with `conflict`. */
const CREATE_LOCK_WAIT_MS = 1_500;

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

/** The card's kind, not a name the browser sends: a token is a saved card's (checked to be the shopper's). */
const methodOf = (cmd: CreatePaymentCommand): PaymentMethodKind =>
  'token' in cmd.card ? 'saved_card' : 'card';

/**
 * `POST {mount}/payments`: pays the caller's order by card (or saved card), once. Under the
 * order's lock: an order some attempt paid answers that payment; an attempt whose outcome is not
 * known yet is asked about first; only then is one create sent.
 */
export async function payByCard(
  cmd: CreatePaymentCommand,
  caller: Caller,
  ctx: Context,
  { form }: { form?: FormStart } = {},
): Promise<OwnedPaymentState> {
  if (!ctx.methods.includes('card'))
    throw new CheckoutError('method_not_enabled', 'Card payments are not offered here.');
  const shopperId = await caller.shopperId();
  const { clientIp } = caller;
  const method = methodOf(cmd);
  // The shopper's and client's decline places are taken before the order is resolved; the order's
  // under its lock. Each is given back unless the gateway refuses the card.
  let reserved: DeclineReservation | undefined;
  const giveCeilingBack = await enforceLimits(ctx, caller, 'pay', shopperId, async () => {
    reserved = await reserveDeclines(ctx, { shopperId, clientIp });
  });
  let refused = false;
  const declined = (orderReference: string) => {
    refused = true;
    reserved?.declined(orderReference);
  };
  try {
    return await payOrder(ctx, cmd, caller, method, shopperId, declined, form);
  } catch (error) {
    if (error instanceof CheckoutError && error.code === 'too_many_declines') giveCeilingBack();
    throw error;
  } finally {
    if (!refused) await reserved?.release();
  }
}

async function payOrder(
  ctx: Context,
  cmd: CreatePaymentCommand,
  caller: Caller,
  method: PaymentMethodKind,
  shopperId: string | undefined,
  declined: (orderReference: string) => void,
  form: FormStart | undefined,
): Promise<OwnedPaymentState> {
  const order = await caller.order(method);
  if ('token' in cmd.card) {
    try {
      await findSavedCard(ctx, shopperId, cmd.card.token);
    } catch (error) {
      throw storeUnavailable(error);
    }
  }

  const attempt = withOrder(
    ctx,
    order.reference,
    async (book) => {
      const { ledger } = book;
      const paid = await paidAnswer(ctx, caller, order, ledger);
      if (paid) return alreadyPaidBy(paid);
      if ((await refreshAttempts(ctx, order.reference, ledger)) === 'wait') return TIMEOUT_STATE;
      const paidNow = await paidAnswer(ctx, caller, order, ledger);
      if (paidNow) return alreadyPaidBy(paidNow);
      // Under the lock, with the attempts just asked about: the order's decline places.
      refuseOrderTester(ctx, declineHolds(ledger));
      // Checked under the lock, right before the one create: the total charged is the one shown.
      return (
        amountChanged(cmd.shown, order) ??
        sendCreate(ctx, cmd, caller, order, book, shopperId, declined, form)
      );
    },
    { waitMs: CREATE_LOCK_WAIT_MS },
  );
  return counted(ctx, method, attempt);
}

/** How a payment start ends when nothing at the gateway decided it: an outage or a setup fault. */
const UNSETTLED = new Set([
  'gateway_unavailable',
  'gateway_timeout',
  'misconfigured',
  'store_unavailable',
]);

/**
 * A payment start that ended with no record to keep (the gateway could not be asked, or a setup
 * fault refused it) is counted in telemetry here; every other ending is counted by its record.
 */
async function counted(
  ctx: Context,
  method: PaymentMethodKind,
  started: Promise<OwnedPaymentState>,
): Promise<OwnedPaymentState> {
  try {
    const state = await started;
    if (state.status === 'failed' && state.code === 'gateway_timeout' && !state.reference)
      ctx.telemetry.paymentUnsettled(method, 'gateway_timeout');
    return state;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && UNSETTLED.has(code))
      ctx.telemetry.paymentUnsettled(method, code);
    throw error;
  }
}

/** The one create call of an attempt, under the order's lock; the book learns its outcome. */
async function sendCreate(
  ctx: Context,
  cmd: CreatePaymentCommand,
  caller: Caller,
  order: CheckoutOrder,
  book: OrderSession,
  shopperId: string | undefined,
  declined: (orderReference: string) => void,
  form: FormStart | undefined,
): Promise<OwnedPaymentState> {
  const gateway = await ctx.gateway();
  const { clientIp } = caller;
  const pendingCard =
    'token' in cmd.card || !cmd.saveCard
      ? undefined
      : await registerCard(ctx, caller, shopperId, cmd.card as CardInput);
  const { n } = await book.start({
    method: methodOf(cmd),
    amount: order.amount,
    currency: order.currency,
  });
  const merchantReference = attemptReference(order.reference, n);
  const own = (state: PaymentState) => owned(ctx, state, merchantReference);
  const request = {
    creditCard: cmd.card,
    transaction: { reference: merchantReference, currency: order.currency, amount: order.amount },
    autoExecute: ctx.options.autoExecute ?? true,
    supports3dsV2: true,
    callbackUrl: callbackUrl(ctx.publicUrl, await ctx.secrets.sessionToken(merchantReference)),
    clientIp,
    screenWidth: String(cmd.screenWidth),
    screenHeight: String(cmd.screenHeight),
    ...(order.subscription ? { subscription: order.subscription } : {}),
    ...(order.affiliateMerchantId ? { affiliateMerchantId: order.affiliateMerchantId } : {}),
  };
  const base = {
    merchantReference,
    orderReference: order.reference,
    amount: order.amount,
    currency: order.currency,
    ...(caller.pageOrigin ? { pageOrigin: caller.pageOrigin } : {}),
    method: methodOf(cmd),
    ...(shopperId ? { shopperId } : {}),
    ...(pendingCard ? { pendingCard } : {}),
    ...(form ? { form } : {}),
  };
  let outcome: PaymentOutcome;
  try {
    outcome = await gateway.payments.create(request, { forwardedFor: clientIp });
  } catch (error) {
    const failure = classifyGatewayError(error);
    if (failure.kind === 'outcome_unknown' || failure.kind === 'duplicate') {
      ctx.logger.warn(
        failure.kind === 'duplicate'
          ? 'payment create refused as a duplicate; reading the earlier attempt'
          : 'payment create got no answer; reconciling',
        { merchantReference },
      );
      return own(await resolveLostCreate(ctx, base, book, n));
    }
    if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
      const reference = (error as { reference?: unknown }).reference;
      const state = stateFromFailure(
        failure,
        typeof reference === 'string' ? reference : undefined,
      );
      declined(order.reference);
      await recordAnswer(ctx, book, n, {
        event: 'refused',
        declined: true,
        ...(state.reference
          ? { payment: { ...base, reference: state.reference, state }, keep: false }
          : {}),
      });
      if (!state.reference)
        await resolveSavedCard(ctx, { ...base, reference: merchantReference, state });
      ctx.logger.info('card payment declined', {
        merchantReference,
        card: 'number' in cmd.card ? maskPan(cmd.card.number) : 'token',
      });
      return own(state);
    }
    // Refused before processing (bad request, signature, wrong URL): nothing was created.
    await recordAnswer(ctx, book, n, { event: 'never_created' });
    if (pendingCard)
      await resolveSavedCard(ctx, { ...base, reference: merchantReference, state: TIMEOUT_STATE });
    throw setupFault(ctx, failure, error) ?? error;
  }
  const { state, threeDS } = await stateFromOutcome(ctx, outcome, merchantReference);
  const payment: PaymentRecord = {
    ...base,
    reference: outcome.reference,
    state,
    ...(threeDS ? { threeDS } : {}),
  };
  // Only a payment still under way needs its record (3-D Secure ids, the page's origin).
  await recordAnswer(ctx, book, n, {
    event: state.status === 'approved' ? 'charged' : 'created',
    payment,
    keep: Boolean(threeDS),
  });
  return own(state);
}

/** A create whose answer was lost (or refused as a duplicate): the gateway's lookup says what happened. */
async function resolveLostCreate(
  ctx: Context,
  base: Omit<PaymentRecord, 'reference' | 'state'>,
  book: OrderSession,
  n: number,
): Promise<PaymentState> {
  const attempt = book.ledger.attempts[n]!;
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
    if (ctx.now() - attempt.openedAt < ctx.reconcileGraceMs) return TIMEOUT_STATE; // asked again next try
    // The gateway says it never got it (and the merchant set no grace): the number is used again,
    // so a late arrival of this create is refused as a duplicate.
    await recordAnswer(ctx, book, n, { event: 'never_created' });
    return timedOut(NOT_CHARGED_TIMEOUT);
  }
  const reference = result.record.reference;
  const state = stateOfLostAttempt(stateFromLookup(result.record), reference);
  await recordAnswer(ctx, book, n, {
    observed: result.record,
    payment: { ...base, reference, state },
  });
  return state;
}
