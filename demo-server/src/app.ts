import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type Response } from 'express';
import {
  CheckoutError,
  createCheckout,
  formNotice,
  type CheckoutLogger,
  type PaymentEvent,
  type ResolveOrderContext,
} from '@pg-checkout/express';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox } from '@pg-checkout/sandbox';
import { adminRouter } from './back-office/admin.js';
import { adminAuth } from './back-office/admin-auth.js';
import { BackOfficeActions } from './back-office/actions.js';
import { elementsDist, repoRoot, webDist } from './platform/build.js';
import type { DemoConfig } from './platform/config.js';
import { ShopperSessions } from './platform/http/cookies.js';
import { withRenderedCheckout } from './shop/pages/checkout-ssr.js';
import { compressedStatic, compressSent } from './platform/http/compress.js';
import { withCriticalCss } from './shop/pages/critical-css.js';
import { cspMiddleware, withNonce } from './platform/http/csp.js';
import { openDatabase, type Database, type DatabaseConfig } from './platform/database/db.js';
import { errorHandler } from './platform/http/errors.js';
import { describeMeta, safeLine } from './platform/log.js';
import { escapeHtml, formatAmount, page } from './platform/html.js';
import { networkOf, WindowLimit } from './platform/http/limits.js';
import { handlePaymentWebhook } from './shop/notifications.js';
import {
  amountIn,
  cartLines,
  cartTotal,
  chargedForOther,
  CURRENCY,
  MAX_QUANTITY,
  OrderStore,
  PRODUCT,
  sameLines,
  type Order,
  type OrderPayment,
} from './shop/orders.js';
import { scriptTagPage, testCardsPage } from './shop/pages/pages.js';
import { createDemoMetrics, type MetricsAccess } from './platform/metrics/metrics.js';
import { paymentResultRoute } from './shop/payment-result.js';
import { refundSecondPayment } from './shop/second-payment.js';
import { webhookLog } from './shop/webhook-log.js';
import { pageReportLog } from './shop/page-report-log.js';

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

/**
 * The order an anonymous visitor sees before acting (GET {mount}/config shows its amount). It is
 * no row and never paid: every route that pays makes the shopper's own order first.
 */
const PREVIEW_REFERENCE = 'order-preview';

