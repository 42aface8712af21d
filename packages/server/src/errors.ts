import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';
import type { CheckoutLogger } from './logger.js';

/** Stable codes of the browser API's `{ success: false, message, code }` answers (docs/contracts.md). */
export type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';

/**
 * An error that becomes a JSON answer with its own status, code and shopper-readable message.
 * Merchant hooks (for example `resolveOrder`) may throw one to refuse a request with a 4xx.
 */
export class CheckoutError extends Error {
  override readonly name = 'CheckoutError';
  readonly status: number;
  readonly code: CheckoutErrorCode | (string & {});
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: CheckoutErrorCode | (string & {}),
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** A store failure before anything was sent to the gateway: nothing was charged, say so. */
export function storeUnavailable(logger: CheckoutLogger, error: unknown): CheckoutError {
  if (error instanceof CheckoutError) return error;
  logger.error('store unavailable', { error });
  return new CheckoutError(
    503,
    'store_unavailable',
    'We could not start the payment right now. Nothing was charged; please try again in a moment.',
    { 'Retry-After': '5' },
  );
}

/**
 * A setup fault of the shop (no client address, a wrong gateway URL or credentials): the shopper
 * is never told their card failed. Used only where the fault proves nothing was processed.
 */
export function misconfigured(): CheckoutError {
  return new CheckoutError(
    503,
    'misconfigured',
    'Payments are not available right now because of a problem at the shop. Nothing was charged.',
    { 'Retry-After': '60' },
  );
}
