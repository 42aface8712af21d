/**
 * Money facts reach the shop (issue 26): a hook that throws is called again until it resolves,
 * then never again; a store lost after a charge is made whole from the gateway's list; two
 * instances sharing a store hand a fact over once; a gateway outage during a sweep loses nothing.
 * Against the real sandbox, through the Fetch handler.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '@pg-checkout/sandbox';
import {
  createCheckoutHandler,
  MemoryStore,
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  type CheckoutStore,
  type CheckoutSweep,
  type PaymentEvent,
} from '../src/index.js';
import { completeChallenge, runMethodStep } from '@pg-checkout/test-helpers/bank';
import { FlakyStore } from '@pg-checkout/test-helpers/flaky-store';
import { cardBody, serveHandler } from '@pg-checkout/test-helpers/fetch-server';
import { sleep, until } from './helpers/wait.js';
import { startTestSandbox } from '@pg-checkout/test-helpers/sandbox';

type Handler = CheckoutHandler & CheckoutSweep;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The merchant's order book: refuses writes while `down`; pays an order once per reference. */
class OrderBook {
  down = false;
  /** Every call the hook got, failed or not. */
  calls: string[] = [];
  readonly paid = new Map<string, PaymentEvent>();
  /** How long each write takes, to hold a delivery open. */
  writeMs = 0;
  readonly onPaymentCompleted = async (event: PaymentEvent): Promise<void> => {
    this.calls.push(event.reference);
    if (this.writeMs) await new Promise((r) => setTimeout(r, this.writeMs));
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    if (!this.paid.has(event.reference)) this.paid.set(event.reference, event);
  };
  callsFor = (reference: string) => this.calls.filter((r) => r === reference).length;
}

let sandbox: Sandbox;
let served: Awaited<ReturnType<typeof serveHandler>>;
let base: string;
// The handler the test server serves; tests swap it (a "restart" is a new handler).
let current: Handler | undefined;
let orders = 0;

before(async () => {
  sandbox = await startTestSandbox();
  // No handler yet: 503, as a server between two instances would answer.
  served = await serveHandler(() => current ?? (async () => new Response(null, { status: 503 })));
  base = served.base;
});
after(async () => {
  current?.close();
  await served.close();
  await sandbox.close();
});

