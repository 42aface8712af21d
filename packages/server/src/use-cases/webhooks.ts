import {
  verifyPaymentNotification,
  verifyPayoutWebhook,
  WebhookVerificationError,
} from '@pg-checkout/node';
import type { PaymentNotification, PayoutWebhook } from '@pg-checkout/protocol';
import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';
import type { LookupRecord } from '../gateway/port.js';
import type { WebhookEvent } from '../options.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError } from '../gateway/failures.js';
import { stateFromLookup } from '../order/outcomes.js';
import { isFinal, type PaymentRecord } from '../order/records.js';
import { deliverNotifiedRefund, deliverRefundsOf } from '../facts/refund-facts.js';
import type { DeliveryResult } from '../facts/delivery.js';
import { paymentKeys } from '../stores/keys.js';
import { readPayment, recordLookup } from '../order/book.js';
import { parseAttemptReference } from '../order/ledger.js';

const DONE_TTL_MS = 4 * 24 * 60 * 60_000; // the gateway retries for up to three days
const LOCK_TTL_MS = 60_000;
/**
 * Lookups one payment's notifications may cost per window. Its NEW, SETTLED, refunds and a few
 * retries of a handler that threw fit; a captured notification replayed with other statuses and
 * amounts (the hash covers only the reference) does not buy more.
 */
export const NOTIFY_LOOKUPS_PER_WINDOW = 10;
export const NOTIFY_LOOKUP_WINDOW_MS = 60 * 60_000;

/** How a delivery was answered; the edge gives a refusal its code's status. */
export interface WebhookAnswer {
  body:
    | { success: true; duplicate?: true; ignored?: true }
    | { success: false; message: string; code: CheckoutErrorCode };
  /** The verifier's own status for a payload it could not read or trust. */
  verifierStatus?: number;
  /** When the gateway should send it again (a refusal it retries: 20 times over three days). */
  retryAfterSeconds?: number;
}

const refuse = (code: CheckoutErrorCode, message: string): WebhookAnswer => ({
  body: { success: false, message, code },
});
const ok = (extra: { duplicate?: true; ignored?: true } = {}): WebhookAnswer => ({
  body: { success: true, ...extra },
});

/**
 * The gateway's own record of a notified payment: the hash covers only the reference, so amount
 * and status come from here. `undefined` when the gateway does not know the reference; throws
 * when it cannot be asked (the delivery is then refused `gateway_unavailable` and retried).
 */
async function lookupNotified(
  ctx: Context,
  reference: string,
  method: PaymentRecord['method'],
): Promise<LookupRecord | undefined> {
  const { lookups } = await ctx.gateway();
  const order =
    method === 'redirect'
      ? [lookups.redirect, lookups.payment]
      : [lookups.payment, lookups.redirect];
  for (const lookup of order) {
    try {
      return await lookup.call(lookups, reference);
    } catch (error) {
      const kind = classifyGatewayError(error).kind;
      if (
        kind === 'outcome_unknown' ||
        kind === 'unavailable' ||
        kind === 'misconfigured' ||
        kind === 'not_gateway'
      )
        throw error;
    }
  }
  return undefined;
}

/**
 * The body as text, however the merchant's app read it first: raw (ours, or `express.raw`), a
 * string (`express.text`), or an object (`express.json`). The hashes cover only the reference or
 * payout id, so a re-serialized object verifies exactly as its original bytes would.
 */
function rawOf(body: unknown): Uint8Array | string {
  if (body instanceof Uint8Array || typeof body === 'string') return body;
  if (body && typeof body === 'object' && Object.keys(body).length > 0) return JSON.stringify(body);
  return new Uint8Array(0);
}

type Verified =
  { type: 'payment'; payload: PaymentNotification } | { type: 'payout'; payload: PayoutWebhook };

