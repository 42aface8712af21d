import express, { type Router } from 'express';
import type { CheckoutRouter } from '@pg-checkout/express';
import type { GatewayClient } from '@pg-checkout/node';
import type { MetricsHistory } from '../platform/metrics/metrics-history.js';
import type { OrderStore } from '../shop/orders.js';
import type { adminAuth } from './admin-auth.js';
import type { BackOfficeActions } from './actions.js';
import { executePayment } from './execute.js';
import { showOverview } from './overview.js';
import { refundPayment } from './refund.js';

export interface AdminDeps {
  client: GatewayClient;
  auth: ReturnType<typeof adminAuth>;
  orders: OrderStore;
  actions: BackOfficeActions;
  /** The checkout's refund use case: once per form key, what is left from the gateway's records. */
  refunds: Pick<CheckoutRouter, 'refund' | 'refundable'>;
  /** The checkout's metrics over the last hour, drawn above the lists. */
  history?: MetricsHistory;
}

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
