import type { Request, Response } from 'express';
import type { GatewayClient } from '@pg-checkout/node';
import type { ShopperSessions } from './sessions.js';
import { networkOf, type WindowLimit } from '../platform/http/limits.js';
import { paymentStatusOf } from './notifications.js';
import { formatAmount } from '../platform/html.js';
import {
  attemptReference,
  chargedForOther,
  type Order,
  type OrderPayment,
  type OrderStore,
} from './orders.js';
import { refundSecondPayment, type SecondPayment } from './second-payment.js';

/** What the result page may tell the shopper, decided by the gateway's records of the order. */
export type PaymentResult =
  | { state: 'paid'; amount: number; currency: string; second?: SecondPayment }
  /** Charged, but not the order's total at the time: the shop refunds it or collects the rest. */
  | {
      state: 'changed';
      charged: { amount: number; currency: string };
      total: { amount: number; currency: string };
      message: string;
    }
  | { state: 'refunded' }
  | { state: 'not-charged'; status: 'CANCELLED' | 'FAILED' | 'REVERSED' }
  | { state: 'checking' }
  | { state: 'not-found' };

interface Listed {
  amount: number;
  currency: string;
  status: string;
  pending?: boolean | null | undefined;
}

const PAID = new Set(['AUTHORIZED', 'SETTLED']);
const NOT_CHARGED = new Set(['CANCELLED', 'FAILED', 'REVERSED']);

/** Reads the attempts of one order (payments, not refunds) as the gateway lists them. */
export function resultOf(attempts: readonly Listed[]): PaymentResult {
  const paid = attempts.find((t) => PAID.has(t.status) && !t.pending);
  if (paid) return { state: 'paid', amount: paid.amount, currency: paid.currency };
  if (attempts.some((t) => t.status === 'REFUNDED')) return { state: 'refunded' };
  if (attempts.length === 0) return { state: 'not-found' };
  // Only when every attempt has ended uncharged did the gateway say nothing was charged.
  const ended = attempts.filter((t) => NOT_CHARGED.has(t.status) && !t.pending);
  if (ended.length < attempts.length) return { state: 'checking' };
  const status = ended.at(-1)!.status as 'CANCELLED' | 'FAILED' | 'REVERSED';
  return { state: 'not-charged', status };
}

/** The answer for an order the gateway charged another amount or currency than its total. */
function changedResult(order: Order): PaymentResult {
  const charged = { amount: order.paid!.amount, currency: order.paid!.currency };
  const total = { amount: order.total, currency: order.currency };
  return {
    state: 'changed',
    charged,
    total,
    message: `You were charged ${formatAmount(charged.amount, charged.currency)} for ${formatAmount(total.amount, total.currency)}: the order changed while you paid. The shop will refund it or collect the rest; nothing more was charged.`,
  };
}

/**
 * Gateway lookups one request may cost at most. What they find is recorded, so the next request
 * starts where this one stopped instead of asking again for attempts already known to have ended.
 */
export const MAX_LOOKUPS_PER_REQUEST = 3;
/** Attempts of one order looked at at most; the middleware numbers them `${order}-1`, `-2`, … */
const MAX_ATTEMPTS = 20;

/**
 * The gateway's records of the order's attempts, in order, up to the first it does not know.
 * Attempts the shop already knows to have ended cost no lookup; `complete` is false when the
 * request's lookups ran out first.
 */
async function attemptsOf(
  client: GatewayClient,
  orders: OrderStore,
  order: Order,
): Promise<{ attempts: Listed[]; complete: boolean }> {
  const known = new Map<string, OrderPayment>(
    (await orders.paymentsOf(order.id)).map((p) => [p.merchantReference, p]),
  );
  const attempts: Listed[] = [];
  let lookups = 0;
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    const merchantReference = attemptReference(order, n);
    const mine = known.get(merchantReference);
    if (mine?.status === 'failed' && mine.gatewayStatus) {
      attempts.push({ ...mine, status: mine.gatewayStatus });
      continue;
    }
    if (lookups >= MAX_LOOKUPS_PER_REQUEST) return { attempts, complete: false };
    lookups += 1;
    const found = await client.reconcile(merchantReference);
    if (!found.found) break;
    const record = found.record;
    attempts.push(record);
    if (record.amount > 0) {
      await orders.recordPayment({
        reference: record.reference,
        orderId: order.id,
        merchantReference,
        amount: record.amount,
        currency: record.currency,
        status: paymentStatusOf(record),
        gatewayStatus: record.status,
      });
    }
  }
  return { attempts, complete: true };
}

/**
 * A second charge of a paid order (the EFT page left open, paid after the card paid), refunded
 * through the gateway. The shop may not know it yet (EFT sends no webhook): attempts it has not seen
 * end are looked up, at most a few per request, when `lookups` allows.
 */
