// The real stack for the browser tests: the gateway sandbox and @pg-checkout/express on port 0.
// Run as a child of the test runner with `node --conditions=pg-source --import tsx`; prints its URLs
// as one JSON line and exits when its parent closes stdin or sends SIGTERM.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createCheckout } from '@pg-checkout/express';
import { createSandbox } from '@pg-checkout/sandbox';

const pageOrigin = process.env.PG_PAGE_ORIGIN;
if (!pageOrigin) throw new Error('PG_PAGE_ORIGIN is required');

const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
const app = express();
let orders = 0;
const silent = { info: () => {}, warn: () => {}, error: () => {} };
app.use(
  '/checkout',
  createCheckout({
    gateway: { token: sandbox.token, secret: sandbox.secret, baseUrl: sandbox.url },
    publicUrl: `${pageOrigin}/checkout`,
    allowedOrigins: [pageOrigin],
    resolveOrder: () => ({
      amount: 12_345,
      currency: 'ZAR',
      reference: `elements-${process.pid}-${++orders}`,
    }),
    rateLimit: false,
    methods: ['card', 'eft', 'hosted'],
    redirectUrls: {
      success: `${pageOrigin}/done`,
      cancel: `${pageOrigin}/cancelled`,
      error: `${pageOrigin}/error`,
    },
    logger: silent,
  }),
);
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ port, sandboxUrl: sandbox.url }));
});

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  server.closeAllConnections();
  server.close();
  await sandbox.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.stdin.on('end', () => void shutdown());
process.stdin.resume();
