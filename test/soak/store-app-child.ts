/**
 * The store-fault phase's app, in its own process: createCheckout on a RedisStore whose Redis the
 * parent kills and restarts empty. Every gateway call that can move money (create, Step 2
 * confirm, 3-D Secure confirm) is tapped on the wire with the id of the shopper's request that
 * caused it (header `x-soak-req`), so the parent can tell which request charged what.
 *
 * The gateway gets a small random latency on both legs (the tap waits before sending and before
 * handing back the answer), so Redis dies while the gateway handles a call, not only between calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { GatewayClient } from '@pg-checkout/node';
import {
  createCheckout,
  RedisStore,
  RefundError,
  type CheckoutRouter,
  type RefundCommand,
  type RefundEvent,
} from '@pg-checkout/express';
import { serveCommands } from '../bench/lib/serve.js';
import { seeded } from './random.js';

export const PAGE_ORIGIN = 'https://shop.test';
export const AMOUNT = 10_000;

/** One money-moving gateway call, as sent and as answered. */
export interface GatewayCall {
  /** `x-soak-req` of the browser or bank request that made it ('' when none). */
  req: string;
  kind: 'create' | 'step2' | 'confirm';
  /** Merchant reference (create) or gateway reference (confirms). */
  ref: string;
  sentAt: number;
  /** HTTP status of the gateway's answer, or 0 when none came. */
  status: number;
  /** The answer's originalErrorCode, when it had one (fin094: duplicate reference). */
  originalErrorCode?: string;
}

const als = new AsyncLocalStorage<string>();

/** A line the middleware logged, with the request it was logged for (timers keep the id). */
export interface LogLine {
  at: number;
  req: string;
  level: string;
  message: string;
  fields: string;
}
const logs: LogLine[] = [];
const keep =
  (level: string) =>
  (message: string, meta?: Record<string, unknown>): void => {
    const fields = Object.entries(meta ?? {})
      .map(
        ([k, v]) =>
          `${k}=${v instanceof Error ? v.message : typeof v === 'object' ? JSON.stringify(v) : String(v)}`,
      )
      .join(' ');
    logs.push({ at: Date.now(), req: als.getStore() ?? '', level, message, fields });
  };
const calls: GatewayCall[] = [];
const chance = seeded('store-app');
const latency = (max: number) => new Promise((r) => setTimeout(r, chance() * max));
const LATENCY_MS = Number(process.env.GATEWAY_LATENCY_MS ?? 40);
let storeErrors = 0;

const tapped: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  let call: GatewayCall | undefined;
  const base = { req: als.getStore() ?? '', sentAt: Date.now(), status: 0 };
  let m: RegExpExecArray | null;
  if (url.pathname.endsWith('/payment/create') && typeof init?.body === 'string') {
    const ref = (JSON.parse(init.body) as { transaction?: { reference?: string } }).transaction
      ?.reference;
    call = { ...base, kind: 'create', ref: ref ?? '' };
  } else if ((m = /\/payment\/3dsv2\/([^/]+)\/confirm$/.exec(url.pathname))) {
    call = { ...base, kind: 'step2', ref: decodeURIComponent(m[1]!) };
  } else if ((m = /\/payment\/([^/]+)\/confirm$/.exec(url.pathname))) {
    call = { ...base, kind: 'confirm', ref: decodeURIComponent(m[1]!) };
  }
  if (call) calls.push(call);
  await latency(LATENCY_MS / 2);
  const response = await fetch(input, init);
  if (!call) return response;
  const text = await response.text();
  call.status = response.status;
  const code = /"originalErrorCode"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  if (code) call.originalErrorCode = code;
  await latency(LATENCY_MS);
  const headers = new Headers(response.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
};