async function secondChargeOf(
  client: GatewayClient,
  orders: OrderStore,
  order: Order & { paid: NonNullable<Order['paid']> },
  lookups: boolean,
  log: (line: string) => void,
): Promise<SecondPayment | undefined> {
  const known = await orders.paymentsOf(order.id);
  const other = (p: OrderPayment) =>
    p.reference !== order.paid.reference && (p.status === 'paid' || p.status === 'refunded');
  let second = known.find(other);
  const byAttempt = new Map(known.map((p) => [p.merchantReference, p]));
  for (let n = 1, asked = 0; !second && lookups && n <= MAX_ATTEMPTS; n++) {
    const merchantReference = attemptReference(order, n);
    const mine = byAttempt.get(merchantReference);
    if (mine && (mine.status !== 'pending' || mine.reference === order.paid.reference)) continue;
    if (asked++ >= MAX_LOOKUPS_PER_REQUEST) break;
    const found = await client.reconcile(merchantReference);
    if (!found.found) break;
    const { record } = found;
    if (record.amount <= 0) continue;
    const payment: OrderPayment = {
      reference: record.reference,
      orderId: order.id,
      merchantReference,
      amount: record.amount,
      currency: record.currency,
      status: paymentStatusOf(record),
      gatewayStatus: record.status,
    };
    await orders.recordPayment(payment);
    if (other(payment)) second = payment;
  }
  if (!second) return undefined;
  log(
    `[shop] WARN ${order.reference} was already paid by ${order.paid.reference}; ${second.reference} is a second charge: refunding it`,
  );
  return refundSecondPayment(client, orders, second, log);
}

/**
 * GET /api/payment-result: how the shopper's payment ended, for the page the hosted page, redirect
 * and EFT return to. The return URL's outcome is the shopper's to edit, and the sandbox appends no
 * reference to it, so the shop looks at the shopper's own order (the session cookie): an order the
 * shop knows is paid answers from its database; otherwise the gateway is asked for the order's
 * attempts (`${order}-n`), a few lookups per request and a limited number of requests per network,
 * and a paid attempt it finds marks the order paid. A stranger's reference in a URL tells nothing.
 */
export function paymentResultRoute(deps: {
  client: GatewayClient;
  orders: OrderStore;
  sessions: ShopperSessions;
  /** Requests that may ask the gateway, per client network and overall. */
  limit: WindowLimit;
  log: (line: string) => void;
}) {
  const { client, orders, sessions, limit, log } = deps;
  return async (req: Request, res: Response): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store');
    const session = sessions.of(req);
    const order = session ? await orders.current(session) : undefined;
    if (!order) {
      res.json({ state: 'not-found' } satisfies PaymentResult);
      return;
    }
    if (order.status === 'refunded') {
      res.json({ state: 'refunded' } satisfies PaymentResult);
      return;
    }
    if (order.status === 'changed' && order.paid) {
      res.json(changedResult(order));
      return;
    }
    if (order.paid) {
      const lookups = limit.take(networkOf(req.ip ?? req.socket.remoteAddress)).ok;
      let second: SecondPayment | undefined;
      try {
        second = await secondChargeOf(client, orders, { ...order, paid: order.paid }, lookups, log);
      } catch (err) {
        log(
          `[shop] WARN second-payment check for ${order.reference} failed (${(err as Error).name})`,
        );
      }
      res.json({
        state: 'paid',
        amount: order.paid.amount,
        currency: order.paid.currency,
        ...(second ? { second } : {}),
      } satisfies PaymentResult);
      return;
    }
    if (!limit.take(networkOf(req.ip ?? req.socket.remoteAddress)).ok) {
      // The page asks again in a moment; the gateway is not asked past the limit.
      res.json({ state: 'checking' } satisfies PaymentResult);
      return;
    }
    try {
      const { attempts, complete } = await attemptsOf(client, orders, order);
      const result = resultOf(attempts.filter((t) => t.amount > 0));
      if (result.state === 'paid') {
        const paid = attempts.find((t) => PAID.has(t.status) && !t.pending) as Listed & {
          reference: string;
        };
        const outcome = await orders.markPaid(order.id, {
          reference: paid.reference,
          amount: paid.amount,
          currency: paid.currency,
        });
        if (outcome === 'paid') log(`[shop] ${order.reference} paid by ${paid.reference} (lookup)`);
        // Whoever marked it (this lookup, or a hook at the same moment), the order now says.
        const now = await orders.byId(order.id);
        if (now?.status === 'changed' && now.paid) {
          if (outcome === 'changed')
            log(`[shop] WARN ${order.reference} ${chargedForOther(now)} (lookup)`);
          res.json(changedResult(now));
          return;
        }
        // Two attempts found paid: the one that did not pay the order goes back (no more lookups).
        const second =
          now?.paid &&
          (await secondChargeOf(client, orders, { ...now, paid: now.paid }, false, log));
        if (second && now?.paid) {
          const { amount, currency } = now.paid;
          res.json({ state: 'paid', amount, currency, second } satisfies PaymentResult);
          return;
        }
      }
      res.json(complete || result.state === 'paid' ? result : ({ state: 'checking' } as const));
    } catch (err) {
      // The gateway could not be asked: the page keeps saying it is checking.
      log(
        `[shop] WARN payment result for ${order.reference}: gateway lookup failed (${(err as Error).name})`,
      );
      res.json({ state: 'checking' } satisfies PaymentResult);
    }
  };
}
