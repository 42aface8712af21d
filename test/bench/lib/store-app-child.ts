/**
 * createCheckout in its own process with the store the parent picks: `STORE=memory`,
 * `STORE=redis` (`REDIS_PORT`) or `STORE=cluster` (`CLUSTER_PORTS`, comma-separated), so the
 * route can be measured on each. Rate limits off, as in the overhead bench, unless `LIMITS=all`:
 * then every limit is on (per client, per shopper, the ceiling, declines per order, shopper and
 * client), set high enough never to refuse, and a shopper is signed in.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Cluster, Redis } from 'ioredis';
import { GatewayClient } from '@pg-checkout/node';
import { createCheckout, MemoryStore, RedisStore, type CheckoutStore } from '@pg-checkout/express';
import { serveCommands } from './serve.js';

const kind = process.env.STORE ?? 'memory';
const everyLimit = process.env.LIMITS === 'all';
let client: Redis | Cluster | undefined;
let store: CheckoutStore;
if (kind === 'redis') {
  client = new Redis({ host: '127.0.0.1', port: Number(process.env.REDIS_PORT) });
  store = new RedisStore({ client });
} else if (kind === 'cluster') {
  const ports = process.env.CLUSTER_PORTS!.split(',').map(Number);
  client = new Cluster(ports.map((port) => ({ host: '127.0.0.1', port })));
  store = new RedisStore({ client });
} else {
  store = new MemoryStore();
}

const app = express();
const mounted: { router?: express.Router } = {};
app.use('/checkout', (req, res, next) => mounted.router!(req, res, next));
const server = await new Promise<Server>((resolve) => {
  const s = app.listen(0, '127.0.0.1', () => resolve(s));
});
server.keepAliveTimeout = 30_000;
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout`;
let counter = 0;
mounted.router = createCheckout({
  gateway: new GatewayClient({
    token: process.env.PG_TOKEN!,
    secret: process.env.PG_SECRET!,
    baseUrl: process.env.SANDBOX_URL!,
    timeoutMs: 30_000,
  }),
  webhookSecret: process.env.PG_SECRET!,
  publicUrl: url,
  allowedOrigins: ['https://shop.test'],
  rateLimit: everyLimit
    ? {
        windowMs: 60_000,
        perIp: 1_000_000,
        perShopper: 1_000_000,
        global: 1_000_000,
        declines: { perOrder: 10, perShopper: 1_000_000, perIp: 1_000_000 },
      }
    : false,
  ...(everyLimit ? { savedCards: { shopperId: () => 'bench-shopper' } } : {}),
  store,
  resolveOrder: () => ({
    amount: 10_000,
    currency: 'ZAR',
    reference: `${kind}-${process.pid}-${++counter}`,
  }),
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
});

serveCommands({ url }, {}, async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  client?.disconnect();
});
