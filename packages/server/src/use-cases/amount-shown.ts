import type { CheckoutOrder } from '../options.js';
import type { AmountChangedState } from '../payment-state.js';

const money = ({ amount, currency }: { amount: number; currency: string }) =>
  `${(amount / 100).toFixed(2)} ${currency}`;

/**
 * `amount_changed` when the page showed another total than the order has now, so a total the
 * shopper did not see is never charged; `undefined` when it matches or the page sent none (older clients).
 */
export function amountChanged(
  shown: { amount: number; currency: string } | undefined,
  order: CheckoutOrder,
): AmountChangedState | undefined {
  if (!shown) return undefined;
  if (shown.amount === order.amount && shown.currency === order.currency) return undefined;
  return {
    success: false,
    status: 'failed',
    code: 'amount_changed',
    message: `The order total changed to ${money(order)}. Nothing was charged; check the new total and pay again.`,
    order: { amount: order.amount, currency: order.currency },
  };
}
