import type { LookupRecord, PaymentOutcome } from '../gateway/port.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import type { GatewayFailure } from '../gateway/failures.js';
import { deliver, factKindOf, wantsFact } from '../facts/delivery.js';
import type { PaymentRecord } from './records.js';
import { confirmUrl, methodUrl, termUrl } from './route-url.js';

const APPROVED = 'Payment approved.';
const PENDING = 'Your payment is being processed. We will confirm it shortly.';

/** Turns a create or Step 2 outcome into the browser's state and the record's 3-D Secure ids. */
export async function stateFromOutcome(
  ctx: Context,
  outcome: PaymentOutcome,
  merchantReference: string,
): Promise<{ state: PaymentState; threeDS?: PaymentRecord['threeDS'] }> {
  const { reference } = outcome;
  if (outcome.kind === 'approved') {
    return {
      state: { success: true, status: 'approved', reference, message: outcome.message || APPROVED },
    };
  }
  // Only a 3-D Secure step has pages of its own: an approval needs no session token.
  const session = await ctx.secrets.sessionToken(merchantReference);
  const { action, kept } = threeDSOf(ctx, outcome, session);
  return {
    state: { success: true, status: 'authenticating', reference, threeDS: action },
    threeDS: kept,
  };
}

type Authenticating = Extract<PaymentState, { status: 'authenticating' }>;

/** The 3-D Secure action the browser runs next, and the ids the record keeps to finish it. */
function threeDSOf(
  ctx: Context,
  outcome: Exclude<PaymentOutcome, { kind: 'approved' }>,
  session: string,
): { action: Authenticating['threeDS']; kept: NonNullable<PaymentRecord['threeDS']> } {
  const callbackOrigin = ctx.publicOrigin;
  if (outcome.kind === '3ds-v1') {
    const { acsUrl, transactionId, paReq } = outcome.threeDSecure;
    return {
      action: {
        version: 1,
        acsUrl,
        paReq,
        md: transactionId,
        termUrl: termUrl(ctx.publicUrl, session),
        callbackOrigin,
      },
      kept: { version: 1, transactionId },
    };
  }
  const v2 = outcome.threeDSecureV2;
  const { transactionId } = v2;
  if (outcome.kind === '3ds-v2-method') {
    const txId = v2.txId ?? '';
    const tdsMethodContent = v2.tdsMethodContent ?? '';
    return {
      action: {
        version: 2,
        step: 'method',
        methodUrl: methodUrl(ctx.publicUrl, session),
        tdsMethodContent,
        txId,
        transactionId,
        confirmUrl: confirmUrl(ctx.publicUrl, outcome.reference),
      },
      kept: { version: 2, transactionId, txId, tdsMethodContent },
    };
  }
  const threeDSSessionData = v2.sessionData ?? '';
  return {
    action: {
      version: 2,
      step: 'challenge',
      acsUrl: v2.acsUrl ?? '',
      creq: v2.creq ?? '',
      threeDSSessionData,
      transactionId,
      callbackOrigin,
    },
    kept: { version: 2, transactionId, sessionData: threeDSSessionData },
  };
}

/** A definitive refusal from the gateway as the browser's state. */
export function stateFromFailure(
  failure: Extract<GatewayFailure, { kind: 'declined' | 'authentication_failed' }>,
  reference: string | undefined,
): PaymentState {
  return {
    success: false,
    status: 'declined',
    ...(reference ? { reference } : {}),
    message: failure.message,
    code: failure.kind === 'declined' ? 'card_declined' : 'authentication_failed',
    ...(failure.originalErrorCode ? { originalErrorCode: failure.originalErrorCode } : {}),
  };
}

/** The gateway's lookup record as the browser's state; `undefined` while 3-D Secure is still open. */
export function stateFromLookup(record: LookupRecord): PaymentState | undefined {
  const { reference } = record;
  switch (record.status) {
    case 'SETTLED':
    case 'AUTHORIZED':
      return { success: true, status: 'approved', reference, message: APPROVED };
    case 'NEW':
      return { success: true, status: 'pending', reference, message: PENDING };
    case 'THREE_D_SECURE':
      return undefined;
    default:
      return {
        success: false,
        status: 'declined',
        reference,
        message: 'The payment was not completed. Please try again or use another card.',
        code: 'card_declined',
      };
  }
}

/** The order was paid by another attempt; this one was never sent to the gateway for authorization. */
export const alreadyPaidState = (reference: string): PaymentState => ({
  success: false,
  status: 'failed',
  reference,
  message: 'This order has already been paid with another payment. This card was not charged.',
  code: 'already_paid',
});

export const pendingState = (reference: string): PaymentState => ({
  success: true,
  status: 'pending',
  reference,
  message: PENDING,
});

/**
 * Hands a final or pending state to the merchant's lifecycle hook, at least once per payment and
 * fact across instances (see `delivery.ts`): a hook that throws is called again later.
 */
export async function emitLifecycle(ctx: Context, record: PaymentRecord): Promise<void> {
  const kind = factKindOf(record.state);
  if (!kind || kind === 'refunded' || !wantsFact(ctx, kind)) return;
  await deliver(ctx, {
    kind,
    reference: record.reference,
    event: {
      reference: record.reference,
      merchantReference: record.merchantReference,
      orderReference: record.orderReference,
      amount: record.amount,
      currency: record.currency,
      state: record.state,
    },
  });
}
