/**
 * Refunds found and counted only with calls the spec offers (issue 38, case 1), against a gateway
 * that does only what the spec says: its list by `paymentReference` answers that one transaction,
 * an over-refund may go through and a reused merchant reference may make a new transaction. Refund
 * slots `<P>~r<i>` are looked up by merchant reference; the key is kept in the core's book.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { FlakyStore } from '@pg-checkout/test-helpers/flaky-store';
import { startRedis, type TestRedis } from '@pg-checkout/test-helpers/redis-server';
import {
  createCheckoutHandler,
  MemoryStore,
  RedisStore,
  type CheckoutStore,
  type RefundEvent,
} from '../src/index.js';
import { parseRefundReference, refundReference } from '../src/facts/refund-slots.js';
import { refund, type RefundResult } from '../src/use-cases/refund.js';
import { refundable, RefundError } from '../src/use-cases/refundable.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const SECRET = 'webhook-secret';
const key = () => `k-${randomUUID()}`;
/** As the sandbox's strict profile: over-refunds accepted, reused merchant references new transactions. */
const strict = (refundLatencyMs = 0) =>
  new FakeGateway({ overRefund: 'accept', duplicateReference: 'new-transaction', refundLatencyMs });

/** The shop's refund book: one row per merchant reference, every hook call counted. */
class Book {
  calls: string[] = [];
  readonly rows = new Map<string, RefundEvent>();
  down = false;
  readonly onRefundCompleted = async (event: RefundEvent) => {
    this.calls.push(event.merchantReference);
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    if (!this.rows.has(event.merchantReference)) this.rows.set(event.merchantReference, event);
  };
}

function checkout(gateway: FakeGateway, store: CheckoutStore, book: Book) {
  return createCheckoutHandler({
    gateway,
    publicUrl: 'https://shop.test/checkout',
    resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'o-1' }),
    store,
    webhookSecret: SECRET,
    onRefundCompleted: book.onRefundCompleted,
    rateLimit: false,
    logger: silent,
  });
}

describe('refund slots: the merchant reference is derived from the payment', () => {
  it('`<P>~r<i>`, and the hash form past 99 characters; both read back', async () => {
    assert.equal(await refundReference('SB123', 1), 'SB123~r1');
    assert.deepEqual(parseRefundReference('SB123~r12'), { prefix: 'SB123', i: 12, hashed: false });
    const long = 'P'.repeat(97);
    const hex = createHash('sha256').update(long).digest('hex').slice(0, 20);
    assert.equal(await refundReference(long, 1), `h${hex}~r1`);
    assert.equal((await refundReference('P'.repeat(96), 9)).length, 99, 'still the plain form');
    assert.ok((await refundReference('P'.repeat(96), 10)).startsWith('h'));
    assert.equal(parseRefundReference(`h${hex}~r3`)?.hashed, true);
    assert.equal(parseRefundReference('order-1-1'), undefined);
    assert.equal(parseRefundReference('refund-abc'), undefined);
  });
});

describe('what is left, from the lookups of the slots (the list by paymentReference answers only the payment)', () => {
  it('after R 30,00 of R 100,00: 70,00 left, and a further R 80,00 is refused, nothing sent', async () => {
    const gateway = strict();
    const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
    const first = await refund({ reference: P, amount: 3_000, key: key() }, { gateway });
    assert.equal(first.status, 'refunded');
    const now = await refundable(P, { gateway });
    assert.deepEqual([now.amount, now.refunded, now.pending, now.left], [10_000, 3_000, 0, 7_000]);
    assert.deepEqual(
      now.refunds.map((r) => [r.merchantReference, r.amount]),
      [[`${P}~r1`, -3_000]],
    );
    await assert.rejects(
      refund({ reference: P, amount: 8_000, key: key() }, { gateway }),
      (e: unknown) => e instanceof RefundError && e.code === 'more_than_left' && e.left === 7_000,
    );
    assert.equal(gateway.refundedOf(P), 3_000, 'never past what is left');
    assert.equal(first.refund.merchantReference, `${P}~r1`);
  });

  it('the book lost: a new key still counts the earlier slots from the gateway, and takes the next', async () => {
    const gateway = strict();
    const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
    await refund(
      { reference: P, amount: 6_000, key: key() },
      { gateway, store: new MemoryStore() },
    );
    const second = await refund(
      { reference: P, key: key() },
      { gateway, store: new MemoryStore() }, // another process, its own memory
    );
    assert.equal(second.status, 'refunded');
    assert.equal(second.refund.amount, 4_000, 'all that is left');
    assert.equal(second.refund.merchantReference, `${P}~r2`);
    assert.equal(gateway.refundedOf(P), 10_000);
  });
});

