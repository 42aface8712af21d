import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';
import type { CheckoutLogger } from './logger.js';
import { statusOf, type CoreErrorCode } from './http/status-table.js';

/** Stable codes of the browser API's `{ success: false, message, code }` answers (docs/contracts.md). */
export type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';

/** What an answer needs beside its code and message; its status comes from the code. */
export interface CheckoutErrorOptions {
  /** Seconds the client should wait before asking again (`Retry-After`), when not the code's default. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * An error that becomes a JSON answer with its code and shopper-readable message. Thrown as
 * `new CheckoutError(code, message, options?)`, its status and headers are the code's (one table
 * at the HTTP edge). Merchant hooks (for example `resolveOrder`) may also throw
 * `new CheckoutError(status, code, message, headers?)` to refuse a request with a status of their own.
 */
export class CheckoutError extends Error {
  override readonly name = 'CheckoutError';
  readonly status: number;
  readonly code: CheckoutErrorCode | (string & {});
  readonly headers: Record<string, string>;
  /** The `Retry-After` seconds the code form was given, if any. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: CoreErrorCode, message: string, options?: CheckoutErrorOptions);
  constructor(
    status: number,
    code: CheckoutErrorCode | (string & {}),
    message: string,
    headers?: Record<string, string>,
  );
  constructor(
    first: number | CoreErrorCode,
    second: string,
    third?: string | CheckoutErrorOptions,
    fourth?: Record<string, string>,
  ) {
    if (typeof first === 'number') {
      super(String(third));
      this.status = first;
      this.code = second;
      this.headers = fourth ?? {};
      this.retryAfterSeconds = undefined;
      return;
    }
    const options = typeof third === 'object' ? third : {};
    super(second, 'cause' in options ? { cause: options.cause } : undefined);
    const answer = statusOf(first, options.retryAfterSeconds);
    this.status = answer.status;
    this.code = first;
    this.headers = answer.headers;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A store failure before anything was sent to the gateway: nothing was charged, say so. */
export function storeUnavailable(logger: CheckoutLogger, error: unknown): CheckoutError {
  if (error instanceof CheckoutError) return error;
  logger.error('store unavailable', { error });
  return new CheckoutError(
    'store_unavailable',
    'We could not start the payment right now. Nothing was charged; please try again in a moment.',
  );
}

/**
 * A setup fault of the shop (no client address, a wrong gateway URL or credentials): the shopper
 * is never told their card failed. Used only where the fault proves nothing was processed.
 */
export function misconfigured(): CheckoutError {
  return new CheckoutError(
    'misconfigured',
    'Payments are not available right now because of a problem at the shop. Nothing was charged.',
  );
}
