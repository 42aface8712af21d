/**
 * The app under test in its own process: `APP_MODE=express` mounts createCheckout; `APP_MODE=bare`
 * is the floor, a plain node:http route sending the same payment straight from GatewayClient;
 * `APP_MODE=express-route` is that same route in an Express app (what Express itself costs).
 * Create bodies are tapped on the wire so the soak can reconcile every attempt afterwards.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { GatewayClient } from '@pg-checkout/node';
import { createCheckout, MemoryStore } from '@pg-checkout/express';
import { serveCommands } from './serve.js';
import { telemetryFor, type TelemetryMode } from './telemetry-setup.js';

export const PAGE_ORIGIN = 'https://shop.test';
export const AMOUNT = 10_000;

const mode = process.env.APP_MODE ?? 'express';
const sandboxUrl = process.env.SANDBOX_URL!;
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS ?? 30_000);

// Order reference -> merchant references of every create sent for it (attempts).
const attempts = new Map<string, string[]>();
const tapped: typeof fetch = (input, init) => {
  if (typeof init?.body === 'string' && String(input).endsWith('/payment/create')) {
    const reference = (JSON.parse(init.body) as { transaction?: { reference?: string } })
      .transaction?.reference;
    if (reference) {
      const order = reference.slice(0, reference.lastIndexOf('-'));
      attempts.set(order, [...(attempts.get(order) ?? []), reference]);
    }
  }
  return fetch(input, init);
};

const client = new GatewayClient({
  token: process.env.PG_TOKEN!,
  secret: process.env.PG_SECRET!,
  baseUrl: sandboxUrl,
  timeoutMs,
  fetch: tapped,
});

let counter = 0;
const orderOf = (header: string | string[] | undefined) =>
  typeof header === 'string' && header ? header : `bench-${process.pid}-${++counter}`;

// The soak moves this clock past every TTL before it measures, so heap growth shows leaks, not
// records the store keeps by design until they expire.
let storeClockOffset = 0;
const store = new MemoryStore({ now: () => Date.now() + storeClockOffset });
let server: Server;

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  return new Promise((resolve) => {
    const s = createServer(handler);
    s.keepAliveTimeout = 30_000;
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

if (mode === 'express') {
  const app = express();
  const mounted: { router?: express.Router } = {};
  app.use('/checkout', (req, res, next) => mounted.router!(req, res, next));
  server = await listen(app);
  mounted.router = createCheckout({
    gateway: client,
    webhookSecret: process.env.PG_SECRET!,
    publicUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout`,
    allowedOrigins: [PAGE_ORIGIN],
    rateLimit: false,
    store,
    resolveOrder: (req) => ({
      amount: AMOUNT,
      currency: 'ZAR',
      reference: orderOf(req.headers['x-order']),
    }),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    // BENCH_HOOKS=1: a merchant's onPaymentCompleted (a no-op), so its delivery is counted too.
    ...(process.env.BENCH_HOOKS === '1' ? { onPaymentCompleted: async () => undefined } : {}),
    ...(process.env.TELEMETRY
      ? { telemetry: await telemetryFor(process.env.TELEMETRY as TelemetryMode) }
      : {}),
    ...(process.env.RECONCILE_GRACE_MS
      ? { reconcileGraceMs: Number(process.env.RECONCILE_GRACE_MS) }
      : {}),
  });
} else if (mode === 'express-route' || mode === 'express-same-calls') {
  const app = express();
  // express.json as a merchant would use it; the handler reads req.body instead of the stream.
  // express-same-calls: the gateway calls createCheckout makes for a new order, reconcile then create.
  const lookupFirst = mode === 'express-same-calls';
  app.post('/checkout/payments', express.json(), (req, res) => {
    void createDirect(
      req.body,
      req.headers['x-order'],
      req.socket.remoteAddress ?? '',
      lookupFirst,
    ).then(([status, body]) => res.status(status).json(body));
  });
  server = await listen(app);
} else {
  server = await listen(bare);
}

/** The payment the floor sends: parse nothing more, check nothing, create, answer. */
async function createDirect(
  body: { card: never; screenWidth: number; screenHeight: number },
  orderHeader: string | string[] | undefined,
  clientIp: string,
  lookupFirst = false,
): Promise<[number, unknown]> {
  try {
    const order = orderOf(orderHeader);
    const port = (server.address() as AddressInfo).port;
    if (lookupFirst) await client.reconcile(`${order}-1`);
    const outcome = await client.payments.create({
      creditCard: body.card,
      transaction: {
        reference: `${order}-${randomBytes(6).toString('hex')}`,
        currency: 'ZAR',
        amount: AMOUNT,
      },
      autoExecute: true,
      supports3dsV2: true,
      callbackUrl: `http://127.0.0.1:${port}/checkout/3ds/${randomBytes(24).toString('base64url')}/callback`,
      clientIp,
      screenWidth: String(body.screenWidth),
      screenHeight: String(body.screenHeight),
    });
    return [
      200,
      {
        success: true,
        status: outcome.kind === 'approved' ? 'approved' : 'authenticating',
        reference: outcome.reference,
      },
    ];
  } catch (error) {
    return [502, { success: false, message: error instanceof Error ? error.name : 'error' }];
  }
}

/** The floor: parse, create, answer; the least a server must do to take a card payment. */
async function bare(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method !== 'POST' || req.url !== '/checkout/payments')
    return send(404, { success: false });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return send(400, { success: false });
  }
  const [status, answer] = await createDirect(
    body,
    req.headers['x-order'],
    req.socket.remoteAddress ?? '',
  );
  send(status, answer);
}

serveCommands(
  { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout` },
  {
    attempts: () => Object.fromEntries(attempts),
    storeSize: () => store.size,
    expireStore: () => {
      storeClockOffset += 25 * 60 * 60_000;
      return store.size;
    },
  },
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
