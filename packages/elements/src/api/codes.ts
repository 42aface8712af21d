import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';
import type { MessageKey } from '../i18n/messages.js';

/** Codes the drop-in gives failures itself (the middleware never answers them). */
export type DropInCode =
  | 'network_error'
  | 'bad_response'
  | 'offline'
  | 'outcome_unknown'
  | 'authentication_timeout'
  | 'not_configured'
  | 'not_registered'
  | 'not_loaded'
  | 'aborted'
  // A decline for lack of funds (the gateway's fin051), should a shop's hook name it.
  | 'insufficient_funds';

/**
 * Every code the drop-in knows: the middleware's (`@pg-checkout/protocol/browser`; its webhook codes
 * answer the gateway, never a browser) and its own.
 */
export type KnownCode = Exclude<CheckoutErrorCode, `webhook_${string}`> | DropInCode;

/** What the drop-in does with a failure that carries a code. */
export interface CodeMeaning {
  /** The sentence the shopper reads (the middleware's own text never shows). */
  message: MessageKey;
  /** A status read answered with it says nothing about the payment: keep asking. */
  transient?: true;
  /** The answer may have been lost after the request reached the shop, or the order is paid: ask the order. */
  askOrder?: true;
  /** Says nothing about where the payment stands: its resume entry stays for the next load. */
  unsettled?: true;
  /** Final for the order: no card form, no other methods, no "Try again". */
  closesOrder?: true;
}

// Meanings several codes share.
/** The middleware or the gateway is in trouble: a status read keeps asking. */
const trouble: CodeMeaning = { message: 'unavailable', transient: true };
/** No usable answer, and the request may have reached the shop. */
const lost: CodeMeaning = { message: 'unavailable', transient: true, askOrder: true };

/**
 * One line per code: its meaning, or just the sentence when that is all it changes. A code added to the
 * middleware's `CheckoutErrorCode` does not compile until it has its line here (docs/contracts.md, "One
 * declaration of the Browser API").
 */
export const codes: Readonly<Record<KnownCode, CodeMeaning | MessageKey>> = {
  card_declined: 'declined',
  insufficient_funds: 'declinedFunds',
  authentication_failed: 'authenticationFailed',
  authentication_cancelled: 'authenticationCancelled',
  authentication_timeout: 'authenticationTimeout',
  network_error: { message: 'networkError', transient: true, askOrder: true, unsettled: true },
  bad_response: lost,
  rate_limited: { message: 'rateLimited', transient: true },
  too_many_declines: 'tooManyDeclines',
  gateway_unavailable: trouble,
  gateway_timeout: lost,
  store_unavailable: trouble,
  internal_error: trouble,
  // 503s: the gateway has not answered yet ("still checking"), or the middleware's store is full
  temporarily_unavailable: trouble,
  service_busy: trouble,
  misconfigured: 'unavailable',
  not_found: 'notFound',
  already_paid: { message: 'alreadyPaid', askOrder: true },
  amount_changed: 'amountChanged',
  offline: 'offline',
  order_changed: { message: 'orderChanged', closesOrder: true },
  outcome_unknown: { message: 'outcomeUnknown', closesOrder: true },
  conflict: 'paymentInProgress',
  not_signed_in: 'signInRequired',
  invalid_request: 'failed',
  invalid_json: 'failed',
  forbidden: 'failed',
  forbidden_origin: 'failed',
  method_not_enabled: 'failed',
  payload_too_large: 'failed',
  unsupported_media_type: 'failed',
  not_configured: 'failed',
  not_registered: 'failed',
  not_loaded: { message: 'unavailable', unsettled: true },
  aborted: { message: 'failed', unsettled: true },
};

/** `http_502` and friends: the client's code for an answer that was not the contract's JSON. */
function byHttpStatus(code: string): CodeMeaning | undefined {
  const match = /^http_(\d{3})$/.exec(code);
  if (!match) return undefined;
  const status = Number(match[1]);
  if (status === 429) return { message: 'rateLimited' };
  if (status === 404) return { message: 'notFound' };
  return status >= 500 ? lost : { message: 'failed' };
}

/** What a code means; `undefined` for one the drop-in does not know (a merchant hook's own). */
export function meaningOf(code: string): CodeMeaning | undefined {
  if (!Object.prototype.hasOwnProperty.call(codes, code)) return byHttpStatus(code);
  const meaning = codes[code as KnownCode];
  return typeof meaning === 'string' ? { message: meaning } : meaning;
}
