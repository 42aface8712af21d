import type { CheckoutRouter } from '@pg-checkout/express';
import type { GatewayClient } from '@pg-checkout/node';
import type { MetricsHistory } from '../platform/metrics/metrics-history.js';
import type { OrderStore } from '../shop/orders.js';
import type { adminAuth } from './admin-auth.js';
import type { BackOfficeActions } from './actions.js';

/** What the back office works with: the gateway, its door, the shop's orders and the checkout's refunds. */
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
