/**
 * Refunds reach the shop once (issue 26): a refund made with `checkout.refund` goes through the same
 * outbox as payment facts. A hook that throws is called again (retry, then the sweep); a store lost
 * after the refund is made whole from the gateway's list; a delivered refund is never handed over
 * again; a pending (code 7) refund is delivered once the gateway completes it (sweep or notification).
 * Against the real sandbox, through the Fetch handler.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { Sandbox } from '@pg-checkout/sandbox';
import {
  createCheckoutHandler,
  MemoryStore,
  type CheckoutStore,
  type RefundEvent,
} from '../src/index.js';
import { inMemoryTelemetry, sumOf } from './helpers/telemetry.js';
import { cardBody, serveHandler } from '@pg-checkout/test-helpers/fetch-server';
import { sleep, until } from './helpers/wait.js';
import { startTestSandbox } from '@pg-checkout/test-helpers/sandbox';

type Handler = ReturnType<typeof createCheckoutHandler>;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DAY = 24 * 60 * 60_000;

/** The merchant's refund book: refuses writes while `down`; records a refund once per merchant reference. */
class RefundBook {
  down = false;
  /** Every call the hook got, failed or not, by merchant reference. */
  calls: string[] = [];
  readonly refunds = new Map<string, RefundEvent>();
  readonly onRefundCompleted = async (event: RefundEvent): Promise<void> => {
    this.calls.push(event.merchantReference);
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    if (!this.refunds.has(event.merchantReference))
      this.refunds.set(event.merchantReference, event);
  };
  callsFor = (merchantReference: string) =>
    this.calls.filter((r) => r === merchantReference).length;
}

const card = cardBody('4111111111111111');

let sandbox: Sandbox;
let served: Awaited<ReturnType<typeof serveHandler>>;
let base: string;
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
  book: RefundBook,
  store: CheckoutStore,
  extra: Partial<Parameters<typeof createCheckoutHandler>[0]> = {},
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
    onRefundCompleted: book.onRefundCompleted,
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
  // The checkout's answers are read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as any };
}

/** A settled card payment of R 149,00 for a new order: its gateway reference and order. */
async function pay(handler: Handler): Promise<{ reference: string; order: string }> {
  current = handler;
  const order = `refunds-${process.pid}-${++orders}`;
  const paid = await post('/payments', card, { 'x-order': order });
  assert.equal(paid.body.status, 'approved', JSON.stringify(paid.body));
  return { reference: paid.body.reference as string, order };
}

const key = () => `t-${randomUUID()}`;

describe('a refund whose hook throws is called again until it resolves', () => {
  it('throws once: the retry in this process delivers it, and the sweep never again', async () => {
    const book = new RefundBook();
    const handler = instance(book, new MemoryStore());
    try {
      const { reference } = await pay(handler);
      book.down = true;
      const result = await handler.refund({ reference, amount: 2_000, key: key() });
      assert.equal(result.status, 'refunded', 'the refund stands: the hook threw after it');
      const merchantReference = result.refund.merchantReference;
      assert.equal(book.callsFor(merchantReference), 1);
      assert.equal(book.refunds.size, 0);
      book.down = false;
      await until('recorded after the retry', () => book.refunds.has(merchantReference));
      assert.equal(book.callsFor(merchantReference), 2);
      assert.deepEqual(
        { ...book.refunds.get(merchantReference) },
        { ...result.refund, amount: 2_000, currency: 'ZAR', paymentReference: reference },
      );
      await sleep(2_500);
      const swept = await handler.reconcile();
      assert.equal(swept.delivered, 0, JSON.stringify(swept));
      assert.equal(book.callsFor(merchantReference), 2, 'never called after it resolved');
    } finally {
      handler.close();
    }
  });

  it('throws, and the process restarts: reconcile() on the same store delivers it from the outbox', async () => {
    const book = new RefundBook();
    const store = new MemoryStore();
    const first = instance(book, store);
    const { reference } = await pay(first);
    book.down = true;
    const result = await first.refund({ reference, amount: 3_000, key: key() });
    first.close(); // the process dies: its retries with it
    book.down = false;
    const merchantReference = result.refund.merchantReference;
    const restarted = instance(book, store);
    try {
      const swept = await restarted.reconcile();
      assert.ok(swept.delivered >= 1, JSON.stringify(swept));
      assert.equal(book.refunds.get(merchantReference)?.amount, 3_000);
      assert.equal(book.refunds.get(merchantReference)?.paymentReference, reference);
      const again = await restarted.reconcile();
      assert.equal(again.failed, 0, JSON.stringify(again));
      assert.equal(book.callsFor(merchantReference), 2, 'the failed call and the sweep’s');
    } finally {
      restarted.close();
    }
  });
});

