// A merchant's server that renders its checkout page with @lit-labs/ssr (the elements README, "Server
// rendering"), under a CSP without 'unsafe-inline' whose style-src lists serverStyleHashes(), with the
// middleware on /checkout and the sandbox in-process. Prints {"url","sandbox"} once it listens; stops
// when its parent closes stdin.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { build } from 'esbuild';
import express from 'express';
import { html } from 'lit';
import '@pg-checkout/elements/checkout.js';
import { serverStyleHashes } from '@pg-checkout/elements/csp.js';
import { createCheckout, MemoryStore } from '@pg-checkout/express';
import { createSandbox } from '@pg-checkout/sandbox';

const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
const app = express();
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://127.0.0.1:${server.address().port}`;

const client = await build({
  entryPoints: [fileURLToPath(new URL('./client.js', import.meta.url))],
  bundle: true,
  format: 'esm',
  minify: true,
  write: false,
  logLevel: 'warning',
});
const csp = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${(await serverStyleHashes()).join(' ')}`,
  `frame-src 'self' ${sandbox.url} https:`,
  `form-action 'self' ${sandbox.url} https:`,
].join('; ');

/** Orders the middleware reported paid, for the test to compare with what the page showed. */
const paid = [];
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
app.get('/client.js', (_req, res) => {
  res.type('text/javascript').send(client.outputFiles[0].text);
});
app.get('/', async (_req, res) => {
  const dropIn = await collectResult(
    render(html`<pg-checkout endpoint="/checkout" methods="card"></pg-checkout>`),
  );
  res.set('content-security-policy', csp).type('html').send(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Server-rendered checkout</title>
    <script type="module" src="/client.js"></script>
  </head>
  <body>
    <h1>Pay</h1>
    ${dropIn}
    <output id="outcome"></output>
    <output id="steps"></output>
  </body>
</html>`);
});

console.log(JSON.stringify({ url, sandbox: sandbox.url }));

const stop = () => {
  server.close();
  void sandbox.close().then(() => process.exit(0));
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
setTimeout(stop, 15 * 60_000).unref();
