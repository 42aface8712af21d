import express, { type Router } from 'express';
import {
  cartLines,
  cartTotal,
  CURRENCY,
  MAX_QUANTITY,
  PRODUCT,
  sameLines,
  type Order,
} from './orders.js';
import type { Shop } from './shop.js';

/** What GET and PUT /api/cart answer. */
export function cartView(order: Order | undefined) {
  const lines = order?.lines ?? cartLines(1);
  return {
    product: PRODUCT.name,
    quantity: lines[0]?.quantity ?? 1,
    amount: order?.total ?? cartTotal(lines),
    currency: order?.currency ?? CURRENCY,
    /** open: the cart can change; paid, changed or refunded: it is frozen, and a change starts a new order. */
    status: order?.status ?? 'open',
    /** The order's reference once the shopper has one (only this browser's session sees it). */
    ...(order ? { order: order.reference } : {}),
  };
}

/** The demo's own JSON API: the cart (quantity only; the server owns the price). */
export function cartRoutes({ orders, sessions, mayStartOrder }: Shop): Router {
  const router = express.Router();
  router.get('/api/cart', async (req, res) => {
    const session = sessions.of(req);
    res.setHeader('Cache-Control', 'no-store');
    res.json(cartView(session ? await orders.current(session) : undefined));
  });
  router.put('/api/cart', express.json({ limit: '1kb' }), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const quantity = (req.body as { quantity?: unknown } | undefined)?.quantity;
    if (
      !Number.isInteger(quantity) ||
      (quantity as number) < 1 ||
      (quantity as number) > MAX_QUANTITY
    ) {
      res.status(400).json({
        success: false,
        message: `quantity must be a whole number from 1 to ${MAX_QUANTITY}`,
      });
      return;
    }
    const lines = cartLines(quantity as number);
    const known = sessions.of(req);
    const current = known ? await orders.current(known) : undefined;
    // A new order (no cart yet, or a change to a paid one) counts against the new-order limit.
    const starts = !current || (current.status !== 'open' && !sameLines(current.lines, lines));
    if (starts && !mayStartOrder(req)) {
      res.setHeader('Retry-After', '60');
      res.status(429).json({
        success: false,
        message: 'Too many new orders from your network. Wait a minute and try again.',
      });
      return;
    }
    const { order } = await orders.setCart(sessions.ensure(req, res), lines);
    res.json(cartView(order));
  });
  return router;
}
