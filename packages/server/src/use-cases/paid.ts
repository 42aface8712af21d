import type { Caller } from '../setup/caller.js';
import type { CheckoutOrder, PaymentMethodKind } from '../options.js';
import type { OwnedPaymentState, PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import { paymentKeys } from '../stores/keys.js';
import { gatewayView, readPayment } from '../order/book.js';
import { attemptReference, paidAttempt, type Ledger } from '../order/ledger.js';
import { matchesCharge } from '../order/states.js';
import type { PaymentRecord } from '../order/records.js';

const APPROVED = 'Payment approved.';

/** The state for the browser that started the payment: with the secret that lets it read it later. */
export async function owned(
  ctx: Context,
  state: PaymentState,
  merchantReference: string,
): Promise<OwnedPaymentState> {
  return state.reference
    ? { ...state, clientSecret: await ctx.secrets.clientSecret(state.reference, merchantReference) }
    : state;
}

const money = ({ amount, currency }: { amount: number; currency: string }) =>
  `${(amount / 100).toFixed(2)} ${currency}`;

/** The order asks for another amount than the one charged: never "approved", never charged again. */
const orderChangedState = (
  reference: string,
  charged: { amount: number; currency: string },
): PaymentState => ({
  success: false,
  status: 'failed',
  reference,
  code: 'order_changed',
  message: `This order was paid ${money(charged)} and has changed since. Nothing more was charged; please contact the shop to complete it.`,
});

export interface Charge {
  reference: string;
  merchantReference: string;
  /** What the gateway charged, when known; read from the gateway otherwise. */
  amount?: number | undefined;
  currency?: string | undefined;
}

/**
 * What a charged payment of `order` answers: its approved state while the order still asks for
 * what was charged, else `order_changed`, and the merchant's `onOrderChanged` once per payment and
 * order amount.
 */
async function answerForCharge(
  ctx: Context,
  order: CheckoutOrder,
  charge: Charge,
  approved?: PaymentState,
): Promise<PaymentState> {
  let { amount, currency } = charge;
  // A record rebuilt without the gateway's lookup holds amount 0: not a charge to compare.
  const known = () => Boolean(amount && currency);
  if (!known()) {
    const record = await readPayment(ctx, charge.merchantReference, charge.reference);
    if (record) ({ amount, currency } = record);
  }
  if (!known()) {
    const view = await gatewayView(ctx, charge.reference);
    if (view.kind !== 'unknown') ({ amount, currency } = view.record);
  }
  const state = approved ?? {
    success: true,
    status: 'approved',
    reference: charge.reference,
    message: APPROVED,
  };
  // Not known (the gateway could not be asked): the charge stands as the gateway made it.
  if (!known()) return state;
  const charged = { amount: amount!, currency: currency! };
  if (matchesCharge(charged, order)) return state;
  await orderChanged(ctx, order, charge, charged);
  return orderChangedState(charge.reference, charged);
}

async function orderChanged(
  ctx: Context,
  order: CheckoutOrder,
  charge: Charge,
  charged: { amount: number; currency: string },
): Promise<void> {
  ctx.logger.warn('order changed after it was charged; not approved, nothing more charged', {
    orderReference: order.reference,
    reference: charge.reference,
    charged,
    order: { amount: order.amount, currency: order.currency },
  });
  const hook = ctx.options.onOrderChanged;
  if (!hook) return;
  try {
    const key = `${paymentKeys(charge.reference).hook('changed')}:${order.amount}:${order.currency}`;
    if (!(await ctx.store.setIfAbsent(key, '1', ctx.recordTtlMs))) return;
  } catch (error) {
    ctx.logger.error('store unavailable; running onOrderChanged without de-duplication', { error });
  }
  try {
    await hook({
      orderReference: order.reference,
      reference: charge.reference,
      merchantReference: charge.merchantReference,
      charged,
      order: { amount: order.amount, currency: order.currency },
    });
    ctx.telemetry.hookDelivery('order_changed', 'delivered');
  } catch (error) {
    ctx.telemetry.hookDelivery('order_changed', 'failed');
    ctx.logger.error('onOrderChanged threw', { reference: charge.reference, error });
  }
}

/**
 * The answer for an order some attempt of `ledger` already paid: that payment's state (approved,
 * or `order_changed`), for its browser; `undefined` when no attempt is paid. The charge is
 * compared with the order as priced for the method that paid it (the caller's when not known).
 */
export async function paidAnswer(
  ctx: Context,
  caller: Caller,
  order: CheckoutOrder,
  ledger: Ledger,
): Promise<OwnedPaymentState | undefined> {
  const found = paidAttempt(ledger);
  if (!found) return undefined;
  const [n, attempt] = found;
  const merchantReference = attemptReference(order.reference, n);
  const priced = attempt.method ? await caller.order(attempt.method) : order;
  const state = await paidOrderAnswer(
    ctx,
    priced,
    {
      reference: attempt.reference!,
      merchantReference,
      amount: attempt.amount,
      currency: attempt.currency,
    },
    attempt.payment,
  );
  return owned(ctx, state, merchantReference);
}

/** A paid payment's state (`record`: what its order's document keeps of it), never a new charge. */
async function paidOrderAnswer(
  ctx: Context,
  order: CheckoutOrder,
  charge: Charge,
  record: PaymentRecord | undefined,
): Promise<PaymentState> {
  const approved = record?.state.status === 'approved' ? record.state : undefined;
  return answerForCharge(
    ctx,
    order,
    {
      ...charge,
      amount: charge.amount ?? record?.amount,
      currency: charge.currency ?? record?.currency,
    },
    approved,
  );
}

/**
 * The paid answer for a request that charged nothing itself (another tab, method or attempt paid
 * the order first): still `approved`, so older clients go on, but marked and worded as such.
 */
export const alreadyPaidBy = (state: OwnedPaymentState): OwnedPaymentState =>
  state.status === 'approved'
    ? {
        ...state,
        alreadyPaid: true as const,
        message: 'This order is already paid. Nothing more was charged.',
      }
    : state;

/**
 * An approval the caller's browser reads (Step 2, status): still "approved" only while the caller's
 * order, as priced for the payment's method, asks for what was charged. Another order (the shop
 * moved on), or no order to read, leaves the charge as the gateway made it.
 */
export async function approvalFor(
  ctx: Context,
  caller: Caller,
  charge: Charge & { order: string; method: PaymentMethodKind },
  approved: PaymentState,
): Promise<PaymentState> {
  let order: CheckoutOrder;
  try {
    order = await caller.order(charge.method);
  } catch {
    return approved;
  }
  return order.reference === charge.order
    ? answerForCharge(ctx, order, charge, approved)
    : approved;
}
