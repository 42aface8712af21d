import { PAYMENT_METHODS } from '@pg-checkout/protocol/vocabulary';
import type { PaymentRecord } from '../order/records.js';
import type { PaymentState } from '../payment-state.js';

/** Every metric and attribute this package reports starts with it (the server README lists them). */
export const PREFIX = 'pg_checkout';

export const METRICS = {
  attempts: `${PREFIX}.payment.attempts`,
  ordersPaid: `${PREFIX}.orders.paid`,
  challengesStarted: `${PREFIX}.three_ds.challenges.started`,
  challengesCompleted: `${PREFIX}.three_ds.challenges.completed`,
  gatewayDuration: `${PREFIX}.gateway.call.duration`,
  hookDeliveries: `${PREFIX}.hook.deliveries`,
  hooksWaiting: `${PREFIX}.hook.deliveries.waiting`,
  limitsHit: `${PREFIX}.limits.hit`,
  cardTesting: `${PREFIX}.card_testing.suspected`,
} as const;

export const ATTR = {
  useCase: `${PREFIX}.use_case`,
  outcome: `${PREFIX}.outcome`,
  method: `${PREFIX}.method`,
  threeDSVersion: `${PREFIX}.three_ds.version`,
  threeDSFlow: `${PREFIX}.three_ds.flow`,
  declineCategory: `${PREFIX}.decline.category`,
  failure: `${PREFIX}.failure`,
  operation: `${PREFIX}.gateway.operation`,
  hook: `${PREFIX}.hook`,
  webhookType: `${PREFIX}.webhook.type`,
  limit: `${PREFIX}.limit`,
  limitScope: `${PREFIX}.limit.scope`,
  errorType: 'error.type',
  // OpenTelemetry's HTTP client attributes, on the gateway's client spans.
  httpStatus: 'http.response.status_code',
  httpMethod: 'http.request.method',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

/**
 * The only values an attribute may take: anything else is reported as `other`. Bounded sets keep
 * a metric's series few, and no reference, order id, address or card data can slip into one.
 */
const ALLOWED = {
  outcome: ['approved', 'declined', 'failed', 'pending', 'authenticating', 'error', 'rejected'],
  method: [...PAYMENT_METHODS, 'saved_card'],
  failure: [
    'gateway_timeout',
    'gateway_unavailable',
    'already_paid',
    'order_changed',
    'misconfigured',
    'store_unavailable',
    'temporarily_unavailable',
    'rate_limited',
    'invalid_request',
    'conflict',
  ],
  hook: [
    'payment_completed',
    'payment_failed',
    'payment_pending',
    'order_changed',
    'webhook',
    'refund',
  ],
  limit: ['pay', 'cards', 'read', 'declines', 'bank_post', 'notify_lookups'],
  limitScope: ['instance', 'client', 'shopper', 'order', 'payment'],
} as const satisfies Record<string, readonly string[]>;

export function allowed(kind: keyof typeof ALLOWED, value: string | undefined): string {
  return value !== undefined && (ALLOWED[kind] as readonly string[]).includes(value)
    ? value
    : 'other';
}

/** The processor codes a decline is sorted by; the gateway's others are `other`. */
const DECLINES: Record<string, string> = {
  fin005: 'do_not_honour',
  fin006: 'authentication_failed',
  fin014: 'invalid_card',
  fin051: 'insufficient_funds',
  fin054: 'expired_card',
};

/** A decline's category, from its processor code or else its own code. */
export function declineCategory(state: Extract<PaymentState, { status: 'declined' }>): string {
  const byCode = state.originalErrorCode ? DECLINES[state.originalErrorCode] : undefined;
  if (byCode) return byCode;
  return state.code === 'authentication_failed' ? 'authentication_failed' : 'other';
}

/** 3-D Secure of a payment as bounded attributes: version `1`, `2` or `none`; flow `frictionless` or `challenge`. */
export function threeDSAttributes(record: Pick<PaymentRecord, 'threeDS'>): Record<string, string> {
  const threeDS = record.threeDS;
  if (!threeDS) return { [ATTR.threeDSVersion]: 'none', [ATTR.threeDSFlow]: 'none' };
  const challenge = threeDS.version === 1 || threeDS.sessionData !== undefined;
  return {
    [ATTR.threeDSVersion]: String(threeDS.version),
    [ATTR.threeDSFlow]: challenge ? 'challenge' : 'frictionless',
  };
}

/** The bounded attributes of a settled payment: outcome, method, 3-D Secure, and why it failed. */
export function paymentAttributes(
  record: Pick<PaymentRecord, 'threeDS' | 'method' | 'state'>,
): Record<string, string> {
  const { state } = record;
  const attributes: Record<string, string> = {
    [ATTR.outcome]: allowed('outcome', state.status),
    [ATTR.method]: allowed('method', record.method ?? 'card'),
    ...threeDSAttributes(record),
  };
  if (state.status === 'declined') attributes[ATTR.declineCategory] = declineCategory(state);
  if (state.status === 'failed') attributes[ATTR.failure] = allowed('failure', state.code);
  return attributes;
}
