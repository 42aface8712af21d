/**
 * From the Pay request's arrival at the shop to the gateway's create leaving it (issue 36): for an order
 * the checkout has not loaded (the charged-already lookup on the click, as before) and for one whose
 * `GET /config` ran first (the lookup done on load and kept). In process, against the sandbox on
 * loopback: a real gateway adds its own round trip to every lookup on the click.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import express from 'express';
import { createCheckout } from '@pg-checkout/express';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox } from '@pg-checkout/sandbox';
import { cardBody } from '@pg-checkout/test-helpers/cards';

const PAYMENTS = Number(process.env.BENCH_PAY_TO_CREATE ?? 40);

export async function benchPayToCreate() {
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const client = new GatewayClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    secret: sandbox.secret,
  });
  const arrived = new Map<string, number>();
  const waits = new Map<string, number>();
  // The create's moment of leaving: the client's own call, wrapped.
  const create = client.payments.create.bind(client.payments);
  client.payments.create = (request, options) => {
    const order = request.transaction.reference.replace(/-\d+$/, '');
    waits.set(order, performance.now() - arrived.get(order)!);
    return create(request, options);
  };
  const app = express();
  app.use((req, _res, next) => {
    if (req.method === 'POST') arrived.set(String(req.headers['x-order']), performance.now());
    next();
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const checkout = createCheckout({
    gateway: client,
    webhookSecret: sandbox.secret,
    publicUrl: `${url}/checkout`,
    rateLimit: false,
    reconcileIntervalMs: false,
    resolveOrder: (req) => ({
      amount: 14_900,
      currency: 'ZAR',
      reference: String((req as express.Request).headers['x-order']),
    }),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  app.use('/checkout', checkout);
  const body = JSON.stringify(cardBody('4111111111111111'));
  const pay = (order: string) =>
    fetch(`${url}/checkout/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, 'x-order': order },
      body,
    }).then((r) => r.text());
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  try {
    const cold: number[] = [];
    const loaded: number[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const a = `bench-cold-${i}`;
      await pay(a);
      cold.push(waits.get(a)!);
      const b = `bench-loaded-${i}`;
      await fetch(`${url}/checkout/config`, { headers: { 'x-order': b } }).then((r) => r.text());
      await new Promise((resolve) => setTimeout(resolve, 20)); // the load's lookup, beside the answer
      await pay(b);
      loaded.push(waits.get(b)!);
    }
    return { payments: PAYMENTS, cold: median(cold), loaded: median(loaded) };
  } finally {
    checkout.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  }
}
