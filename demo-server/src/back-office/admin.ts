import express, { type Router } from 'express';
import type { AdminDeps } from './deps.js';
import { executePayment } from './execute.js';
import { showOverview } from './overview.js';
import { refundPayment } from './refund.js';

/**
 * A small back office behind a sign-in: the shop's orders, the gateway's transaction list, execute
 * for authorized payments, full and partial refunds (a refund that goes manual shows as pending),
 * and the webhooks received. Every form carries its own idempotency key: a form sent twice (a
 * double click, a retried post) asks the gateway once; a refund form's key is the checkout's
 * refund key, kept beside the refund's slot reference at the gateway (`<payment>~r<i>`).
 */
export function adminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  router.use(deps.auth.routes, deps.auth.requireSession, deps.auth.requireCsrf);
  router.get('/', showOverview(deps));
  router.post('/payments/:reference/execute', executePayment(deps));
  router.post('/payments/:reference/refund', refundPayment(deps));
  return router;
}
