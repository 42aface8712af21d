import {
  PaymentNotificationSchema,
  PayoutWebhookSchema,
  check,
  describeIssues,
  type PaymentNotification,
  type PayoutWebhook,
} from '@pg-checkout/protocol';
import { WebhookVerificationError } from './errors.js';
import { constantTimeEqual } from './internal/crypto.js';
import { md5Hex } from './internal/md5.js';

/** A secret, or a function that picks it from the payload (a super merchant uses the sub-merchant's secret). */
export type NotificationSecret =
  string | ((notification: PaymentNotification) => string | undefined);

/** MD5 hex of the concatenation, as the gateway computes webhook hashes. */
export function webhookHash(id: string | number, secret: string): string {
  return md5Hex(`${id}${secret}`);
}

// Keeps a byte order mark, as Node's Buffer#toString did, so such a body fails as not JSON.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function parseRaw(rawBody: unknown, what: string): unknown {
  let text: string;
  if (typeof rawBody === 'string') text = rawBody;
  else if (rawBody instanceof Uint8Array) text = utf8.decode(rawBody);
  else {
    throw new WebhookVerificationError(
      `${what}: pass the raw request body (a string or Uint8Array, e.g. express.raw({ type: 'application/json' })), ` +
        `not ${rawBody === null ? 'null' : typeof rawBody === 'object' ? 'a parsed object' : typeof rawBody}`,
      'not-raw',
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookVerificationError(`${what}: the body is not valid JSON`, 'malformed');
  }
}

function sameHash(expected: string, received: string): boolean {
  // Lengths are public (32 hex characters); only the content comparison must be constant-time.
  return constantTimeEqual(expected, received.toLowerCase());
}

/**
 * Verifies a payment notification (POST to urls.notify): hash = MD5(paymentReference + secret).
 * The hash covers only the reference: confirm amount and status with a lookup before fulfilling
 * (`client.confirmNotification`).
 */
export function verifyPaymentNotification(
  rawBody: string | Uint8Array,
  secret: NotificationSecret,
): PaymentNotification {
  const what = 'payment notification';
  const payload = parseRaw(rawBody, what);
  const result = check(PaymentNotificationSchema, payload);
  if (!result.success) {
    throw new WebhookVerificationError(
      `${what}: ${describeIssues(result.issues)}`,
      'invalid-payload',
      result.issues,
    );
  }
  const notification = result.data;
  const key: unknown = typeof secret === 'function' ? secret(notification) : secret;
  if (key instanceof Promise) {
    throw new TypeError('the secret resolver must return the secret synchronously, not a Promise');
  }
  if (typeof key !== 'string' || key === '') {
    throw new WebhookVerificationError(
      `${what}: no secret known for this notification`,
      'unknown-merchant',
    );
  }
  if (!sameHash(webhookHash(notification.paymentReference, key), notification.hash)) {
    throw new WebhookVerificationError(
      `${what}: hash does not match (forged, or signed with another secret)`,
      'hash-mismatch',
    );
  }
  return notification;
}

/** Verifies a payout webhook: hash = MD5(payoutId + the merchant's own secret), even for an affiliate's payout. */
export function verifyPayoutWebhook(rawBody: string | Uint8Array, secret: string): PayoutWebhook {
  const what = 'payout webhook';
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('verifyPayoutWebhook needs the merchant secret');
  }
  const payload = parseRaw(rawBody, what);
  const result = check(PayoutWebhookSchema, payload);
  if (!result.success) {
    throw new WebhookVerificationError(
      `${what}: ${describeIssues(result.issues)}`,
      'invalid-payload',
      result.issues,
    );
  }
  if (!sameHash(webhookHash(result.data.payoutId, secret), result.data.hash)) {
    throw new WebhookVerificationError(
      `${what}: hash does not match (forged, or signed with another secret)`,
      'hash-mismatch',
    );
  }
  return result.data;
}
