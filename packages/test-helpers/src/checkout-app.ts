import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createCheckout, type CheckoutOptions } from '@pg-checkout/express';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';

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

export const order = { amount: 12_345, currency: 'ZAR', reference: 'order-1001' };
let orderCounter = 1000;

export async function startApp(
  overrides: Partial<CheckoutOptions> = {},
  gateway = new FakeGateway(),
  setup: { parseJsonFirst?: boolean; parsers?: express.RequestHandler[] } = {},
): Promise<TestApp> {
  const app = express();
  app.set('trust proxy', 'loopback');
  // A merchant app that parses JSON itself before mounting the checkout.
  if (setup.parseJsonFirst) app.use(express.json());
  for (const parser of setup.parsers ?? []) app.use(parser);
  const logs: unknown[] = [];
  app.use(
    '/checkout',
    createCheckout({
      gateway,
      sessionSecret: SESSION_SECRET,
      webhookSecret: 'whsec-test-default',
      publicUrl: 'https://shop.test/checkout',
      allowedOrigins: [SHOP_ORIGIN],
      // Each request is its own order unless a test pins one with x-test-order.
      resolveOrder: (req) => ({
        ...order,
        reference: req.get('x-test-order') ?? `order-${++orderCounter}`,
      }),
      rateLimit: false,
      logger: {
        info: (...a) => logs.push(a),
        warn: (...a) => logs.push(a),
        error: (...a) => logs.push(a),
      },
      ...overrides,
    }),
  );
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout`;
  const secrets = new Map<string, string>();
  return {
    url,
    gateway,
    secrets,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
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

export const card = (number: string, extra: Record<string, unknown> = {}) => ({
  card: {
    number,
    cardHolder: 'Test Shopper',
    expiryMonth: 12,
    expiryYear: 2031,
    cvv: '123',
    type: 'visa',
    ...extra,
  },
  screenWidth: 1280,
  screenHeight: 800,
});

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