describe('concurrent refunds of one payment never pass the charge (a gateway that accepts over-refunds)', () => {
  let redis: TestRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis.stop());

  const stores: [string, () => CheckoutStore][] = [
    ['memory store', () => new MemoryStore()],
    ['RedisStore', () => new RedisStore({ client: redis.client() })],
  ];
  for (const [name, makeStore] of stores) {
    it(`${name}: 8 keys at once, R 30,00 each of R 100,00: 3 refunded, the rest more_than_left`, async () => {
      const gateway = strict(5);
      const book = new Book();
      const handler = checkout(gateway, makeStore(), book);
      try {
        const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, () =>
            handler.refund({ reference: P, amount: 3_000, key: key() }),
          ),
        );
        const done = results.filter((r) => r.status === 'fulfilled');
        assert.equal(done.length, 3, JSON.stringify(results.map((r) => r.status)));
        for (const r of results)
          if (r.status === 'rejected')
            assert.equal((r.reason as RefundError).code, 'more_than_left', String(r.reason));
        assert.equal(gateway.refundedOf(P), 9_000);
        assert.deepEqual(
          new Set(
            done.map(
              (r) => (r as PromiseFulfilledResult<RefundResult>).value.refund.merchantReference,
            ),
          ),
          new Set([`${P}~r1`, `${P}~r2`, `${P}~r3`]),
        );
        assert.equal(book.rows.size, 3);
      } finally {
        handler.close();
      }
    });

    it(`${name}: the same key twice at once refunds once`, async () => {
      const gateway = strict(5);
      const book = new Book();
      const handler = checkout(gateway, makeStore(), book);
      try {
        const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
        const k = key();
        const [a, b] = await Promise.all([
          handler.refund({ reference: P, amount: 2_500, key: k }),
          handler.refund({ reference: P, amount: 2_500, key: k }),
        ]);
        assert.deepEqual([a.status, b.status].sort(), ['already_refunded', 'refunded']);
        assert.equal(a.refund.key, k);
        assert.equal(b.refund.merchantReference, a.refund.merchantReference);
        assert.equal(gateway.refundedOf(P), 2_500);
        assert.equal(gateway.refundsOf(P).length, 1);
        assert.equal(book.rows.get(`${P}~r1`)?.key, k);
      } finally {
        handler.close();
      }
    });
  }

  it('the plain function (no store given): 6 keys at once in one process never pass the charge', async () => {
    const gateway = strict(5);
    const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        refund({ reference: P, amount: 4_000, key: key() }, { gateway }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2);
    assert.equal(gateway.refundedOf(P), 8_000);
  });
});

describe('a store that cannot keep the key', () => {
  it('sends nothing (store_unavailable); refundable() still reads the gateway’s slots', async () => {
    const gateway = strict();
    const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
    const store = new FlakyStore();
    await refund({ reference: P, amount: 1_000, key: key() }, { gateway, store });
    store.down = true;
    await assert.rejects(
      refund({ reference: P, amount: 1_000, key: key() }, { gateway, store }),
      (e: unknown) => e instanceof RefundError && e.code === 'store_unavailable',
    );
    assert.equal(gateway.refundedOf(P), 1_000, 'nothing sent while the store is down');
    assert.equal((await refundable(P, { gateway, store })).left, 9_000);
  });
});

