/**
 * A merchant's payment page over the BUILT script-tag files (packages/elements/dist), the middleware and a
 * sandbox: the page's HTML and headers are the test's, the files are served as a merchant serves them.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { createCheckout } from '@pg-checkout/express';
import type { CheckoutOptions } from '@pg-checkout/server';

export const DIST = fileURLToPath(new URL('../../packages/elements/dist/', import.meta.url));

/** Fails loudly when the elements were not built: these tests are about the shipped files. */
export function builtFile(name: string): Buffer {
  const path = `${DIST}${name}`;
  if (!existsSync(path))
    throw new Error(`${path} is missing: run npm run build -w packages/elements first`);
  return readFileSync(path);
}

export interface PageRequest {
  nonce: string;
  /** The page's own origin, e.g. http://127.0.0.1:1234. */
  origin: string;
  gatewayOrigin: string;
}

export interface PaymentPage {
  url: string;
  sandboxUrl: string;
  /** The script files served under /elements/, by name; a test may change one (tampering). */
  files: Map<string, Buffer>;
  close(): Promise<void>;
}

export interface PageOptions {
  /** The page's HTML for one request. */
  html(request: PageRequest): string;
  /** The page's headers for one request (CSP, Integrity-Policy, Reporting-Endpoints). */
  headers?(request: PageRequest): Record<string, string>;
  /** More checkout options (hooks under test). */
  checkout?: Partial<CheckoutOptions<express.Request>>;
  /** More routes on the page's server, mounted before the page. */
  routes?(app: express.Express): void;
}

let orders = 0;

export async function startPaymentPage(options: PageOptions): Promise<PaymentPage> {
  const sandbox: Sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const files = new Map(
    ['pg-checkout.js', 'pg-checkout.3ds.js', 'pg-checkout.af.js', 'pg-checkout.reporter.js'].map(
      (name) => [name, builtFile(name)],
    ),
  );
  const app = express();
  const mounted: { router?: Router } = {};
  app.use('/checkout', (req, res, next) => mounted.router!(req, res, next));
  app.get('/elements/:file', (req, res) => {
    const body = files.get(req.params.file);
    if (!body) return void res.status(404).end();
    // Served as a CDN would: cross-origin readable, so `integrity` can be checked on it.
    res.set('access-control-allow-origin', '*').type('text/javascript').send(body);
  });
  options.routes?.(app);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const gatewayOrigin = new URL(sandbox.url).origin;
  app.get('/', (_req, res) => {
    const request = { nonce: randomBytes(16).toString('base64'), origin, gatewayOrigin };
    res
      .set({ 'cache-control': 'no-store', ...options.headers?.(request) })
      .type('html')
      .send(options.html(request));
  });
  const router = createCheckout({
    gateway: new GatewayClient({
      token: sandbox.token,
      secret: sandbox.secret,
      baseUrl: sandbox.url,
      timeoutMs: 10_000,
    }),
    webhookSecret: sandbox.secret,
    publicUrl: `${origin}/checkout`,
    allowedOrigins: [origin],
    rateLimit: false,
    resolveOrder: () => ({ amount: 10_000, currency: 'ZAR', reference: `page-${++orders}` }),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ...options.checkout,
  });
  mounted.router = router;
  return {
    url: `${origin}/`,
    sandboxUrl: sandbox.url,
    files,
    async close() {
      router.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await sandbox.close();
    },
  };
}

/** What a standalone 3-D Secure flow ended with, as the page saw it. */
export interface StandaloneOutcome {
  status: string;
  errors: string[];
}

/**
 * Page script: records uncaught errors (an element that threw while it upgraded) in `window.pgErrors`.
 * Goes first in the page, before the script tag.
 */
export const ERRORS_SCRIPT = `window.pgErrors = []; addEventListener('error', (e) => pgErrors.push(String(e.message)));`;

/**
 * Runs in the page: creates a payment with the card through the middleware (as a merchant's own form
 * would), then hands its 3-D Secure action to the page's `<tag>` (made now if `make`; without the
 * action's `methodUrl` if `inline`) and awaits `start()`.
 */
export const standalonePayment = (tag: string, number: string, make = false, inline = false) => `
  const year = new Date().getUTCFullYear() + 3;
  const api = new PgCheckout.CheckoutApi('/checkout');
  window.pgOutcome = undefined;
  (async () => {
    const answer = await api.createPayment({
      card: { number: ${JSON.stringify(number)}, cardHolder: 'Thandi Nkosi', expiryMonth: 12, expiryYear: year, cvv: '123', type: 'visa' },
      screenWidth: 1280, screenHeight: 800,
    });
    if (answer.status !== 'authenticating') return void (window.pgOutcome = answer.status);
    // The method content given inline (the srcdoc path), as a merchant with no methodUrl hands it.
    if (${inline}) delete answer.threeDS.methodUrl;
    await customElements.whenDefined(${JSON.stringify(tag)});
    if (${make}) document.body.append(document.createElement(${JSON.stringify(tag)}));
    const el = document.querySelector(${JSON.stringify(tag)});
    el.endpoint = '/checkout';
    const final = await el.start(answer.reference, answer.threeDS, answer.clientSecret);
    window.pgOutcome = final.status;
  })().catch((e) => { window.pgOutcome = 'threw: ' + e.message; });
  return true;`;

export interface ManifestFile {
  file: string;
  size: number;
  integrity: string;
  purpose: string;
  loadedBy: string;
}

/** dist/integrity.json as the build wrote it. */
export const manifest = (): { package: string; version: string; files: ManifestFile[] } =>
  JSON.parse(builtFile('integrity.json').toString('utf8')) as {
    package: string;
    version: string;
    files: ManifestFile[];
  };

/**
 * Page script, first in the page (with its nonce): what the page met that a security team would call a
 * fault, in `window.pgFaults`: CSP and Trusted Types violations, uncaught errors and rejections, a script
 * or stylesheet that failed to load, and console.error calls.
 */
export const FAULTS_SCRIPT = `window.pgFaults = [];
addEventListener('securitypolicyviolation', (e) => pgFaults.push('violation: ' + e.violatedDirective + ' ' + e.blockedURI));
addEventListener('error', (e) => pgFaults.push(e.target instanceof Element ? 'failed to load: ' + (e.target.src || e.target.href) : 'error: ' + e.message), true);
addEventListener('unhandledrejection', (e) => pgFaults.push('rejection: ' + e.reason));
const consoleError = console.error;
console.error = (...args) => { pgFaults.push('console.error: ' + args.join(' ')); consoleError(...args); };`;

/** A checkout page as the README shows it: the reporter, then the script tag, each with its integrity. */
export function checkoutPage(
  { nonce }: PageRequest,
  files: ManifestFile[] = manifest().files,
): string {
  const sri = (name: string) => files.find((f) => f.file === name)!.integrity;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay</title>
<script nonce="${nonce}">${FAULTS_SCRIPT}</script>
<script nonce="${nonce}" src="/elements/pg-checkout.reporter.js" integrity="${sri('pg-checkout.reporter.js')}" crossorigin="anonymous" data-endpoint="/checkout" defer></script>
<script nonce="${nonce}" src="/elements/pg-checkout.js" integrity="${sri('pg-checkout.js')}" crossorigin="anonymous" defer fetchpriority="high"></script>
</head><body><main><pg-checkout endpoint="/checkout" methods="card"></pg-checkout></main></body></html>`;
}
