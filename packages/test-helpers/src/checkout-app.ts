import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createCheckout } from '@pg-checkout/express';
import { createCheckoutHandler, type CheckoutOptions } from '@pg-checkout/server';
import { FakeGateway } from './fake-gateway.js';
import type { Adapter, AnyRequest } from './adapters.js';
import { header } from './adapters.js';
import { serveHandler } from './fetch-server.js';
import { cardBody } from './cards.js';

// The card body has one home; HTTP tests import it from here by its short name.
export { cardBody as card } from './cards.js';

// Tests read many answer shapes; `any` keeps assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

export const SHOP_ORIGIN = 'https://shop.test';

export interface TestApp {
  url: string;
  gateway: FakeGateway;
  close(): Promise<void>;
  /** Client secrets the app handed out, by reference (the browser's memory). */
  secrets: Map<string, string>;
  /**
   * JSON call from the shop's page (Origin set) unless `origin: null`. Calls to
   * `/payments/:reference...` carry the secret the app handed out for it, unless `secret` says
   * otherwise (`null`: none).
   */
  call(
    method: string,
    path: string,
    body?: unknown,
    init?: {
      origin?: string | null;
      headers?: Record<string, string>;
      raw?: string;
      secret?: string | null;
    },
  ): Promise<{ status: number; body: Answer; headers: Headers }>;
}

/** The key of the client secrets in tests (a real shop sets its own, or derives it from the gateway secret). */
export const SESSION_SECRET = 'test-session-secret-0123456789abcdef';

/** The shop's pages a redirect method's shopper comes back to (`redirectUrls`). */
export const REDIRECT_URLS = {
  success: 'https://shop.test/ok',
  cancel: 'https://shop.test/cancel',
  error: 'https://shop.test/error',
};

export const order = { amount: 12_345, currency: 'ZAR', reference: 'order-1001' };
let orderCounter = 1000;

/** The checkout's options as a test gives them: hooks get either adapter's request. */
export type TestOptions = Partial<CheckoutOptions<AnyRequest>>;

/**
 * The checkout on a real server at `{url}` = `http://127.0.0.1:port/checkout`, served by the
 * adapter `setup.adapter` names (Express unless told): the Express router behind `trust proxy`
 * 'loopback', or the Fetch handler behind a Node bridge that reads the same forwarded headers.
 * `parseJsonFirst` and `parsers` mount the merchant's Express body parsers before the router; the
 * Fetch handler always reads the body itself, so they are Express's alone.
 */
export async function startApp(
  overrides: TestOptions = {},
  gateway = new FakeGateway(),
  setup: { adapter?: Adapter; parseJsonFirst?: boolean; parsers?: express.RequestHandler[] } = {},
): Promise<TestApp> {
  const logs: unknown[] = [];
  const options: CheckoutOptions<AnyRequest> = {
    gateway,
    sessionSecret: SESSION_SECRET,
    webhookSecret: 'whsec-test-default',
    publicUrl: 'https://shop.test/checkout',
    allowedOrigins: [SHOP_ORIGIN],
    // Each request is its own order unless a test pins one with x-test-order.
    resolveOrder: (req) => ({
      ...order,
      reference: header(req, 'x-test-order') ?? `order-${++orderCounter}`,
    }),
    rateLimit: false,
    logger: {
      info: (...a) => logs.push(a),
      warn: (...a) => logs.push(a),
      error: (...a) => logs.push(a),
    },
    ...overrides,
  };
  const served =
    setup.adapter === 'fetch' ? await serveFetch(options) : await serveExpress(options, setup);
  const url = `${served.base}/checkout`;
  const secrets = new Map<string, string>();
  return {
    url,
    gateway,
    secrets,
    close: served.close,
    async call(method, path, body, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.origin !== null) headers.origin = init.origin ?? SHOP_ORIGIN;
      if (body !== undefined || init.raw !== undefined)
        headers['content-type'] ??= 'application/json';
      const owned = /^\/payments\/([^/?]+)/.exec(path);
      const secret =
        init.secret !== undefined
          ? init.secret
          : owned
            ? secrets.get(decodeURIComponent(owned[1]!))
            : undefined;
      if (secret) headers['x-pg-client-secret'] = secret;
      const response = await fetch(url + path, {
        method,
        headers,
        body: init.raw ?? (body === undefined ? null : JSON.stringify(body)),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // HTML pages stay text.
      }
      const answer = parsed as { reference?: unknown; clientSecret?: unknown };
      if (typeof answer?.reference === 'string' && typeof answer.clientSecret === 'string')
        secrets.set(answer.reference, answer.clientSecret);
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
}

/** A call's `init` pinning the order it is about (`resolveOrder` reads `x-test-order`), with more headers. */
export const pinned = (order: string, headers: Record<string, string> = {}) => ({
  headers: { 'x-test-order': order, ...headers },
});

/** The shopper pays the pinned `order` with the card `number`. */
export const payCard = (app: TestApp, number: string, order: string) =>
  app.call('POST', '/payments', cardBody(number), pinned(order));

/** The bank's form post to a 3-D Secure callback or TermUrl. */
export async function bankPost(
  url: string,
  form: Record<string, string>,
): Promise<{ status: number; html: string; csp: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    html: await response.text(),
    csp: response.headers.get('content-security-policy'),
  };
}

/** The middleware's public URL points at https://shop.test; tests reach it on the local server instead. */
export function local(app: TestApp, publicUrl: string): string {
  return publicUrl.replace('https://shop.test/checkout', app.url);
}

interface Served {
  base: string;
  close(): Promise<void>;
}

async function serveExpress(
  options: CheckoutOptions<AnyRequest>,
  setup: { parseJsonFirst?: boolean; parsers?: express.RequestHandler[] },
): Promise<Served> {
  const app = express();
  app.set('trust proxy', 'loopback');
  // A merchant app that parses JSON itself before mounting the checkout.
  if (setup.parseJsonFirst) app.use(express.json());
  for (const parser of setup.parsers ?? []) app.use(parser);
  const router = createCheckout(options);
  app.use('/checkout', router);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      router.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function serveFetch(options: CheckoutOptions<AnyRequest>): Promise<Served> {
  const handler = createCheckoutHandler(options);
  const served = await serveHandler(() => handler, { trustLoopbackProxy: true });
  return {
    base: served.base,
    async close() {
      handler.close();
      await served.close();
    },
  };
}

/** `startApp` over one adapter: a suite run by `overAdapters` builds its apps with it. */
export const startAppOver =
  (adapter: Adapter): typeof startApp =>
  (overrides, gateway, setup = {}) =>
    startApp(overrides, gateway, { ...setup, adapter });