function verify(type: WebhookEvent['type'], body: Uint8Array | string, secret: string): Verified {
  return type === 'payment'
    ? { type, payload: verifyPaymentNotification(body, secret) }
    : { type, payload: verifyPayoutWebhook(body, secret) };
}

/**
 * `POST {mount}/webhooks/notify|payout` (gateway -> merchant): verified on the raw body,
 * looked up at the gateway (a payment notification's hash covers only its reference),
 * de-duplicated, handed to the merchant once.
 */
export async function receiveWebhook(
  type: WebhookEvent['type'],
  body: unknown,
  ctx: Context,
): Promise<WebhookAnswer> {
  if (!ctx.webhookSecret) {
    ctx.logger.error('webhook received but no webhookSecret is configured');
    return refuse('webhook_not_configured', 'Webhooks are not configured.');
  }
  let verified: Verified;
  try {
    verified = verify(type, rawOf(body), ctx.webhookSecret);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    ctx.logger.warn('webhook refused', { type, reason: error.reason });
    return { ...refuse('webhook_invalid', error.message), verifierStatus: error.statusCode };
  }
  let event: WebhookEvent;
  let ours: PaymentRecord | undefined;
  if (verified.type === 'payment') {
    const { payload } = verified;
    const reference = payload.paymentReference;
    const keys = paymentKeys(reference);
    // A notification the gateway confirmed and the shop was handed before: its replay costs nothing.
    if (await ctx.store.get(keys.notified(payload.status, payload.amount)))
      return ok({ duplicate: true });
    // Reserved before the lookup, so concurrent replays cannot pass the bound either.
    const spent = await ctx.store.increment(keys.notifyLookups, NOTIFY_LOOKUP_WINDOW_MS);
    if (spent > NOTIFY_LOOKUPS_PER_WINDOW) {
      ctx.telemetry.limitHit('notify_lookups', 'payment');
      // Said once per payment and window: the first refusal.
      if (spent === NOTIFY_LOOKUPS_PER_WINDOW + 1)
        ctx.logger.warn(
          'webhook refused: too many notifications of one payment to check with the gateway in this window; the gateway sends them again later',
          { reference },
        );
      // Not 2xx: a genuine notification among the replays is sent again after the window.
      return {
        ...refuse('rate_limited', 'Too many notifications for this payment; retry later.'),
        retryAfterSeconds: NOTIFY_LOOKUP_WINDOW_MS / 1000,
      };
    }
    // The payload's merchant reference is not covered by the hash: the payment's own index names its order.
    ours = await readPayment(ctx, undefined, reference);
    let record: LookupRecord | undefined;
    try {
      record = await lookupNotified(ctx, reference, ours?.method);
    } catch (error) {
      ctx.logger.warn('webhook not handled: the gateway could not be asked', { error });
      return refuse('gateway_unavailable', 'The payment could not be checked; retry later.');
    }
    if (!record) {
      ctx.logger.warn('webhook for a payment the gateway does not know; acknowledged, ignored', {
        reference,
      });
      return ok({ ignored: true });
    }
    event = {
      type: 'payment',
      payload,
      record,
      orderReference: ours?.orderReference ?? (await orderOf(ctx, payload)),
    };
  } else event = verified;
  const id =
    event.type === 'payment'
      ? // Only what the gateway's record says: the payload is not covered by the hash, so a replay
        // with another amount is the same event. A second partial refund that leaves the record
        // alike is delivered by the sweep, which watches pending refunds (reconcile-refunds.ts).
        `pay:${event.record.reference}:${event.record.status}:${String(event.record.amount)}`
      : `payout:${String(event.payload.payoutId)}`;
  if (await ctx.store.get(`wh:done:${id}`)) {
    if (event.type === 'payment' && agrees(event.payload, event.record)) await remember(ctx, event);
    return ok({ duplicate: true });
  }
  if (!(await ctx.store.setIfAbsent(`wh:lock:${id}`, '1', LOCK_TTL_MS))) {
    // The same delivery is being handled right now; the gateway retries later.
    return refuse('conflict', 'This webhook is already being processed.');
  }
  try {
    if (event.type === 'payment' && ours && !isFinal(ours.state)) {
      const state = stateFromLookup(event.record);
      if (state) await recordLookup(ctx, ours, state, event.record);
    }
    // A refund (a pending one completed): named by its slot reference, that slot; else the
    // notified payment's slots, from the gateway's lookups; each handed over once.
    let refunds: DeliveryResult[] | undefined;
    if (event.type === 'payment') {
      const { payload, record, orderReference } = event;
      refunds = await deliverNotifiedRefund(
        ctx,
        payload.merchantReference,
        record.reference,
        async (payment) =>
          payment === record.reference
            ? orderReference
            : (await readPayment(ctx, undefined, payment))?.orderReference,
      );
      if (!refunds && isRefundNotice(payload, record))
        refunds = await deliverRefundsOf(ctx, record.reference, payload.amount, orderReference);
    }
    if (ctx.options.onWebhook) {
      try {
        await ctx.options.onWebhook(event);
      } catch (error) {
        ctx.telemetry.hookDelivery('webhook', 'failed');
        throw error;
      }
      ctx.telemetry.hookDelivery('webhook', 'delivered');
    }
    // Claimed only after the handler succeeded, so a failure leaves the retry its chance.
    await ctx.store.set(`wh:done:${id}`, '1', DONE_TTL_MS);
    if (
      event.type === 'payment' &&
      (refunds ? refundsFound(refunds) : agrees(event.payload, event.record))
    )
      await remember(ctx, event);
  } catch (error) {
    ctx.logger.error('webhook handler failed; the gateway will retry', { type, error });
    return refuse('webhook_handler_failed', 'The webhook could not be processed.');
  } finally {
    await ctx.store.delete(`wh:lock:${id}`);
  }
  return ok();
}

