import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request } from 'express';
import { createCheckout, type CheckoutLogger } from '@pg-checkout/express';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox } from '@pg-checkout/sandbox';
import { adminRouter } from './admin.js';
import { adminAuth } from './admin-auth.js';
import { elementsDist, repoRoot, webDist } from './build.js';
import { cartFor, cartTotal, MAX_QUANTITY, orderReference, PRODUCT, setQuantity } from './cart.js';
import type { DemoConfig } from './config.js';
import { cspMiddleware, withNonce } from './csp.js';
import { errorHandler } from './errors.js';
import { describeMeta, safeLine } from './log.js';
import { page } from './html.js';
import { recordPaymentNotification } from './notifications.js';
import { scriptTagPage, testCardsPage } from './pages.js';
import { paymentResultRoute } from './payment-result.js';
import { webhookLog } from './webhook-log.js';

export interface DemoOptions extends DemoConfig {
  /** Where the servers' log lines go (the e2e tests collect them to scan for card data). */
  log?: (line: string) => void;
}

export interface RunningDemo {
  url: string;
  /** The in-process sandbox's base URL, when no real gateway is configured. */
  sandboxUrl?: string;
  client: GatewayClient;
  /** The back office's password: ADMIN_PASSWORD, or generated at start when that is unset. */
  adminPassword: string;
  adminPasswordGenerated: boolean;
  close(): Promise<void>;
}

/** Exchange rate for the "other currency" option, which pays in USD on the hosted page. */
const ZAR_PER_USD = 18.5;

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

  const sandbox = options.gateway
    ? undefined
    : await createSandbox({
        port: options.sandboxPort,
        host: options.host,
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

  const server = createServer();
  const port = await listen(server, options.port, options.host);
  const origin = options.publicUrl?.replace(/\/$/, '') ?? `http://localhost:${port}`;
  const adminPassword = options.adminPassword ?? randomBytes(12).toString('base64url');

  const app = express();
  app.disable('x-powered-by');
  // Which hops may say the client's address and scheme (req.ip, req.secure and so Secure cookies).
  app.set('trust proxy', options.trustProxy);

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

  const resolveOrder = (req: Request) => {
    const cart = cartFor(req);
    const amount = cartTotal(cart.quantity);
    const hosted = req.path === '/hosted';
    return {
      amount: hosted ? Math.round(amount / ZAR_PER_USD) : amount,
      currency: hosted ? 'USD' : 'ZAR',
      reference: orderReference(cart.id),
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

  app.use(
    '/checkout',
    createCheckout({
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
      savedCards: { shopperId: (req) => `demo-${cartFor(req).id}` },
      logger,
      onPaymentCompleted: (e) =>
        log(`[shop] payment ${e.reference} completed (${e.merchantReference})`),
      onPaymentFailed: (e) => log(`[shop] payment ${e.reference} failed (${e.merchantReference})`),
      onPaymentPending: (e) =>
        log(`[shop] payment ${e.reference} pending (${e.merchantReference})`),
      onWebhook: async (event) => {
        if (event.type === 'payment') {
          // The hash proves little (it covers the reference only): the gateway's record decides.
          await recordPaymentNotification(client, event.payload, log);
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
    }),
  );

  // The demo's own JSON API: the cart (quantity only; the server owns the price).
  app.get('/api/cart', (req, res) => {
    const cart = cartFor(req, res);
    res.json({
      product: PRODUCT.name,
      quantity: cart.quantity,
      amount: cartTotal(cart.quantity),
      currency: 'ZAR',
    });
  });
  app.put('/api/cart', express.json({ limit: '1kb' }), (req, res) => {
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
    const cart = cartFor(req, res);
    setQuantity(cart.id, quantity as number);
    res.json({
      product: PRODUCT.name,
      quantity,
      amount: cartTotal(quantity as number),
      currency: 'ZAR',
    });
  });

  app.get('/api/payment-result', paymentResultRoute(client, log));

  const pages = express.Router();
  pages.use(cspMiddleware(gatewayOrigin, new URL(origin).origin));
  const built = (name: string) => readFileSync(join(webDist, name), 'utf8');
  const sendBuilt = (name: string) => (req: Request, res: express.Response) => {
    cartFor(req, res);
    res.type('html').send(withNonce(built(name), String(res.locals.nonce)));
  };
  pages.get(['/', '/index.html'], sendBuilt('index.html'));
  pages.get(['/esm', '/esm.html'], sendBuilt('esm.html'));
  pages.get(['/result', '/result.html'], sendBuilt('result.html'));
  pages.get(['/script-tag', '/script-tag.html'], (req, res) => {
    cartFor(req, res);
    res.type('html').send(scriptTagPage(String(res.locals.nonce)));
  });
  pages.get('/test-cards', (_req, res) =>
    res.type('html').send(testCardsPage(String(res.locals.nonce))),
  );
  pages.use('/admin', adminRouter(client, adminAuth(adminPassword)));
  app.use(pages);

  app.use('/assets', express.static(join(webDist, 'assets'), { immutable: true, maxAge: '1y' }));
  app.get('/shop.css', (_req, res) => res.sendFile(join(repoRoot, 'demo-server/web/src/shop.css')));
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
    client,
    adminPassword,
    adminPasswordGenerated: options.adminPassword === undefined,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox?.close();
    },
  };
}
