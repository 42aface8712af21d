import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import express, { type Router } from 'express';
import type { CheckoutLogger, CheckoutRouter } from '@pg-checkout/express';
import type { GatewayClient } from '@pg-checkout/node';
import { adminAuth } from './back-office/admin-auth.js';
import { adminRouter } from './back-office/admin.js';
import { BackOfficeActions } from './back-office/actions.js';
import type { DemoConfig } from './platform/config.js';
import { openDatabase, type Database, type DatabaseConfig } from './platform/database/db.js';
import { connectGateway, type ConnectedGateway } from './platform/gateway.js';
import { cspMiddleware } from './platform/http/csp.js';
import { answerTheRest, baseApp, closeServer, listen, serveFiles } from './platform/http/server.js';
import { demoLog } from './platform/log.js';
import {
  createDemoMetrics,
  type DemoMetrics,
  type MetricsAccess,
} from './platform/metrics/metrics.js';
import { cartRoutes } from './shop/cart.js';
import { mountCheckout } from './shop/checkout.js';
import { shopPages } from './shop/pages/routes.js';
import { paymentResultRoute } from './shop/payment-result.js';
import { openShop, type Shop } from './shop/shop.js';

export interface DemoOptions extends Omit<DemoConfig, 'database' | 'metrics'> {
  /** Where the orders are kept, or a database already open (tests wrap one to make it fail). */
  database: DatabaseConfig | Database;
  /** Where the servers' log lines go (the e2e tests collect them to scan for card data). */
  log?: ((line: string) => void) | undefined;
  /** `/metrics` for Prometheus (see DemoConfig); default off. */
  metrics?: MetricsAccess | undefined;
  /** How often the back office's charts sample the metrics. Default a minute. */
  metricsSampleMs?: number | undefined;
  /**
   * The pages and the elements' files being built while the shop starts (`npm start`): requests wait
   * for them instead of meeting a page that is not there yet. Unset: they are built already.
   */
  assetsReady?: Promise<void> | undefined;
}

export interface RunningDemo {
  url: string;
  /** The in-process sandbox's base URL, when no real gateway is configured. */
  sandboxUrl?: string | undefined;
  /** The in-process sandbox's profile, when no real gateway is configured. */
  sandboxProfile?: 'default' | 'strict' | undefined;
  client: GatewayClient;
  /** The back office's password: ADMIN_PASSWORD, or generated at start when that is unset. */
  adminPassword: string;
  adminPasswordGenerated: boolean;
  /** Where the orders are kept: a PGlite folder, or the PostgreSQL of DATABASE_URL (no password). */
  database: { kind: Database['kind']; where: string };
  close(): Promise<void>;
}

/** Starts the shop (and the sandbox unless a real gateway is configured). */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { log, logger } = demoLog(options.log);
  const db = 'query' in options.database ? options.database : await openDatabase(options.database);
  try {
    return await startWith(db, options, log, logger);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
}

/**
 * The shop from the bottom up: its orders and sessions, the gateway, the metrics and the port; then
 * what answers requests, in the order Express tries them: the checkout, the shop's JSON API, the
 * pages (the shop's and the back office's), the built files, and a page for anything else.
 */
async function startWith(
  db: Database,
  options: DemoOptions,
  log: (line: string) => void,
  logger: CheckoutLogger,
): Promise<RunningDemo> {
  const shop = await openShop(db, options.rateLimitPerIp);
  const gateway = await connectGateway(options, log);
  // The checkout's metrics: the back office's charts always, Prometheus's /metrics when configured.
  const metrics = createDemoMetrics(options.metrics ?? false, options.metricsSampleMs);
  const server = createServer();
  const port = await listen(server, options.port, options.host).catch(async (error: unknown) => {
    await metrics.close();
    throw error;
  });
  const origin = options.publicUrl?.replace(/\/$/, '') ?? `http://localhost:${port}`;
  const adminPassword = options.adminPassword ?? randomBytes(12).toString('base64url');

  const app = baseApp(options);
  const checkout = mountCheckout(app, {
    shop,
    gateway,
    origin,
    rateLimitPerIp: options.rateLimitPerIp,
    log,
    logger,
    meterProvider: metrics.meterProvider,
  });
  app.use(cartRoutes(shop));
  app.get(
    '/api/payment-result',
    paymentResultRoute({
      client: gateway.client,
      orders: shop.orders,
      sessions: shop.sessions,
      limit: shop.resultLookups,
      log,
    }),
  );
  if (metrics.route) app.get('/metrics', metrics.route);
  app.use(pages({ db, shop, gateway, origin, checkout, adminPassword, metrics }));
  serveFiles(app);
  answerTheRest(app, log);
  server.on('request', app);

  return {
    url: origin,
    sandboxUrl: gateway.sandbox?.url,
    sandboxProfile: gateway.sandbox?.profile,
    client: gateway.client,
    adminPassword,
    adminPasswordGenerated: options.adminPassword === undefined,
    database: { kind: db.kind, where: db.where },
    async close() {
      await closeServer(server);
      try {
        await metrics.close();
        await gateway.sandbox?.close();
      } finally {
        // PGlite's folder lock and the pool's sockets: left open, the process would not exit.
        await db.close();
      }
    },
  };
}

/**
 * The pages, each with a fresh nonce and the payment page's headers (CSP): the shop's, and the
 * back office behind its sign-in on /admin.
 */
function pages(deps: {
  db: Database;
  shop: Shop;
  gateway: ConnectedGateway;
  origin: string;
  checkout: CheckoutRouter;
  adminPassword: string;
  metrics: DemoMetrics;
}): Router {
  const router = express.Router();
  router.use(cspMiddleware(deps.gateway.origin, new URL(deps.origin).origin));
  router.use(shopPages(deps));
  router.use(
    '/admin',
    adminRouter({
      client: deps.gateway.client,
      auth: adminAuth(deps.adminPassword),
      orders: deps.shop.orders,
      actions: new BackOfficeActions(deps.db),
      refunds: deps.checkout,
      history: deps.metrics.history,
    }),
  );
  return router;
}
