import type { PaymentState } from '@pg-checkout/protocol/browser';

/** HTTP status for a state: 200 while it can still succeed (or the shopper closed the bank check), 402 for a refusal, 502/504 for gateway trouble. */
export function httpStatusOf(state: PaymentState): number {
  if (state.success) return 200;
  if (state.status === 'declined') return 402;
  if (/^(already_paid|order_changed|amount_changed)$/.test(state.code)) return 409;
  // The shopper's own close, confirmed: an answer, not trouble.
  if (state.code === 'authentication_cancelled') return 200;
  return state.code === 'gateway_timeout' ? 504 : 502;
}