// Fail fast while Redis is down (no offline queue, one retry), reconnect every 50 ms once it is back.
const redis = new Redis({
  host: '127.0.0.1',
  port: Number(process.env.REDIS_PORT),
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  connectTimeout: 500,
  commandTimeout: 1_000,
  retryStrategy: () => 50,
});
redis.on('error', () => {
  storeErrors += 1;
});
// How long the app itself could not reach Redis: from a lost connection to the next ready.
let lostAt = 0;
let unavailableMs = 0;
redis.on('close', () => {
  lostAt ||= Date.now();
});
redis.on('ready', () => {
  if (lostAt) unavailableMs += Date.now() - lostAt;
  lostAt = 0;
});
/** A payment the shop's order book holds as paid, by gateway reference. */
export interface BookEntry {
  reference: string;
  order: string;
  amount: number;
  currency: string;
}
export interface BookStats {
  /** Calls of onPaymentCompleted, refused writes (outage), random throws, repeats of a held fact. */
  calls: number;
  refused: number;
  thrown: number;
  repeats: number;
  outages: number;
}

// The merchant's own order book (issue 26): down for stretches ("database outages") and failing
// some writes at random, until the parent heals it; idempotent by payment reference, as it must be.
const bookChance = seeded('order-book');
const HOOK_FAILURE_RATE = Number(process.env.HOOK_FAILURE_RATE ?? 0.1);
const OUTAGE_UP_MS: [number, number] = [1_000, 4_000];
const OUTAGE_DOWN_MS: [number, number] = [300, 1_500];
const book = new Map<string, BookEntry>();
const bookStats: BookStats = { calls: 0, refused: 0, thrown: 0, repeats: 0, outages: 0 };
let bookDown = false;
let healed = false;
const between = ([lo, hi]: [number, number]) => lo + bookChance() * (hi - lo);
function outageCycle(): void {
  setTimeout(() => {
    if (healed) return;
    bookDown = true;
    bookStats.outages += 1;
    setTimeout(() => {
      bookDown = false;
      outageCycle();
    }, between(OUTAGE_DOWN_MS)).unref();
  }, between(OUTAGE_UP_MS)).unref();
}
outageCycle();
async function onPaymentCompleted(e: {
  reference: string;
  orderReference: string;
  amount: number;
  currency: string;
}): Promise<void> {
  bookStats.calls += 1;
  await new Promise((r) => setTimeout(r, bookChance() * 5)); // a write's round trip
  if (!healed && bookDown) {
    bookStats.refused += 1;
    throw new Error('order book unavailable (database outage)');
  }
  if (!healed && bookChance() < HOOK_FAILURE_RATE) {
    bookStats.thrown += 1;
    throw new Error('order book write failed');
  }
  if (book.has(e.reference)) {
    bookStats.repeats += 1;
    return;
  }
  book.set(e.reference, {
    reference: e.reference,
    order: e.orderReference,
    amount: e.amount,
    currency: e.currency,
  });
}

/** A refund the shop's book holds, by the refund's merchant reference (its slot, `<payment>~r<i>`). */
export interface RefundBookEntry {
  merchantReference: string;
  paymentReference: string;
  amount: number;
  currency: string;
}
/** onRefundCompleted: calls, refused (outage), thrown, repeats of a held refund, held with other facts. */
export interface RefundBookStats {
  calls: number;
  refused: number;
  thrown: number;
  repeats: number;
  conflicting: number;
}
// The same book's refunds: the same outages, its own random failures (stream `refund-book`);
// idempotent by the refund's merchant reference, as the contract asks.
const refundChance = seeded('refund-book');
const refundBook = new Map<string, RefundBookEntry>();
const refundStats: RefundBookStats = {
  calls: 0,
  refused: 0,
  thrown: 0,
  repeats: 0,
  conflicting: 0,
};
async function onRefundCompleted(e: RefundEvent): Promise<void> {
  refundStats.calls += 1;
  await new Promise((r) => setTimeout(r, refundChance() * 5));
  if (!healed && bookDown) {
    refundStats.refused += 1;
    throw new Error('order book unavailable (database outage)');
  }
  if (!healed && refundChance() < HOOK_FAILURE_RATE) {
    refundStats.thrown += 1;
    throw new Error('order book write failed');
  }
  const held = refundBook.get(e.merchantReference);
  if (held) {
    refundStats.repeats += 1;
    if (held.amount !== e.amount || held.paymentReference !== e.paymentReference)
      refundStats.conflicting += 1;
    return;
  }
  refundBook.set(e.merchantReference, {
    merchantReference: e.merchantReference,
    paymentReference: e.paymentReference,
    amount: e.amount,
    currency: e.currency,
  });
}

