import type { Ctx } from './context.js';
import { badRequest, duplicate } from './errors.js';
import type { CardRecord, Subscription, Txn } from './types.js';
import { MAX_REFERENCE, type BodyReader } from './validate.js';

const DAY = 24 * 60 * 60 * 1000;
const INTERVALS: readonly Subscription['interval'][] = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];

export function addInterval(at: number, interval: Subscription['interval']): number {
  const d = new Date(at);
  if (interval === 'DAILY') return at + DAY;
  if (interval === 'WEEKLY') return at + 7 * DAY;
  if (interval === 'MONTHLY') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.getTime();
}

export interface SubscriptionInput {
  reference: string;
  interval: Subscription['interval'];
  trialDays: number;
  firstname?: string | undefined;
  lastname?: string | undefined;
  email?: string | undefined;
}

export function readSubscription(ctx: Ctx, r: BodyReader): SubscriptionInput {
  const reference = r.reqStr('reference', { max: MAX_REFERENCE });
  const interval = (r.str('interval') ?? 'MONTHLY').toUpperCase();
  if (!INTERVALS.includes(interval as Subscription['interval'])) {
    throw badRequest(`${r.name('interval')} must be one of ${INTERVALS.join(', ')}`);
  }
  if (ctx.store.subscriptions.get(reference)?.status === 'ACTIVE') {
    throw duplicate(`Subscription ${reference} already exists`);
  }
  return {
    reference,
    interval: interval as Subscription['interval'],
    trialDays: r.int('trialDays', { min: 0, max: 3650 }) ?? 0,
    firstname: r.str('firstname', { max: 100 }),
    lastname: r.str('lastname', { max: 100 }),
    email: r.str('email', { max: 254 }),
  };
}

export function openSubscription(
  ctx: Ctx,
  input: SubscriptionInput,
  txn: Txn,
  card: CardRecord,
): Subscription {
  const sub: Subscription = {
    ...input,
    amount: txn.amount,
    currency: txn.currency,
    card,
    status: 'PENDING',
    nextBillingAt: 0,
    charges: [],
    initialReference: txn.reference,
  };
  ctx.store.subscriptions.set(input.reference, sub);
  txn.subscriptionRef = input.reference;
  return sub;
}

/** Called when the creating payment is approved: billing starts after the trial, every interval. */
export function activateSubscription(ctx: Ctx, txn: Txn): void {
  const sub = txn.subscriptionRef ? ctx.store.subscriptions.get(txn.subscriptionRef) : undefined;
  if (!sub || sub.status !== 'PENDING') return;
  sub.status = 'ACTIVE';
  sub.nextBillingAt = addInterval(ctx.clock.now() + sub.trialDays * DAY, sub.interval);
  scheduleBilling(ctx, sub);
}

export function failSubscription(ctx: Ctx, txn: Txn): void {
  const sub = txn.subscriptionRef ? ctx.store.subscriptions.get(txn.subscriptionRef) : undefined;
  if (sub && sub.status === 'PENDING') sub.status = 'FAILED';
}

function scheduleBilling(ctx: Ctx, sub: Subscription): void {
  ctx.clock.schedule(sub.nextBillingAt, () => bill(ctx, sub));
}

/** One interval's charge; an expired card fails that charge but keeps the subscription (edit fixes it). */
function bill(ctx: Ctx, sub: Subscription): void {
  if (sub.status !== 'ACTIVE') return;
  const now = ctx.clock.now();
  const n = sub.charges.length + 1;
  const txn = ctx.store.add({
    kind: 'card',
    status: 'NEW',
    merchantReference: `${sub.reference}-${n}`,
    amount: sub.amount,
    currency: sub.currency,
    now,
  });
  txn.card = sub.card;
  txn.subscriptionRef = sub.reference;
  txn.recurring = true;
  txn.consumer = { name: sub.firstname, surname: sub.lastname, email: sub.email };
  const d = new Date(now);
  const expired =
    sub.card.expiryYear < d.getUTCFullYear() ||
    (sub.card.expiryYear === d.getUTCFullYear() && sub.card.expiryMonth < d.getUTCMonth() + 1);
  const declined = sub.card.behaviour === 'decline' || sub.card.behaviour === 'insufficient-funds';
  if (expired || declined) {
    txn.status = 'FAILED';
    txn.message = expired ? 'The card has expired' : 'Declined by the card issuer';
  } else {
    txn.status = 'SETTLED';
    txn.authorized = txn.settled = sub.amount;
    txn.message = 'Approved';
  }
  sub.charges.push(txn.reference);
  sub.nextBillingAt = addInterval(sub.nextBillingAt, sub.interval);
  scheduleBilling(ctx, sub);
}
