/**
 * Every code the middleware answers in `{ success: false, message, code }` and in a failed or declined
 * `PaymentState`. A code added here fails to compile in the elements until their `api/codes.ts` says
 * what the drop-in does with it.
 */
export type CheckoutErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'card_declined'
  | 'authentication_failed'
  | 'authentication_cancelled'
  | 'rate_limited'
  | 'too_many_declines'
  | 'forbidden_origin'
  | 'not_found'
  | 'conflict'
  | 'already_paid'
  | 'method_not_enabled'
  | 'not_signed_in'
  | 'forbidden'
  | 'gateway_unavailable'
  | 'gateway_timeout'
  | 'service_busy'
  | 'store_unavailable'
  | 'temporarily_unavailable'
  | 'webhook_invalid'
  | 'webhook_not_configured'
  | 'webhook_handler_failed'
  | 'order_changed'
  | 'amount_changed'
  | 'misconfigured'
  | 'internal_error';

/** A code as read off the wire: the middleware's, or the one a merchant's hook threw with `CheckoutError`. */
export type AnswerCode = CheckoutErrorCode | (string & {});