describe('a lost answer, then the same key again', () => {
  it('processed then timed out, not yet shown: unknown, counted pending; the retry refunds once', async () => {
    const gateway = strict();
    const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
    const store = new MemoryStore();
    const k = key();
    // Processed, and its answer lost; the lookup right after it does not show it yet.
    gateway.refundFault = 'processed';
    const hidden = new Set<string>();
    const lagging = Object.assign(Object.create(gateway) as FakeGateway, {
      reconcile: async (m: string) =>
        hidden.has(m) ? { found: false as const } : gateway.reconcile(m),
    });
    hidden.add(`${P}~r1`);
    const lost = await refund({ reference: P, amount: 7_000, key: k }, { gateway: lagging, store });
    assert.equal(lost.status, 'unknown');
    assert.equal(lost.refund.key, k);
    // Meanwhile another key: the open slot is counted pending, so nothing passes the charge.
    const now = await refundable(P, { gateway: lagging, store });
    assert.deepEqual([now.refunded, now.pending, now.left], [0, 7_000, 3_000]);
    await assert.rejects(
      refund({ reference: P, amount: 7_000, key: key() }, { gateway: lagging, store }),
      (e: unknown) => e instanceof RefundError && e.code === 'more_than_left',
    );
    hidden.clear();
    const again = await refund({ reference: P, amount: 7_000, key: k }, { gateway, store });
    assert.equal(again.status, 'already_refunded');
    assert.equal(gateway.refundedOf(P), 7_000);
    assert.equal(gateway.refundsOf(P).length, 1, 'refunded once');
  });

  it('timed out before it reached the gateway: the retry with the same key sends it, once, in its slot', async () => {
    const gateway = strict();
    const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
    const store = new MemoryStore();
    const k = key();
    gateway.refundFault = 'lost';
    const lost = await refund({ reference: P, amount: 2_000, key: k }, { gateway, store });
    assert.equal(lost.status, 'unknown');
    const again = await refund({ reference: P, amount: 2_000, key: k }, { gateway, store });
    assert.equal(again.status, 'refunded');
    assert.equal(again.refund.merchantReference, `${P}~r1`);
    const third = await refund({ reference: P, amount: 2_000, key: k }, { gateway, store });
    assert.equal(third.status, 'already_refunded');
    assert.equal(gateway.refundedOf(P), 2_000);
  });
});

describe('refunds reach the shop without the list by paymentReference', () => {
  it('a lost store: the sweep delivers the earlier refunds (their slots read again) once', async () => {
    const gateway = strict();
    const book = new Book();
    const since = Date.now();
    const first = checkout(gateway, new MemoryStore(), book);
    const order = `order-${randomUUID()}`;
    const P = gateway.settle(14_900, `${order}-1`);
    book.down = true;
    const a = await first.refund({ reference: P, amount: 4_900, key: key() });
    const b = await first.refund({ reference: P, key: key() });
    first.close();
    book.down = false;
    assert.equal(book.rows.size, 0);
    const restarted = checkout(gateway, new MemoryStore(), book);
    try {
      const swept = await restarted.reconcile({ since });
      assert.equal(swept.failed, 0, JSON.stringify(swept));
      for (const [result, amount] of [
        [a, 4_900],
        [b, 10_000],
      ] as const) {
        const row = book.rows.get(result.refund.merchantReference);
        assert.ok(row, `${result.refund.merchantReference} delivered`);
        assert.equal(row.amount, amount);
        assert.equal(row.paymentReference, P);
        assert.equal(row.orderReference, order);
      }
      const calls = book.calls.length;
      const again = await restarted.reconcile({ since });
      assert.equal(again.delivered, 0, JSON.stringify(again));
      assert.equal(book.calls.length, calls, 'once');
    } finally {
      restarted.close();
    }
  });

  it('a refund notification naming `<P>~r<i>` delivers that refund', async () => {
    const gateway = strict();
    const book = new Book();
    const store = new MemoryStore();
    const P = gateway.settle(10_000, `order-${randomUUID()}-1`);
    // Made by another process of the shop (its own store): this one learns of it by its notification.
    const made = await refund({ reference: P, amount: 1_500, key: key() }, { gateway });
    const handler = checkout(gateway, store, book);
    try {
      const refundOwn = made.refund.reference!;
      for (const paymentReference of [refundOwn, P]) {
        const response = await handler(
          new Request('https://shop.test/checkout/webhooks/notify', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              success: true,
              amount: -1_500,
              currency: 'ZAR',
              paymentReference,
              merchantReference: `${P}~r1`,
              status: 'REFUNDED',
              hash: createHash('md5')
                .update(paymentReference + SECRET)
                .digest('hex'),
            }),
          }),
          { clientAddress: '203.0.113.9' },
        );
        assert.equal(response.status, 200, await response.text());
      }
      assert.equal(book.rows.get(`${P}~r1`)?.amount, 1_500);
      assert.equal(book.rows.get(`${P}~r1`)?.paymentReference, P);
      assert.equal(book.calls.length, 1, 'once');
    } finally {
      handler.close();
    }
  });
});
