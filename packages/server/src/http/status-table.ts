import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';
import type { RefundErrorCode } from '../use-cases/refundable.js';

/** A code the core throws as `new CheckoutError(code, message)`: the browser's and the refund's. */
export type CoreErrorCode = CheckoutErrorCode | RefundErrorCode;

/** What the edge answers for one code: its status and default headers. */
export interface StatusRow {
  status: number;
  headers?: Readonly<Record<string, string>>;
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });

/** The one table of statuses: a code added to either union does not compile until it has a row. */
export const STATUS_TABLE: Readonly<Record<CoreErrorCode, StatusRow>> = {
  invalid_request: { status: 400 },
  invalid_json: { status: 400 },
  payload_too_large: { status: 413 },
  unsupported_media_type: { status: 415 },
  card_declined: { status: 402 },
  authentication_failed: { status: 402 },
  // A state's code, never thrown: its answer's status is `httpStatusOf`'s.
  authentication_cancelled: { status: 200 },
  rate_limited: { status: 429 },
  too_many_declines: { status: 429 },
  forbidden_origin: { status: 403 },
  not_found: { status: 404 },
  conflict: { status: 409 },
  already_paid: { status: 409 },
  method_not_enabled: { status: 404 },
  not_signed_in: { status: 401 },
  forbidden: { status: 403 },
  gateway_unavailable: { status: 503 },
  gateway_timeout: { status: 504 },
  service_busy: { status: 503, headers: retryAfter(60) },
  store_unavailable: { status: 503, headers: retryAfter(5) },
  temporarily_unavailable: { status: 503, headers: retryAfter(2) },
  webhook_invalid: { status: 400 },
  webhook_not_configured: { status: 503 },
  webhook_handler_failed: { status: 500 },
  order_changed: { status: 409 },
  amount_changed: { status: 409 },
  misconfigured: { status: 503, headers: retryAfter(60) },
  internal_error: { status: 500 },
  not_refundable: { status: 409 },
  more_than_left: { status: 409 },
  key_reused: { status: 409 },
  refused: { status: 409 },
};

// A code thrown from plain JavaScript that no row names: a fault of ours, never a 4xx.
const UNKNOWN: StatusRow = STATUS_TABLE.internal_error;

/** Status and headers of a code, `Retry-After` from `retryAfterSeconds` when given. */
export function statusOf(
  code: string,
  retryAfterSeconds?: number,
): { status: number; headers: Record<string, string> } {
  const row = Object.hasOwn(STATUS_TABLE, code) ? STATUS_TABLE[code as CoreErrorCode] : UNKNOWN;
  const headers = { ...row.headers };
  if (retryAfterSeconds !== undefined) Object.assign(headers, retryAfter(retryAfterSeconds));
  return { status: row.status, headers };
}