function instance(
  book: OrderBook,
  store: CheckoutStore,
  extra: Partial<CheckoutHandlerOptions> = {},
): Handler {
  return createCheckoutHandler({
    gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
    publicUrl: `${base}/api/checkout`,
    store,
    resolveOrder: (request) => ({
      amount: 14_900,
      currency: 'ZAR',
      reference: request.headers.get('x-order') ?? 'none',
    }),
    onPaymentCompleted: book.onPaymentCompleted,
    rateLimit: false,
    logger: silent,
    ...extra,
  });
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/api/checkout${path}`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  // The sandbox's answers are read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as any };
}

/** A frictionless card payment for a new order; its gateway reference. */
async function pay(handler: Handler): Promise<string> {
  current = handler;
  const order = `delivery-${process.pid}-${++orders}`;
  const paid = await post('/payments', cardBody('4111111111111111'), { 'x-order': order });
  assert.equal(paid.body.status, 'approved', JSON.stringify(paid.body));
  return paid.body.reference as string;
}

describe('a hook that throws is called again until it resolves', () => {
  it('throws twice, then resolves: called three times, then never again', async () => {
    const book = new OrderBook();
    let failures = 2;
    const hook = book.onPaymentCompleted;
    const handler = instance(book, new MemoryStore(), {
      onPaymentCompleted: async (event) => {
        if (failures-- > 0) {
          book.calls.push(event.reference);
          throw new Error('deadlock detected');
        }
        await hook(event);
      },
    });
    try {
      const reference = await pay(handler);
      assert.equal(book.callsFor(reference), 1, 'the first call ran with the payment');
      assert.equal(book.paid.size, 0);
      await until('paid after the retries', () => book.paid.has(reference));
      assert.equal(book.callsFor(reference), 3);
      assert.equal(book.paid.get(reference)!.amount, 14_900);
      // Nothing calls it again: no retry timer, no sweep.
      await sleep(2_500);
      const swept = await handler.reconcile();
      assert.equal(swept.delivered, 0, JSON.stringify(swept));
      assert.equal(book.callsFor(reference), 3);
    } finally {
      handler.close();
    }
  });

  it('the database down while the shopper passes a v2 challenge: the order is paid once it is back', async () => {
    const book = new OrderBook();
    const handler = instance(book, new MemoryStore());
    current = handler;
    try {
      const headers = { 'x-order': `challenge-${process.pid}-${++orders}` };
      const created = await post('/payments', cardBody('4000000000003063'), headers);
      assert.equal(created.body.threeDS.step, 'method', JSON.stringify(created.body));
      await runMethodStep(created.body.threeDS.methodUrl);
      const step2 = await post(
        new URL(created.body.threeDS.confirmUrl).pathname.replace('/api/checkout', ''),
        {},
        { ...headers, 'x-pg-client-secret': created.body.clientSecret },
      );
      assert.equal(step2.body.threeDS.step, 'challenge', JSON.stringify(step2.body));
      book.down = true;
      const page = await completeChallenge(step2.body.threeDS, '1234');
      assert.equal(page.status, 200);
      const reference = created.body.reference as string;
      assert.equal(book.callsFor(reference), 1, 'the hook ran when the bank posted');
      assert.equal(book.paid.size, 0, 'and failed: the database is down');
      await sleep(1_500);
      book.down = false;
      await until('paid once the database is back', () => book.paid.has(reference));
      assert.equal(book.paid.get(reference)!.state.status, 'approved');
      const calls = book.callsFor(reference);
      await sleep(2_500);
      assert.equal(book.callsFor(reference), calls, 'never called after it resolved');
    } finally {
      handler.close();
    }
  });
});

describe('what a hook is told', () => {
  it('a charge whose record the store lost during the challenge: the gateway’s amount, never 0', async () => {
    const book = new OrderBook();
    const store = new FlakyStore();
    const handler = instance(book, store);
    current = handler;
    try {
      const headers = { 'x-order': `wiped-${process.pid}-${++orders}` };
      const created = await post('/payments', cardBody('4000000000003055'), headers);
      assert.equal(created.body.threeDS?.step, 'challenge', JSON.stringify(created.body));
      store.wipe();
      const page = await completeChallenge(created.body.threeDS, '1234');
      assert.equal(page.status, 200);
      const reference = created.body.reference as string;
      await until('handed over', () => book.paid.has(reference));
      assert.equal(book.paid.get(reference)!.amount, 14_900);
      assert.equal(book.paid.get(reference)!.currency, 'ZAR');
    } finally {
      handler.close();
    }
  });
});

describe('reconcile(): the gateway’s record makes the shop whole', () => {
  it('a store lost after the charge and a restart: the sweep hands the charge over exactly once', async () => {
    const book = new OrderBook();
    book.down = true;
    const first = instance(book, new MemoryStore());
    const reference = await pay(first);
    first.close(); // the process dies: its retries with it
    book.down = false;
    // Restarted with an empty store: only the gateway remembers.
    const restarted = instance(book, new MemoryStore());
    try {
      const swept = await restarted.reconcile({ since: Date.now() - 60_000 });
      assert.ok(swept.gatewayCalls >= 1, JSON.stringify(swept));
      assert.ok(swept.delivered >= 1, JSON.stringify(swept));
      assert.equal(book.paid.get(reference)?.amount, 14_900);
      assert.match(book.paid.get(reference)!.merchantReference, /^delivery-\d+-\d+-1$/);
      assert.equal(book.paid.get(reference)!.orderReference, `delivery-${process.pid}-${orders}`);
      const calls = book.callsFor(reference);
      const again = await restarted.reconcile({ since: Date.now() - 60_000 });
      assert.equal(again.failed, 0);
      assert.equal(book.callsFor(reference), calls, 'handed over once');
      assert.equal(calls, 2, 'the failed call before the crash, and the sweep’s');
    } finally {
      restarted.close();
    }
  });

  it('two instances sharing a store hand a fact over once, even while its hook is running', async () => {
    const book = new OrderBook();
    const store = new MemoryStore();
    const a = instance(book, store);
    const b = instance(book, store);
    try {
      book.writeMs = 400;
      current = a;
      const order = `shared-${process.pid}-${++orders}`;
      const paying = post('/payments', cardBody('4111111111111111'), { 'x-order': order });
      await sleep(200); // a's hook is running now
      const during = await Promise.all([b.reconcile(), b.reconcile()]);
      const paid = await paying;
      const reference = paid.body.reference as string;
      assert.equal(book.callsFor(reference), 1, JSON.stringify(during));
      book.writeMs = 0;
      // Its hook failing on a, both instances sweeping at once: one more call in all.
      book.down = true;
      const second = await pay(a);
      a.close();
      book.down = false;
      await Promise.all([a.reconcile(), b.reconcile(), b.reconcile()]);
      await Promise.all([a.reconcile(), b.reconcile()]);
      assert.equal(book.callsFor(second), 2);
      assert.ok(book.paid.has(second));
    } finally {
      a.close();
      b.close();
    }
  });

  it('a gateway outage during a sweep is reported as failed, and the next sweep delivers', async () => {
    const book = new OrderBook();
    book.down = true;
    const first = instance(book, new MemoryStore());
    const reference = await pay(first);
    first.close();
    book.down = false;
    const store = new MemoryStore();
    // The gateway unreachable: a closed port.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    const cut = createCheckoutHandler({
      gateway: { baseUrl: deadUrl, token: sandbox.token, secret: sandbox.secret, timeoutMs: 2_000 },
      publicUrl: `${base}/api/checkout`,
      store,
      resolveOrder: () => ({ amount: 14_900, currency: 'ZAR', reference: 'none' }),
      onPaymentCompleted: book.onPaymentCompleted,
      logger: silent,
    });
    const swept = await cut.reconcile();
    cut.close();
    assert.ok(swept.failed >= 1, JSON.stringify(swept));
    assert.equal(book.paid.size, 0);
    const back = instance(book, store);
    try {
      const later = await back.reconcile();
      assert.equal(later.failed, 0, JSON.stringify(later));
      assert.equal(book.paid.get(reference)?.amount, 14_900, 'nothing lost');
    } finally {
      back.close();
    }
  });
});
