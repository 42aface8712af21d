import type { FinalPaymentState } from '../api/types.js';
import type { MessageKey, Translate } from '../i18n/localize.js';

/** Every failure code the middleware (docs/contracts.md) or this package produces, and what the shopper reads. */
export const messageByCode: Readonly<Record<string, MessageKey>> = {
  card_declined: 'declined',
  insufficient_funds: 'declinedFunds',
  authentication_failed: 'authenticationFailed',
  authentication_cancelled: 'authenticationCancelled',
  authentication_timeout: 'authenticationTimeout',
  network_error: 'networkError',
  bad_response: 'unavailable',
  rate_limited: 'rateLimited',
  too_many_declines: 'tooManyDeclines',
  gateway_unavailable: 'unavailable',
  gateway_timeout: 'unavailable',
  store_unavailable: 'unavailable',
  internal_error: 'unavailable',
  temporarily_unavailable: 'unavailable',
  service_busy: 'unavailable',
  misconfigured: 'unavailable',
  not_found: 'notFound',
  already_paid: 'alreadyPaid',
  amount_changed: 'amountChanged',
  offline: 'offline',
  order_changed: 'orderChanged',
  outcome_unknown: 'outcomeUnknown',
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
  not_loaded: 'unavailable',
  aborted: 'failed',
};

/** `http_502` and friends: the client's code for an answer that was not the contract's JSON. */
function byHttpStatus(code: string): MessageKey | undefined {
  const match = /^http_(\d{3})$/.exec(code);
  if (!match) return undefined;
  const status = Number(match[1]);
  if (status === 429) return 'rateLimited';
  if (status === 404) return 'notFound';
  return status >= 500 ? 'unavailable' : 'failed';
}

function keyFor(code: string, fallback: MessageKey): MessageKey {
  return Object.prototype.hasOwnProperty.call(messageByCode, code)
    ? messageByCode[code]!
    : (byHttpStatus(code) ?? fallback);
}

/** The shopper-facing, localized text for a final state; raw server and gateway text never shows. */
export function shopperMessage(state: FinalPaymentState, t: Translate): string {
  if (state.status === 'approved') return t(state.alreadyPaid ? 'alreadyPaid' : 'approved');
  if (state.status === 'pending') return t('pending');
  if (state.status === 'declined') {
    if (state.originalErrorCode === 'fin051') return t('declinedFunds');
    return t(keyFor(state.code, 'declined'));
  }
  return t(keyFor(state.code, 'failed'));
}