describe('telemetry: a refund’s hook counted as `refund`', () => {
  it('a throw is a failed delivery that waits; the sweep’s is delivered', async () => {
    const telemetry = inMemoryTelemetry();
    // Earlier tests' refunds are on the gateway's list too: this window leaves them out.
    const since = Date.now();
    const book = new RefundBook();
    const handler = instance(book, new MemoryStore(), { telemetry: telemetry.options });
    try {
      const { reference } = await pay(handler);
      book.down = true;
      await handler.refund({ reference, amount: 900, key: key() });
      const refund = { 'pg_checkout.hook': 'refund' };
      let m = await telemetry.metrics();
      assert.equal(
        sumOf(m, 'pg_checkout.hook.deliveries', { ...refund, 'pg_checkout.outcome': 'failed' }),
        1,
      );
      assert.equal(sumOf(m, 'pg_checkout.hook.deliveries.waiting'), 1);
      book.down = false;
      await handler.reconcile({ since });
      m = await telemetry.metrics();
      assert.equal(
        sumOf(m, 'pg_checkout.hook.deliveries', { ...refund, 'pg_checkout.outcome': 'delivered' }),
        1,
      );
      assert.equal(sumOf(m, 'pg_checkout.hook.deliveries.waiting'), 0);
    } finally {
      handler.close();
      await telemetry.shutdown();
    }
  });
});

describe('reconcile(): the gateway’s list makes a lost store whole', () => {
  it('a store wiped after a refund whose hook never resolved: the sweep delivers it, once', async () => {
    const book = new RefundBook();
    const since = Date.now(); // earlier tests’ refunds (of charges before it) stay out
    const first = instance(book, new MemoryStore());
    const { reference, order } = await pay(first);
    // A second paid order in the window whose refunds are not the lost one's: placed by its own list.
    const other = await pay(first);
    book.down = true;
    const partial = await first.refund({ reference, amount: 4_900, key: key() });
    const rest = await first.refund({ reference, key: key() });
    first.close();
    book.down = false;
    assert.equal(book.refunds.size, 0);
    const restarted = instance(book, new MemoryStore());
    try {
      // Its own book and store: the sweep hands over every refund in the window, earlier tests' too.
      const swept = await restarted.reconcile({ since });
      assert.ok(swept.delivered >= 2, JSON.stringify(swept));
      assert.equal(swept.failed, 0, JSON.stringify(swept));
      for (const [result, amount] of [
        [partial, 4_900],
        [rest, 10_000],
      ] as const) {
        const event = book.refunds.get(result.refund.merchantReference);
        assert.ok(event, `${result.refund.merchantReference} delivered`);
        assert.equal(event.amount, amount);
        assert.equal(event.currency, 'ZAR');
        assert.equal(event.paymentReference, reference);
        assert.equal(event.orderReference, order);
        assert.ok(event.reference, 'the refund’s own gateway reference');
        assert.notEqual(event.paymentReference, other.reference);
        assert.equal(book.callsFor(result.refund.merchantReference), 2);
      }
      const calls = book.calls.length;
      const again = await restarted.reconcile({ since });
      assert.equal(again.delivered, 0, JSON.stringify(again));
      assert.equal(again.failed, 0, JSON.stringify(again));
      assert.equal(book.calls.length, calls, 'handed over once');
    } finally {
      restarted.close();
    }
  });

  it('a lost refund of a charge before the window: its slot names the payment, delivered by a run that does not reach back', async () => {
    const book = new RefundBook();
    const first = instance(book, new MemoryStore());
    const { reference, order } = await pay(first);
    await sleep(50);
    const refundedFrom = Date.now();
    book.down = true;
    const result = await first.refund({ reference, amount: 700, key: key() });
    first.close();
    book.down = false;
    const restarted = instance(book, new MemoryStore());
    try {
      const narrow = await restarted.reconcile({ since: refundedFrom });
      assert.equal(narrow.failed, 0, JSON.stringify(narrow));
      const event = book.refunds.get(result.refund.merchantReference);
      assert.equal(event?.paymentReference, reference);
      assert.equal(event?.amount, 700);
      // Its charge is not on the window's list: the order is not known from it.
      assert.notEqual(event?.orderReference, order);
    } finally {
      restarted.close();
    }
  });

  it('a refund delivered once is not delivered again: not by the sweep, not by its key again', async () => {
    const book = new RefundBook();
    const since = Date.now(); // earlier tests’ refunds (of charges before it) stay out
    const handler = instance(book, new MemoryStore());
    try {
      const { reference } = await pay(handler);
      const k = key();
      const result = await handler.refund({ reference, amount: 1_500, key: k });
      assert.equal(result.status, 'refunded');
      const merchantReference = result.refund.merchantReference;
      assert.equal(book.callsFor(merchantReference), 1);
      await handler.reconcile({ since });
      assert.equal(book.callsFor(merchantReference), 1, 'not by the sweep');
      const twice = await handler.refund({ reference, amount: 1_500, key: k });
      assert.equal(twice.status, 'already_refunded');
      assert.equal(book.callsFor(merchantReference), 1, 'one call in all');
    } finally {
      handler.close();
    }
  });
});

