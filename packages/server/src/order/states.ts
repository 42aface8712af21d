/**
 * The order and its attempts as one state machine. An order is paid at most once, by any method;
 * each try is an attempt `n` with the merchant reference `order-n`. This file is the whole table:
 * what moves an attempt, and what the order is, given its attempts.
 */

/**
 * - `unknown`: its create was sent and got no answer (it may exist at the gateway);
 * - `open`: created, not final (3-D Secure under way, a payment page open);
 * - `failed`: final and not charged (declined, failed authentication, expired, refunded, superseded);
 * - `paid`: charged.
 * An attempt that is not in the ledger does not exist: its number is free.
 */
export type AttemptStatus = 'unknown' | 'open' | 'failed' | 'paid';

/**
 * What happens to an attempt:
 * - `sent`: its create goes to the gateway (the number is taken before the call);
 * - `created`: the gateway created it and waits (3-D Secure, payment page);
 * - `charged`: the gateway charged it;
 * - `refused`: the gateway decided it ends uncharged (decline, failed authentication);
 * - `superseded`: another attempt paid the order first; this one's proof is never sent;
 * - `never_created`: the gateway refused the request before processing, or does not know it after
 *   the grace period: the number is free again, so a late create of it is refused as a duplicate.
 */
export type AttemptEvent =
  'sent' | 'created' | 'charged' | 'refused' | 'superseded' | 'never_created';

/** `null`: the attempt leaves the ledger (its number is free). */
type Next = AttemptStatus | null;

/**
 * Our own moves. A move that is not listed is a bug in the core and throws. What the gateway's
 * lookup says is not a move of ours: {@link observed} follows it from any state, since the gateway
 * is the record of truth (a paid attempt the merchant refunded reads `failed`).
 */
export const ATTEMPT_TRANSITIONS: Readonly<
  Record<AttemptStatus | 'absent', Partial<Record<AttemptEvent, Next>>>
> = {
  absent: { sent: 'unknown' },
  unknown: {
    created: 'open',
    charged: 'paid',
    refused: 'failed',
    never_created: null,
  },
  open: { created: 'open', charged: 'paid', refused: 'failed', superseded: 'failed' },
  failed: {},
  paid: {},
};

/** The next status of an attempt after one of our own moves. */
export function nextStatus(from: AttemptStatus | 'absent', event: AttemptEvent): Next {
  const next = ATTEMPT_TRANSITIONS[from][event];
  if (next === undefined)
    throw new Error(`pg-checkout: an attempt cannot move from ${from} on ${event}`);
  return next;
}

/** The status a gateway lookup record means (its `status`, spec "Transaction statuses"). */
export function observed(gatewayStatus: string): AttemptStatus {
  switch (gatewayStatus) {
    case 'SETTLED':
    case 'AUTHORIZED':
      return 'paid';
    case 'NEW':
    case 'THREE_D_SECURE':
      return 'open';
    default:
      return 'failed';
  }
}

/**
 * What the order is, from its attempts, in this order of precedence:
 * - `paid`: an attempt is charged (whatever the others are);
 * - `checking`: an attempt's create got no answer: nothing new may be sent until it is known;
 * - `in_progress`: an attempt is under way (3-D Secure, a payment page);
 * - `open`: every attempt ended uncharged (or there is none): paying is safe.
 */
export type OrderStatus = 'paid' | 'checking' | 'in_progress' | 'open';

export function orderStatusOf(statuses: Iterable<AttemptStatus>): OrderStatus {
  let status: OrderStatus = 'open';
  for (const s of statuses) {
    if (s === 'paid') return 'paid';
    if (s === 'unknown') status = 'checking';
    else if (s === 'open' && status === 'open') status = 'in_progress';
  }
  return status;
}

/** Whether an order charged `charged` still asks for exactly that: "approved" means this. */
export function matchesCharge(
  charged: { amount: number; currency: string },
  order: { amount: number; currency: string },
): boolean {
  return charged.amount === order.amount && charged.currency === order.currency;
}