/** What GET and PUT /api/cart answer. */
function cartView(order: Order | undefined) {
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

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts the shop (and the sandbox unless a real gateway is configured). */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const write = options.log ?? ((line: string) => console.log(line));
  // Every line the demo writes passes here: card-number-like text is masked, bodies never printed.
  const log = (line: string) => write(safeLine(line));
  const line = (level: string, msg: string, meta?: unknown) =>
    log(`[checkout] ${level}${msg}${meta ? ' ' + describeMeta(meta) : ''}`);
  const logger: CheckoutLogger = {
    info: (msg, meta) => line('', msg, meta),
    warn: (msg, meta) => line('WARN ', msg, meta),
    error: (msg, meta) => line('ERROR ', msg, meta),
  };

  const db = 'query' in options.database ? options.database : await openDatabase(options.database);
  try {
    return await startWith(db, options, log, logger);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
}

async function startWith(
  db: Database,
  options: DemoOptions,
  log: (line: string) => void,
  logger: CheckoutLogger,
): Promise<RunningDemo> {
  const orders = new OrderStore(db);
  const sessions = await ShopperSessions.open(db);
  const actions = new BackOfficeActions(db);
  // Orders an anonymous client may start per minute (its network, and everyone together): rows
  // appear only when a shopper acts, and never faster than this. RATE_LIMIT_PER_IP raises it.
  const orderLimit =
    options.rateLimitPerIp === false ? Infinity : Math.max(30, options.rateLimitPerIp ?? 30);
  const newOrders = new WindowLimit({
    windowMs: 60_000,
    perKey: orderLimit,
    global: orderLimit * 20,
  });
  // Result-page requests that may ask the gateway, per network and overall.
  const resultLookups = new WindowLimit({ windowMs: 60_000, perKey: 60, global: 600 });

  /** The shopper's session: the signed cookie, or the one this response is about to set. */
  const sessionOf = (req: Request): string | undefined =>
    sessions.of(req) ?? (req.res?.locals as { newSession?: string } | undefined)?.newSession;
  const mayStartOrder = (req: Request): boolean =>
    newOrders.take(networkOf(req.ip ?? req.socket.remoteAddress)).ok;

  const sandbox = options.gateway
    ? undefined
    : await createSandbox({
        port: options.sandboxPort,
        host: options.host,
        profile: options.sandboxProfile ?? 'default',
        logger: {
          info: (l: string) => log(`[sandbox] ${l}`),
          warn: (l: string) => log(`[sandbox] WARN ${l}`),
        },
      });
  const credentials = options.gateway ?? {
    baseUrl: sandbox!.url,
    token: sandbox!.token,
    secret: sandbox!.secret,
  };
  const client = new GatewayClient(credentials);
  const gatewayOrigin = new URL(credentials.baseUrl).origin;

  // The checkout's metrics: the back office's charts always, Prometheus's /metrics when configured.
  const metrics = createDemoMetrics(options.metrics ?? false, options.metricsSampleMs);
  const server = createServer();
  const port = await listen(server, options.port, options.host).catch(async (error: unknown) => {
    await metrics.close();
    throw error;
  });
  const origin = options.publicUrl?.replace(/\/$/, '') ?? `http://localhost:${port}`;
  const adminPassword = options.adminPassword ?? randomBytes(12).toString('base64url');

  const app = express();
  app.disable('x-powered-by');
  // Which hops may say the client's address and scheme (req.ip, req.secure and so Secure cookies).
  app.set('trust proxy', options.trustProxy);
  // Started while the pages build: a request waits for them (a second or two) rather than failing.
  const { assetsReady } = options;
  if (assetsReady)
    app.use((_req, _res, next) => {
      assetsReady.then(
        () => next(),
        (error: unknown) => next(error),
      );
    });
  // Pages and the shop's JSON leave compressed when the browser asks (files: compressedStatic below).
  app.use(compressSent());

  // Records every webhook the gateway sends and whether the middleware accepted it.
  app.use('/checkout/webhooks', (req, res, next) => {
    res.on('finish', () => {
      if (res.statusCode >= 400 && res.statusCode < 500) {
        webhookLog.add({
          receivedAt: new Date(),
          kind: req.path.includes('payout') ? 'payout' : 'payment',
          verified: false,
          reason: `answered ${res.statusCode}`,
        });
      }
    });
    next();
  });

  /**
   * The shopper's order. Reads (GET {mount}/config) see the current order or, with none, a preview
   * that writes nothing; a route that pays makes the order first (the shopper acted), under the
   * new-order limit. The hosted page charges the total in USD: the checkout says which method pays.
   */
  const resolveOrder = async (req: Request, { method }: ResolveOrderContext) => {
    const session = sessionOf(req);
    let order = session ? await orders.current(session) : undefined;
    // A read writes nothing (HTTP's safe methods); a POST is the shopper acting.
    const pays = req.method !== 'GET' && req.method !== 'HEAD';
    if (pays && (!order || order.status === 'refunded')) {
      if (!mayStartOrder(req))
        throw new CheckoutError(
          429,
          'rate_limited',
          'Too many new orders from your network. Wait a minute and try again.',
          { 'Retry-After': '60' },
        );
      order = (await orders.ensure(sessions.ensure(req, req.res!), cartLines(1))).order;
    }
    const amount = order?.total ?? cartTotal(cartLines(1));
    const currency = method === 'hosted' ? 'USD' : CURRENCY;
    return {
      amount: amountIn(amount, currency)!,
      currency,
      reference: order?.reference ?? PREVIEW_REFERENCE,
      consumer: {
        name: 'Thandi',
        surname: 'Nkosi',
        email: 'thandi@example.com',
        consumerAddress: {
          addressLineOne: '1 Long Street',
          city: 'Cape Town',
          postCode: '8001',
          country: 'ZA',
        },
      },
    };
  };

  /** The middleware's hooks: the gateway decided a payment of one of the shop's orders. */
  const recordPayment = async (e: PaymentEvent, status: OrderPayment['status']) => {
    log(
      `[shop] payment ${e.reference} ${status === 'paid' ? 'completed' : status} (${e.merchantReference})`,
    );
    const order = await orders.byReference(e.orderReference);
    if (!order) {
      log(
        `[shop] WARN payment ${e.reference} is for ${e.orderReference}, which is no order of this shop`,
      );
      return;
    }
    await orders.recordPayment({
      reference: e.reference,
      orderId: order.id,
      merchantReference: e.merchantReference,
      amount: e.amount,
      currency: e.currency,
      status,
    });
    if (status !== 'paid') return;
    const outcome = await orders.markPaid(order.id, {
      reference: e.reference,
      amount: e.amount,
      currency: e.currency,
    });
    if (outcome === 'changed')
      log(`[shop] WARN ${order.reference} ${chargedForOther((await orders.byId(order.id))!)}`);
    if (outcome === 'second-payment') {
      log(
        `[shop] WARN ${order.reference} was already paid by ${order.paid?.reference}; ${e.reference} is a second charge to refund`,
      );
      const payment = (await orders.paymentsOf(order.id)).find((p) => p.reference === e.reference);
      if (payment) await refundSecondPayment(client, orders, payment, log);
    }
  };

  const checkout = createCheckout({
    gateway: client,
    webhookSecret: credentials.secret,
    publicUrl: `${origin}/checkout`,
    environment: 'development',
    resolveOrder,
    methods: ['card', 'hosted', 'eft', 'redirect'],
    // Authorize at checkout, capture from the back office when the order ships.
    autoExecute: false,
    redirectUrls: {
      success: `${origin}/result?outcome=success`,
      cancel: `${origin}/result?outcome=cancel`,
      error: `${origin}/result?outcome=error`,
    },
    ...(options.rateLimitPerIp === undefined
      ? {}
      : {
          rateLimit: options.rateLimitPerIp === false ? false : { perIp: options.rateLimitPerIp },
        }),
    // Saved cards belong to the browser session (a signed cookie), across its orders.
    savedCards: {
      shopperId: (req) => {
        const session = sessionOf(req);
        // Dashed like every id the shop makes: no long digit run reaches a log (ids.ts).
        return session ? `demo-${session.slice(0, 32).match(/.{8}/g)!.join('-')}` : undefined;
      },
    },
    logger,
    telemetry: { meterProvider: metrics.meterProvider },
    onPageIntegrityReport: (report) => pageReportLog.add(report),
    onPaymentCompleted: (e) => recordPayment(e, 'paid'),
    onPaymentFailed: (e) => recordPayment(e, 'failed'),
    onPaymentPending: (e) => recordPayment(e, 'pending'),
    onWebhook: async (event) => {
      if (event.type === 'payment') {
        // The hash covers the reference only: the gateway's record decides, and the order is the
        // one the shop recorded the payment for, or the verified order of its merchant reference.
        await handlePaymentWebhook(event, {
          orders,
          client,
          log,
          onSecondPayment: (payment) => refundSecondPayment(client, orders, payment, log),
        });
        return;
      }
      webhookLog.add({
        receivedAt: new Date(),
        kind: 'payout',
        verified: true,
        reference: String(event.payload.payoutId),
        amount: event.payload.totalAmount,
      });
      log(`[shop] webhook payout verified`);
    },
    // A refund made from the back office that the gateway completed: a payment refunded in full
    // (the gateway's record says REFUNDED) refunds its order. Idempotent, as hooks must be.
    onRefundCompleted: async (e) => {
      log(`[shop] refund ${e.merchantReference} of ${e.paymentReference} completed`);
      const order = await orders.byPayment(e.paymentReference);
      if (!order) return;
      const { payment } = await checkout.refundable(e.paymentReference);
      if (payment.status === 'REFUNDED' && (await orders.markRefunded(order.id, payment.reference)))
        log(`[shop] ${order.reference} refunded (${payment.reference})`);
    },
  });
  app.use('/checkout', checkout);

  // The demo's own JSON API: the cart (quantity only; the server owns the price).
  app.get('/api/cart', async (req, res) => {
    const session = sessions.of(req);
    res.setHeader('Cache-Control', 'no-store');
    res.json(cartView(session ? await orders.current(session) : undefined));
  });
  app.put('/api/cart', express.json({ limit: '1kb' }), async (req, res) => {
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

  app.get(
    '/api/payment-result',
    paymentResultRoute({ client, orders, sessions, limit: resultLookups, log }),
  );

  if (metrics.route) app.get('/metrics', metrics.route);

  const pages = express.Router();
  pages.use(cspMiddleware(gatewayOrigin, new URL(origin).origin));
  const built = (name: string) => readFileSync(join(webDist, name), 'utf8');
  // A page gives the browser its session cookie (signed, no row): saved cards and the order it
  // makes when the shopper acts belong to it.
  const sendBuilt = (name: string) => (req: Request, res: Response) => {
    sessions.ensure(req, res);
    res.type('html').send(withNonce(built(name), String(res.locals.nonce)));
  };
  // The checkout page carries its drop-in server-rendered, with the shopper's total on Pay.
  pages.get(['/', '/index.html'], async (req, res) => {
    const session = sessions.ensure(req, res);
    const cart = cartView(await orders.current(session));
    const payLabel = `Pay ${formatAmount(cart.amount, cart.currency)}`;
    // A real form: with no script (blocked, failed, not arrived) the card still pays by a form post.
    const { token } = await checkout.formToken(req, res);
    const declined = typeof req.query.pg_declined === 'string' ? req.query.pg_declined : undefined;
    const markup = withCriticalCss(
      await withRenderedCheckout(built('index.html'), payLabel, {
        token,
        notice: formNotice(declined),
      }),
    );
    res.type('html').send(withNonce(markup, String(res.locals.nonce)));
  });
  pages.get(['/esm', '/esm.html'], sendBuilt('esm.html'));
  // The result page says a paid order's result from the server too: a shopper whose payment needed no
  // script (the card form's post) may run none here either; until then it looks again by itself.
  pages.get(['/result', '/result.html'], async (req, res) => {
    const order = await orders.current(sessions.ensure(req, res));
    const shell = built('result.html');
    const paid = order?.status === 'paid' && order.paid;
    const markup = paid
      ? shell
          .replace(/(<h1 id="result-title">)[^<]*/, (_, open: string) => `${open}Thank you!`)
          .replace(
            /(<p id="result-detail" role="status">)/,
            (_, open: string) =>
              `${open}Your payment of ${escapeHtml(formatAmount(paid.amount, paid.currency))} went through. A confirmation follows by e-mail.`,
          )
      : shell.replace(
          '</head>',
          '<noscript><meta http-equiv="refresh" content="3"></noscript></head>',
        );
    res.type('html').send(withNonce(markup, String(res.locals.nonce)));
  });
  pages.get(['/script-tag', '/script-tag.html'], (req, res) => {
    sessions.ensure(req, res);
    res.type('html').send(scriptTagPage(String(res.locals.nonce)));
  });
  pages.get('/test-cards', (_req, res) =>
    res.type('html').send(testCardsPage(String(res.locals.nonce))),
  );
  pages.use(
    '/admin',
    adminRouter({
      client,
      auth: adminAuth(adminPassword),
      orders,
      actions,
      refunds: checkout,
      history: metrics.history,
    }),
  );
  app.use(pages);

  // Vite's names carry a content hash: cached for a year. The elements' and shop.css's names do not.
  app.use('/assets', compressedStatic(join(webDist, 'assets'), { immutable: true }));
  const shopStyle = compressedStatic(join(repoRoot, 'demo-server/web/src'), { immutable: false });
  app.get('/shop.css', shopStyle);
  app.use('/elements', compressedStatic(elementsDist, { immutable: false }));
  app.use('/elements', express.static(elementsDist));
  app.get('/favicon.ico', (_req, res) => res.status(204).end());

  app.use((_req, res) => {
    res
      .status(404)
      .type('html')
      .send(
        page({
          title: 'Not found',
          nonce: '',
          body: `<h1>Not found</h1><p><a href="/">Back to the shop</a></p>`,
        }),
      );
  });
  app.use(errorHandler(log));

  server.on('request', app);

  return {
    url: origin,
    sandboxUrl: sandbox?.url,
    sandboxProfile: sandbox?.profile,
    client,
    adminPassword,
    adminPasswordGenerated: options.adminPassword === undefined,
    database: { kind: db.kind, where: db.where },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      try {
        await metrics.close();
        await sandbox?.close();
      } finally {
        // PGlite's folder lock and the pool's sockets: left open, the process would not exit.
        await db.close();
      }
    },
  };
}
