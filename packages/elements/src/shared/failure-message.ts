import { meaningOf } from '../api/codes.js';
import type { FinalPaymentState } from '../api/types.js';
import type { MessageKey, Translate } from '../i18n/localize.js';

const keyFor = (code: string, fallback: MessageKey): MessageKey =>
  meaningOf(code)?.message ?? fallback;

/** An amount as the page writes it, or undefined while its format is being made. */
export type AmountFormat = (cents: number, currency: string) => string | undefined;

/**
 * The shopper-facing, localized text for a final state; raw server and gateway text never shows. A
 * changed total is said with the new total: the message is what a screen reader reads first.
 */
export function shopperMessage(
  state: FinalPaymentState,
  t: Translate,
  amount?: AmountFormat,
): string {
  if ('order' in state) {
    const { amount: cents, currency } = state.order;
    const total = amount?.(cents, currency) ?? `${(cents / 100).toFixed(2)} ${currency}`;
    return t('amountChanged', { total });
  }
  if (state.status === 'approved') return t(state.alreadyPaid ? 'alreadyPaid' : 'approved');
  if (state.status === 'pending') return t('pending');
  if (state.status === 'declined') {
    if (state.originalErrorCode === 'fin051') return t('declinedFunds');
    return t(keyFor(state.code, 'declined'));
  }
  return t(keyFor(state.code, 'failed'));
}
