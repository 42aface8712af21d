/**
 * The merchant's own names that the READMEs' code uses without defining them (their shop, not ours),
 * declared once for the README code test (readme-code.test.ts). Everything else a block uses it must
 * import or define itself.
 */
import type { Express, Request } from 'express';
import type { CheckoutOptions } from '@pg-checkout/express';
import type { GatewayClient } from '@pg-checkout/node';

interface Cart {
  totalCents: number;
  orderId: string;
}

declare global {
  /** The shop's carts: the one of the shopper behind a request, if any. */
  const carts: { forSession(req: Request): Promise<Cart | undefined> };
  /** The shop's orders. */
  const orders: {
    /** Records which payment paid the order, with what the gateway charged. */
    markPaid(
      orderReference: string,
      payment: { reference: string; amount: number; currency: string },
    ): Promise<void>;
    noteFailure(orderReference: string, state: unknown): Promise<void>;
    /** Puts an order whose total changed after it was charged in front of the shop's staff. */
    flagForReview(
      orderReference: string,
      paymentReference: string,
      charged: { amount: number; currency: string },
      order: { amount: number; currency: string },
    ): Promise<void>;
  };
  /** The shop's sign-in: who is signed in behind a request (undefined: nobody). */
  const accounts: {
    signedInId(req: Request): string | undefined;
    isVerified(req: Request): boolean;
  };
  /** The options of the shop's `createCheckout({ … })` call (the quick start's); blocks that show one
   * option spread them: `createCheckout({ ...checkoutOptions, store })`. */
  const checkoutOptions: CheckoutOptions;
  /** The shop's own SQL database (node-postgres style). */
  const db: { query(sql: string, params?: unknown[]): Promise<unknown> };
  /** The shop's Express application. */
  const app: Express;
  /** The merchant's gateway client (the node README's quick start builds it). */
  const client: GatewayClient;
  /** The merchant's gateway credentials. */
  const token: string;
  const secret: string;
  /** The shopper's IP address as the merchant's server sees it. */
  const shopperIp: string;
  /** A request body the merchant's server received. */
  const body: unknown;
  /** The merchant's fulfilment of a paid order. */
  function fulfil(orderReference: string, amountCents: number): Promise<void>;
  /** Client-side navigation of the merchant's app (React Router's navigate, Vue Router's router.push, …). */
  function navigate(path: string): void;
  function go(path: string): void;
  const router: { push(path: string): void };
  /** Shows a message to the shopper. */
  function show(message: string): void;
}