/**
 * Whether the gateway's record says what the notification says. Only such a payload is remembered:
 * a forged one (another status, the hash covers only the reference) must not shadow the genuine
 * notification that may say it later.
 */
const agrees = (payload: PaymentNotification, record: LookupRecord): boolean =>
  payload.status === record.status &&
  payload.amount === record.amount &&
  payload.currency === record.currency;

/** A refund notice is confirmed when the gateway showed the refunds it names and each was handed over. */
const refundsFound = (results: readonly DeliveryResult[]): boolean =>
  results.length > 0 &&
  results.every((r) => r === 'delivered' || r === 'already' || r === 'no_hook');

/** Marks a confirmed, handled notification: its replays are answered without a lookup. */
async function remember(
  ctx: Context,
  event: Extract<WebhookEvent, { type: 'payment' }>,
): Promise<void> {
  const { paymentReference, status, amount } = event.payload;
  await ctx.store.set(paymentKeys(paymentReference).notified(status, amount), '1', DONE_TTL_MS);
}

/** A notification about a refund of the notified payment (the payment's own record is positive). */
const isRefundNotice = (payload: PaymentNotification, record: LookupRecord): boolean =>
  record.amount > 0 && (payload.amount < 0 || payload.status === 'REFUNDED');

/**
 * The order of a notified payment the store forgot. The payload's merchant reference is not
 * covered by the hash: it counts only when the gateway's lookup by that merchant reference finds
 * this very payment.
 */
async function orderOf(ctx: Context, payload: PaymentNotification): Promise<string | undefined> {
  const claimed = payload.merchantReference;
  const attempt = typeof claimed === 'string' ? parseAttemptReference(claimed) : undefined;
  if (!attempt) return undefined;
  try {
    const found = await (await ctx.gateway()).reconcile(claimed!);
    return found.found && found.record.reference === payload.paymentReference
      ? attempt.order
      : undefined;
  } catch (error) {
    ctx.logger.warn('could not confirm a notified payment’s order with the gateway', { error });
    return undefined;
  }
}
