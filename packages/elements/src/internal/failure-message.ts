import { meaningOf } from '../api/codes.js';
import type { FinalPaymentState } from '../api/types.js';
import type { MessageKey, Translate } from '../i18n/localize.js';

const keyFor = (code: string, fallback: MessageKey): MessageKey =>
  meaningOf(code)?.message ?? fallback;

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
