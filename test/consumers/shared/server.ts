// A merchant's server as a new developer writes it from the READMEs: the sandbox in-process, the
// middleware on /checkout, and the shop's pages from STATIC_DIR. Prints {"url","sandbox"} once it
// listens; stops when its parent closes stdin (or after 15 minutes, whatever happens).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import express from 'express';
import { createCheckout, MemoryStore } from '@pg-checkout/express';
import { createSandbox } from '@pg-checkout/sandbox';

const require = createRequire(import.meta.url);
const staticDir = resolve(process.env.STATIC_DIR ?? 'public');

const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
const app = express();
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Orders the middleware reported paid, for the test to compare with what the page showed. */
const paid: { orderReference: string; reference: string }[] = [];

app.use(
  '/checkout',
  createCheckout({
    gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
    publicUrl: `${url}/checkout`,
    store: new MemoryStore(),
    resolveOrder: () => ({ amount: 12_345, currency: 'ZAR', reference: `order-${randomUUID()}` }),
    onPaymentCompleted: ({ orderReference, reference }) => {
      paid.push({ orderReference, reference });
    },
  }),
);
app.get('/paid', (_req, res) => {
  res.json(paid);
});
// The script-tag file and the files it loads from beside itself (3-D Secure, Afrikaans).
for (const file of ['pg-checkout.js', 'pg-checkout.3ds.js', 'pg-checkout.af.js']) {
  app.get(`/${file}`, (_req, res) => {
    res.sendFile(require.resolve(`@pg-checkout/elements/${file}`));
  });
}
app.use(express.static(staticDir));

console.log(JSON.stringify({ url, sandbox: sandbox.url }));

const stop = (): void => {
  server.close();
  void sandbox.close().then(() => process.exit(0));
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
setTimeout(stop, 15 * 60_000).unref();
