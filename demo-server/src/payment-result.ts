import type { Request, Response } from 'express';
import type { GatewayClient } from '@pg-checkout/node';
import { existingCart, orderReference } from './cart.js';

/** What the result page may tell the shopper, decided by the gateway's records of the order. */
export type PaymentResult =
  | { state: 'paid'; amount: number; currency: string }
  | { state: 'refunded' }
  | { state: 'not-charged'; status: 'CANCELLED' | 'FAILED' | 'REVERSED' }
  | { state: 'checking' }
  | { state: 'not-found' };

interface Listed {
  amount: number;
  currency: string;
  status: string;
  pending?: boolean | null;
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

/** Attempts looked up per order at most; the middleware numbers them `${order}-1`, `-2`, … */
const MAX_ATTEMPTS = 20;

/** The gateway's records of the order's attempts, in order, up to the first it does not know. */
async function attemptsOf(client: GatewayClient, order: string): Promise<Listed[]> {
  const attempts: Listed[] = [];
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    const found = await client.reconcile(`${order}-${n}`);
    if (!found.found) break;
    attempts.push(found.record);
  }
  return attempts;
}

/**
 * GET /api/payment-result: how the shopper's payment ended, for the page the hosted page, redirect
 * and EFT return to. The return URL's outcome is the shopper's to edit, and the sandbox appends no
 * reference to it, so the shop looks the payment up by the shopper's own order (the cart cookie):
 * attempt n of an order has the merchant reference `${order}-n`. A stranger's reference in a URL
 * tells nothing.
 */
export function paymentResultRoute(client: GatewayClient, log: (line: string) => void) {
  return async (req: Request, res: Response): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store');
    const cart = existingCart(req);
    if (!cart) {
      res.json({ state: 'not-found' } satisfies PaymentResult);
      return;
    }
    const order = orderReference(cart.id);
    try {
      res.json(resultOf((await attemptsOf(client, order)).filter((t) => t.amount > 0)));
    } catch (err) {
      // The gateway could not be asked: the page keeps saying it is checking.
      log(
        `[shop] WARN payment result for ${order}: gateway lookup failed (${(err as Error).name})`,
      );
      res.json({ state: 'checking' } satisfies PaymentResult);
    }
  };
}