/** What `checkout.refund` answered one call: its status and refund, or the error's code. */
export type RefundAnswer =
  | { status: string; amount: number; merchantReference: string }
  | { error: string; message: string };

const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();

const app = express();
// Bodies are read before the request's id is bound (a stream's events would lose it); the
// middleware leaves a body another parser read as it is, as it does for merchants who parse globally.
app.use(express.json({ limit: '64kb' }));
app.use(express.urlencoded({ extended: false, limit: '64kb' }));
app.use((req, _res, next) => als.run(String(req.headers['x-soak-req'] ?? ''), next));
const mounted: { router?: CheckoutRouter } = {};
app.use('/checkout', (req, res, next) => mounted.router!(req, res, next));
const server = await new Promise<Server>((resolve) => {
  const s = app.listen(0, '127.0.0.1', () => resolve(s));
});
server.keepAliveTimeout = 30_000;
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout`;

mounted.router = createCheckout({
  gateway: new GatewayClient({
    token: process.env.PG_TOKEN!,
    secret: process.env.PG_SECRET!,
    baseUrl: process.env.SANDBOX_URL!,
    timeoutMs: Number(process.env.CLIENT_TIMEOUT_MS ?? 5_000),
    fetch: tapped,
  }),
  webhookSecret: process.env.PG_SECRET!,
  publicUrl: url,
  allowedOrigins: [PAGE_ORIGIN],
  rateLimit: false,
  store: new RedisStore({ client: redis }),
  resolveOrder: (req) => ({
    amount: AMOUNT,
    currency: 'ZAR',
    reference: String(req.headers['x-order']),
  }),
  logger: { info: keep('info'), warn: keep('warn'), error: keep('error') },
  reconcileGraceMs: Number(process.env.RECONCILE_GRACE_MS ?? 3_000),
  onPaymentCompleted,
  onRefundCompleted,
});

serveCommands(
  { url },
  {
    calls: () => calls,
    logs: () => logs,
    storeErrors: () => storeErrors,
    book: () => ({ entries: [...book.values()], stats: bookStats }),
    refundBook: () => ({ entries: [...refundBook.values()], stats: refundStats }),
    /** The back office refunds: `checkout.refund` as a merchant's code calls it. */
    refund: async (cmd: unknown): Promise<RefundAnswer> => {
      try {
        const result = await mounted.router!.refund(cmd as RefundCommand);
        return {
          status: result.status,
          amount: result.refund.amount,
          merchantReference: result.refund.merchantReference,
        };
      } catch (error) {
        if (error instanceof RefundError) return { error: error.code, message: error.message };
        return { error: 'thrown', message: error instanceof Error ? error.message : String(error) };
      }
    },
    /** The outages end and writes stop failing: what was not taken must now arrive. */
    heal: () => {
      healed = true;
      bookDown = false;
      return true;
    },
    reconcile: () => mounted.router!.reconcile({ limit: 10_000 }),
    unavailableMs: () => unavailableMs + (lostAt ? Date.now() - lostAt : 0),
    loopDelay: () => ({
      p99: Math.round(loopDelay.percentile(99) / 1e6),
      max: Math.round(loopDelay.max / 1e6),
    }),
  },
  async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    mounted.router?.close();
    redis.disconnect();
  },
);
