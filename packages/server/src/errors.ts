import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';

/** Stable codes of the browser API's `{ success: false, message, code }` answers (docs/contracts.md). */
export type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';

/** Codes of a refund that was not sent (`RefundError`), beside the browser's. */
export type RefundErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'not_refundable'
  | 'more_than_left'
  | 'key_reused'
  | 'gateway_unavailable'
  | 'refused'
  | 'conflict'
  | 'store_unavailable';

/** A code the core throws as `new CheckoutError(code, message)`: the browser's and the refund's. */
export type CoreErrorCode = CheckoutErrorCode | RefundErrorCode;

/** What an answer needs beside its code and message; its status comes from the code. */
export interface CheckoutErrorOptions {
  /** Seconds the client should wait before asking again (`Retry-After`), when not the code's default. */
  retryAfterSeconds?: number;
  /**
   * A fact, not a header: the request was refused before anything reached the gateway, so asking
   * again in a moment is safe. The edge turns it into its short `Retry-After`.
   */
  nothingSent?: true;
  cause?: unknown;
}

/** What the HTTP edge answers for a code: its status, headers and, for some codes, the shopper's sentence. */
export interface CodeAnswer {
  status: number;
  headers: Record<string, string>;
  sentence?: string;
}

type AnswerCode = (
  code: string,
  retryAfterSeconds: number | undefined,
  nothingSent?: true,
) => CodeAnswer;

// The core carries codes and facts; only the HTTP edge (`http/answers.ts`) knows their statuses,
// headers and default sentences. It hands its one function here when it loads (the package's
// entry loads it), so this floor imports nothing above it.
let answerCode: AnswerCode | undefined;

/** Called once by the HTTP edge: how a code becomes its status, headers and default sentence. */
export function answerCodesWith(answer: AnswerCode): void {
  answerCode = answer;
}

function edge(): AnswerCode {
  if (!answerCode)
    throw new Error(
      'CheckoutError: the HTTP edge is not loaded; import from the package (@pg-checkout/server)',
    );
  return answerCode;
}

/**
 * An error that becomes a JSON answer with its code and shopper-readable message. Thrown as
 * `new CheckoutError(code, message?, options?)`, its status and headers are the code's (one
 * function at the HTTP edge; without a message, the code's own sentence there). Merchant hooks
 * (for example `resolveOrder`) may also throw `new CheckoutError(status, code, message, headers?)`
 * to refuse a request with a status of their own.
 */
export class CheckoutError extends Error {
  override readonly name = 'CheckoutError';
  readonly code: CheckoutErrorCode | (string & {});
  /** The `Retry-After` seconds the code form was given, if any. */
  readonly retryAfterSeconds: number | undefined;
  readonly #nothingSent: true | undefined;
  // The four-argument form's own status and headers; the code form asks the edge.
  readonly #own: { status: number; headers: Record<string, string> } | undefined;

  constructor(code: CoreErrorCode, message?: string, options?: CheckoutErrorOptions);
  constructor(
    status: number,
    code: CheckoutErrorCode | (string & {}),
    message: string,
    headers?: Record<string, string>,
  );
  constructor(
    first: number | CoreErrorCode,
    second?: string,
    third?: string | CheckoutErrorOptions,
    fourth?: Record<string, string>,
  ) {
    if (typeof first === 'number') {
      super(String(third));
      this.#own = { status: first, headers: fourth ?? {} };
      this.code = second ?? '';
      this.retryAfterSeconds = undefined;
      this.#nothingSent = undefined;
      return;
    }
    const options = typeof third === 'object' ? third : {};
    super(second ?? '', 'cause' in options ? { cause: options.cause } : undefined);
    this.#own = undefined;
    this.code = first;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.#nothingSent = options.nothingSent;
    if (second === undefined)
      // The code's sentence, read when asked: the edge is loaded by then.
      Object.defineProperty(this, 'message', {
        get: () => edge()(first, undefined).sentence ?? first,
        configurable: true,
      });
  }

  /** The answer's HTTP status: the code's (at the edge), or the merchant's own. */
  get status(): number {
    return this.#own?.status ?? edge()(this.code, this.retryAfterSeconds, this.#nothingSent).status;
  }

  /** The answer's headers (`Retry-After` where the code has one). */
  get headers(): Record<string, string> {
    return (
      this.#own?.headers ?? edge()(this.code, this.retryAfterSeconds, this.#nothingSent).headers
    );
  }
}

/**
 * A store failure before anything was sent to the gateway: nothing was charged, say so. The store's
 * error is its `cause`; the HTTP edge logs it with the route (core.ts), so no use case needs a logger for it.
 */
export function storeUnavailable(error: unknown): CheckoutError {
  if (error instanceof CheckoutError) return error;
  return new CheckoutError('store_unavailable', undefined, { cause: error });
}

/**
 * A setup fault of the shop (no client address, a wrong gateway URL or credentials): the shopper
 * is never told their card failed. Used only where the fault proves nothing was processed.
 */
export function misconfigured(): CheckoutError {
  return new CheckoutError('misconfigured');
}