describe('a pending (code 7) refund reaches the shop when the gateway completes it', () => {
  it('by the sweep: not before it completes, once after', async () => {
    const book = new RefundBook();
    const handler = instance(book, new MemoryStore());
    try {
      const { reference } = await pay(handler);
      const result = await handler.refund({ reference, amount: 1_007, key: key() });
      assert.equal(result.status, 'pending');
      const merchantReference = result.refund.merchantReference;
      await handler.reconcile();
      assert.equal(book.callsFor(merchantReference), 0, 'not refunded yet');
      await advanceSandbox(DAY + 1_000);
      await handler.reconcile();
      assert.equal(book.refunds.get(merchantReference)?.amount, 1_007);
      assert.equal(book.refunds.get(merchantReference)?.paymentReference, reference);
      await handler.reconcile();
      assert.equal(book.callsFor(merchantReference), 1, 'once');
    } finally {
      handler.close();
    }
  });

  it('by its notification: the payment’s refunds are read from the gateway and handed over', async () => {
    const book = new RefundBook();
    const handler = instance(book, new MemoryStore());
    try {
      const { reference, order } = await pay(handler);
      const result = await handler.refund({ reference, amount: 2_007, key: key() });
      assert.equal(result.status, 'pending');
      const merchantReference = result.refund.merchantReference;
      await advanceSandbox(DAY + 1_000);
      // What the gateway posts to the notify URL when a manual refund completes.
      const notification = {
        success: true,
        amount: -2_007,
        currency: 'ZAR',
        paymentReference: reference,
        merchantReference: `${order}-1`,
        status: 'REFUNDED',
        hash: createHash('md5')
          .update(reference + sandbox.secret)
          .digest('hex'),
      };
      const answer = await post('/webhooks/notify', notification);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(book.refunds.get(merchantReference)?.amount, 2_007);
      assert.equal(book.refunds.get(merchantReference)?.orderReference, order);
      // Posted again (the gateway retries), then swept: never a second call.
      await post('/webhooks/notify', notification);
      await handler.reconcile();
      assert.equal(book.callsFor(merchantReference), 1);
    } finally {
      handler.close();
    }
  });
});

async function advanceSandbox(ms: number): Promise<void> {
  const res = await fetch(`${sandbox.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  assert.equal(res.status, 200);
}
