import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Router } from 'express';
import { GatewayClient } from '@pg-checkout/node';
import type { Sandbox } from '@pg-checkout/sandbox';
import { createCheckout } from '@pg-checkout/express';
import {
  createCheckoutHandler,
  type CheckoutHandler,
  type CheckoutOptions,
} from '@pg-checkout/server';
import { header, type Adapter, type AnyRequest } from './adapters.js';
import { serveHandler } from './fetch-server.js';
import { startTestSandbox } from './sandbox.js';

export const PAGE_ORIGIN = 'https://shop.test';

export interface SandboxApp {
  url: string;
  sandboxUrl: string;
  secret: string;
  close(): Promise<void>;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Answer }>;
  get(path: string): Promise<{ status: number; body: Answer }>;
  /** The sandbox's test-only record of a payment. */
  record(reference: string): Promise<Answer>;
  /** The sandbox's records whose merchant reference belongs to this order. */
  attempts(order: string): Promise<Answer[]>;
  sandbox(path: string, body: unknown): Promise<void>;
}

// Answers are checked field by field; `any` keeps the assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = any;

/**
 * The checkout on a real server whose publicUrl is its own address, talking to a real sandbox:
 * the Express router, or the Fetch handler behind a Node bridge (`adapter`).
 */
export async function startSandboxApp(
  overrides: Partial<CheckoutOptions<AnyRequest>> = {},
  clientTimeoutMs = 5_000,
  shared?: Sandbox,
  adapter: Adapter = 'express',
): Promise<SandboxApp> {
  // A shared sandbox belongs to the caller, who closes it.
  const sandbox = shared ?? (await startTestSandbox());
  const client = new GatewayClient({
    token: sandbox.token,
    secret: sandbox.secret,
    baseUrl: sandbox.url,
    timeoutMs: clientTimeoutMs,
  });
  let order = 0;
  const options = (url: string): CheckoutOptions<AnyRequest> => ({
    gateway: client,
    webhookSecret: sandbox.secret,
    publicUrl: url,
    allowedOrigins: [PAGE_ORIGIN],
    rateLimit: false,
    resolveOrder: (req) => ({
      amount: Number(header(req, 'x-amount') ?? 10_000),
      currency: header(req, 'x-currency') ?? 'ZAR',
      reference: header(req, 'x-order') ?? `sbx-${Date.now()}-${++order}`,
    }),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ...overrides,
  });
  const served = adapter === 'fetch' ? await serveFetch(options) : await serveExpress(options);
  const { url } = served;
  const json = async (response: Response) => {
    const body = (await response.json()) as Answer;
    if (typeof body?.reference === 'string' && typeof body.clientSecret === 'string')
      browserSecrets.set(body.reference, body.clientSecret);
    return { status: response.status, body };
  };
  /** What the browser sends on `/payments/:reference...`: the secret it was handed for it. */
  const owned = (path: string): Record<string, string> => {
    const match = /\/payments\/([^/?]+)/.exec(path);
    const secret = match ? browserSecrets.get(decodeURIComponent(match[1]!)) : undefined;
    return secret ? { 'x-pg-client-secret': secret } : {};
  };
  return {
    url,
    sandboxUrl: sandbox.url,
    secret: sandbox.secret,
    async close() {
      await served.close();
      if (!shared) await sandbox.close();
    },
    post: async (path, body, headers = {}) =>
      json(
        await fetch(/^https?:/.test(path) ? path : url + path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: PAGE_ORIGIN,
            ...owned(path),
            ...headers,
          },
          body: JSON.stringify(body),
        }),
      ),
    get: async (path) => json(await fetch(url + path, { headers: owned(path) })),
    attempts: async (order) => {
      const list = (await (
        await fetch(`${sandbox.url}/_sandbox/transactions?limit=500`)
      ).json()) as { transactions: Answer[] };
      return list.transactions.filter((t) => String(t.merchantReference).startsWith(`${order}-`));
    },
    record: async (reference) =>
      (await fetch(`${sandbox.url}/_sandbox/transactions/${encodeURIComponent(reference)}`)).json(),
    sandbox: async (path, body) => {
      const response = await fetch(sandbox.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`);
    },
  };
}

/** `startSandboxApp` over one adapter, for a suite run by `overAdapters`. */
export const sandboxAppOver =
  (adapter: Adapter) =>
  (overrides?: Partial<CheckoutOptions<AnyRequest>>, clientTimeoutMs?: number, shared?: Sandbox) =>
    startSandboxApp(overrides, clientTimeoutMs, shared, adapter);

type Options = (url: string) => CheckoutOptions<AnyRequest>;

// Mounted lazily: the checkout needs publicUrl, which needs the listening port.
async function serveExpress(options: Options): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  const mounted: { router?: Router } = {};
  app.use('/checkout', (req, res, next) => mounted.router!(req, res, next));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout`;
  const router = createCheckout(options(url));
  mounted.router = router;
  return {
    url,
    async close() {
      router.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function serveFetch(options: Options): Promise<{ url: string; close(): Promise<void> }> {
  const mounted: { handler?: CheckoutHandler & { close(): void } } = {};
  const served = await serveHandler(() => mounted.handler!);
  const url = `${served.base}/checkout`;
  mounted.handler = createCheckoutHandler(options(url));
  return {
    url,
    async close() {
      mounted.handler!.close();
      await served.close();
    },
  };
}

/** Client secrets handed out, by reference: one browser's memory, whichever instance answered. */
const browserSecrets = new Map<string, string>();

export { bankAnswer, completeChallenge, runMethodStep } from './bank.js';
