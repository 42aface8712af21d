import express, { type Router } from 'express';
import { createContext } from './internal/context.js';
import { errorHandler } from './internal/error-handler.js';
import { cardRoutes } from './internal/routes/cards.js';
import { paymentRoutes } from './internal/routes/payments.js';
import { redirectRoutes } from './internal/routes/redirects.js';
import { threeDSRoutes } from './internal/routes/three-ds.js';
import { webhookRoutes } from './internal/routes/webhooks.js';
import { CheckoutError } from './errors.js';
import { validateOptions } from './internal/validate-options.js';
import type { CheckoutOptions } from './options.js';

/**
 * The Express router the pg-checkout components talk to: `app.use('/checkout', createCheckout(options))`.
 * Options are validated here, once; a mistake throws a TypeError that names it.
 */
export function createCheckout(options: CheckoutOptions): Router {
  const ctx = createContext(validateOptions(options));
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    next();
  });
  // Busiest first: a request walks the routers in order until one answers (no paths overlap).
  router.use(paymentRoutes(ctx));
  router.use(threeDSRoutes(ctx));
  router.use(redirectRoutes(ctx));
  router.use(cardRoutes(ctx));
  router.use(webhookRoutes(ctx));
  router.use((_req, _res, next) =>
    next(new CheckoutError(404, 'not_found', 'No such checkout route.')),
  );
  router.use(errorHandler(ctx));
  return router;
}
