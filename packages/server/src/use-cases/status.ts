import type { OrderStatusAnswer } from '@pg-checkout/protocol/browser';
import { CheckoutError } from '../errors.js';
import type { PaymentState } from '../payment-state.js';
import type { Caller } from '../setup/caller.js';
import type { Context } from '../setup/context.js';
import { enforceLimits } from '../limits/limits.js';
import { alreadyPaidState, pendingState } from '../order/outcomes.js';
import { isFinal } from '../order/records.js';
import {
  gatewayView,
  readPayment,
  recordLookup,
  rebuildLedger,
  refreshAttempts,
  withOrder,
} from '../order/book.js';
import { attemptReference, paidAttempt, parseAttemptReference } from '../order/ledger.js';
import { orderStatusOf } from '../order/states.js';
import type { OwnedPayment } from './confirm-step2.js';
import { approvalFor, owned, paidAnswer } from './paid.js';

const stillChecking = () =>
  new CheckoutError(
    'temporarily_unavailable',
    'We are still checking this payment. Please wait a moment.',
  );

/**
 * `GET {mount}/payments/:reference`: the payment's state, authoritative. A final state the store
 * keeps costs no gateway call; anything else is the gateway's lookup. Reads only: it never sends
 * anything to the gateway that could move money.
 */
export async function paymentStatus(
  payment: OwnedPayment,
  caller: Caller,
  ctx: Context,
): Promise<PaymentState> {
  const { reference, merchantReference } = payment;
  const record = await readPayment(ctx, merchantReference, reference);
  // What was charged: the book's, else the gateway's lookup's (asked once per read, never twice).
  let charged: { amount: number; currency: string } | undefined = record;
  const state = record && isFinal(record.state) ? record.state : await fromGateway();
  return state.status === 'approved' ? checkedCharge(state) : state;

  async function fromGateway(): Promise<PaymentState> {
    await enforceLimits(ctx, caller, 'read');
    const view = await gatewayView(ctx, reference, record?.method);
    if (view.kind !== 'unknown' && !(charged?.amount && charged.currency)) charged = view.record;
    if (view.kind === 'final') {
      if (record) await recordLookup(ctx, record, view.state, view.record);
      return view.state;
    }
    if (record) return record.state.status === 'pending' ? pendingState(reference) : record.state;
    // The store forgot this payment while the gateway still waits for its 3-D Secure: the secret
    // names its attempt, so the order is read back from the gateway. When another attempt paid it,
    // this one will never be confirmed: say so rather than "still checking" until the session ends.
    const attempt = parseAttemptReference(merchantReference);
    if (view.kind === 'waiting' && attempt) {
      const ledger = await rebuildLedger(ctx, attempt.order).catch(() => undefined);
      const paid = ledger && paidAttempt(ledger);
      if (paid && paid[0] !== attempt.n) return alreadyPaidState(reference);
    }
    throw stillChecking();
  }

  /** "approved" only while the shopper's order still asks for what was charged. */
  async function checkedCharge(approved: PaymentState): Promise<PaymentState> {
    const attempt = parseAttemptReference(merchantReference);
    if (!attempt) return approved;
    // A payment the store no longer keeps is looked up as a card's, and priced as one.
    const method = record?.method ?? 'card';
    return approvalFor(
      ctx,
      caller,
      {
        ...payment,
        order: attempt.order,
        method,
        amount: charged?.amount,
        currency: charged?.currency,
      },
      approved,
    );
  }
}

/** What `GET {mount}/order` answers (docs/contracts.md, "What the order is now"). */
export type { OrderStatusAnswer };

const CHECKING = {
  success: true as const,
  status: 'checking' as const,
  message: 'We are checking your payment with the payment service. Please wait a moment.',
};

/**
 * `GET {mount}/order`: what became of the caller's order, for a browser that lost an answer.
 * "open" only when every attempt is known to have ended uncharged.
 */
export async function orderStatus(caller: Caller, ctx: Context): Promise<OrderStatusAnswer> {
  await enforceLimits(ctx, caller, 'read');
  const order = await caller.order(undefined);
  try {
    return await withOrder(
      ctx,
      order.reference,
      async ({ ledger }) => {
        // One lookup per read: a cart with many open attempts must not make a read cost many.
        const refreshed = await refreshAttempts(ctx, order.reference, ledger, undefined, {
          budget: 1,
        });
        if (refreshed === 'wait') return CHECKING;
        const status = orderStatusOf(Object.values(ledger.attempts).map((a) => a.status));
        if (status === 'open') return { success: true, status };
        if (status === 'checking') return CHECKING;
        if (status === 'paid')
          return {
            success: true,
            status,
            payment: (await paidAnswer(ctx, caller, order, ledger))!,
          };
        // Under way: hand back what the browser needs to resume, when the store still has it.
        for (const [n, attempt] of Object.entries(ledger.attempts)) {
          if (attempt.status !== 'open' || !attempt.reference) continue;
          const record = attempt.payment;
          if (!record || isFinal(record.state)) continue;
          const merchantReference = attemptReference(order.reference, Number(n));
          return {
            success: true,
            status,
            payment: await owned(ctx, record.state, merchantReference),
          };
        }
        return CHECKING;
        // Loading the order: what the gateway said is kept (briefly), and Pay sends its create at once.
      },
      { remember: true },
    );
  } catch (error) {
    // A payment of this order is being sent right now: its answer is the truth, soon.
    if (error instanceof CheckoutError && error.code === 'conflict') return CHECKING;
    throw error;
  }
}
