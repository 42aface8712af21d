import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

/** The demo's one product: the server owns the price, the browser only picks a quantity. */
export const PRODUCT = { name: 'Karoo single-origin beans, 1 kg', unitAmount: 14_900 } as const;
export const MAX_QUANTITY = 3;

const COOKIE = 'demo_cart';
const carts = new Map<string, { quantity: number }>();

function cartId(req: Request): string | undefined {
  const header = req.headers.cookie ?? '';
  const match = /(?:^|;\s*)demo_cart=([A-Za-z0-9-]{36})/.exec(header);
  return match?.[1];
}

/** Returns the shopper's cart, creating one (and its cookie) on first sight. */
export function cartFor(req: Request, res?: Response): { id: string; quantity: number } {
  let id = cartId(req);
  if (!id || !carts.has(id)) {
    id = randomUUID();
    carts.set(id, { quantity: 1 });
    // Secure when the shopper came over https (req.secure believes only trusted proxies).
    res?.cookie(COOKIE, id, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure });
    // A demo keeps at most a few thousand carts in memory.
    if (carts.size > 5_000) carts.delete(carts.keys().next().value as string);
  }
  return { id, ...(carts.get(id) as { quantity: number }) };
}

/** The shopper's cart when the browser already has one; never creates one. */
export function existingCart(req: Request): { id: string; quantity: number } | undefined {
  const id = cartId(req);
  const cart = id ? carts.get(id) : undefined;
  return id && cart ? { id, ...cart } : undefined;
}

/** The order reference of a cart; the middleware's attempts are `${orderReference}-…`. */
export const orderReference = (cartId: string): string => `order-${cartId.slice(0, 8)}`;

export function setQuantity(id: string, quantity: number): void {
  carts.set(id, { quantity });
}

export function cartTotal(quantity: number): number {
  return PRODUCT.unitAmount * quantity;
}
