import type { FinalPaymentState } from '../api/types.js';
import type { MessageKey, Translate } from '../i18n/localize.js';

const byCode: Record<string, MessageKey> = {
  card_declined: 'declined',
  insufficient_funds: 'declinedFunds',
  authentication_failed: 'authenticationFailed',
  authentication_cancelled: 'authenticationCancelled',
  authentication_timeout: 'authenticationTimeout',
  network_error: 'networkError',
  rate_limited: 'rateLimited',
  gateway_unavailable: 'unavailable',
  gateway_timeout: 'unavailable',
};

/** The shopper-facing, localized text for a final state; raw server and gateway text never shows. */
export function shopperMessage(state: FinalPaymentState, t: Translate): string {
  if (state.status === 'approved') return t('approved');
  if (state.status === 'pending') return t('pending');
  if (state.status === 'declined') {
    if (state.originalErrorCode === 'fin051') return t('declinedFunds');
    return t(byCode[state.code] ?? 'declined');
  }
  return t(byCode[state.code] ?? 'failed');
}
