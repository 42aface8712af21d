/**
 * One book per order (issues 30 and 35): a gateway answer is recorded with one call that moves the
 * attempt and keeps its payment in the order's one document, written in one store call; a lost
 * write loses both together; documents and records of the previous release are still read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../src/stores/memory.js';
import type { CheckoutStore } from '../src/stores/store.js';
import type { PaymentEvent } from '../src/options.js';
import { paymentStatus } from '../src/use-cases/status.js';
import { confirmProof } from '../src/use-cases/confirm-proof.js';
import { methodContent } from '../src/use-cases/three-ds-pages.js';
import { orderKeys, paymentKeys } from '../src/stores/keys.js';
import { recordAnswer, readPayment, withOrder } from '../src/order/book.js';
import { startAttempt, type Ledger } from '../src/order/ledger.js';
import { coreHarness } from './helpers/core.js';

/** A memory store that counts its calls and can lose the next write-back of the order's document. */
class ProbedStore extends MemoryStore {
  calls: string[] = [];
  /** The next ledger write (with the lock's release) is lost: only the release goes through. */
  loseNextLedger = false;

  override async get(key: string) {
    this.calls.push('get');
    return super.get(key);
  }
  override async set(key: string, value: string, ttlMs: number) {
    this.calls.push('set');
    return super.set(key, value, ttlMs);
  }
  override async setIfAbsent(key: string, value: string, ttlMs: number) {
    this.calls.push('setIfAbsent');
    return super.setIfAbsent(key, value, ttlMs);
  }
  override async lockAndGet(lockKey: string, ttlMs: number, key: string, token?: string) {
    this.calls.push('lockAndGet');
    return super.lockAndGet(lockKey, ttlMs, key, token);
  }
  override async writeAll(
    ops: Parameters<CheckoutStore['writeAll']>[0],
    ifHeld?: Parameters<CheckoutStore['writeAll']>[1],
  ) {
    this.calls.push('writeAll');
    if (this.loseNextLedger && ops.some((op) => op.key.endsWith(':ledger'))) {
      this.loseNextLedger = false;
      return super.writeAll(
        ops.filter((op) => !op.key.endsWith(':ledger')),
        ifHeld,
      );
    }
    return super.writeAll(ops, ifHeld);
  }
}

function setup(options: { hook?: boolean } = {}) {
  let resolves = 0;
  const completed: string[] = [];
  const core = coreHarness({
    store: new ProbedStore(),
    resolveOrder: () => {
      resolves++;
      return { amount: 14_900, currency: 'ZAR', reference: 'cart-1' };
    },
    options:
      options.hook === false
        ? {}
        : { onPaymentCompleted: (event: PaymentEvent) => void completed.push(event.reference) },
  });
  const ledger = async () =>
    JSON.parse((await core.store.get(orderKeys('cart-1').ledger)) ?? '{"attempts":{}}') as Ledger;
  // The bank's good Step-2 proof for the order's first attempt (a challenge passed).
  const proof = () =>
    confirmProof(core.ctx, { order: 'cart-1', n: 1, version: 2, proof: 'good-proof' });
  const status = (reference: string) =>
    paymentStatus({ reference, merchantReference: 'cart-1-1' }, core.caller(), core.ctx);
  return { ...core, ledger, proof, status, completed, resolves: () => resolves };
}

/** What the book keeps of attempt 1 of `cart-1`, paid with gateway reference `reference`. */
const keptOf = (reference: string) => ({
  reference,
  merchantReference: 'cart-1-1',
  orderReference: 'cart-1',
  amount: 14_900,
  currency: 'ZAR',
});

describe('one call records a gateway answer in the book', () => {
  it('moves the attempt, keeps its payment and runs its hook; both are written with the lock, together', async () => {
    const t = setup();
    const payment = keptOf('pg-1');
    const answer = async (event: 'created' | 'charged', status: 'pending' | 'approved') =>
      withOrder(t.ctx, 'cart-1', async (book) => {
        const n =
          event === 'created'
            ? startAttempt(
                book.ledger,
                { method: 'card', amount: 14_900, currency: 'ZAR' },
                t.ctx.now(),
              ).n
            : 1;
        await recordAnswer(t.ctx, book, n, {
          event,
          payment: {
            ...payment,
            state: { success: true, status, reference: 'pg-1', message: 'ok' },
          },
        });
        assert.equal(book.ledger.attempts[n]?.status, event === 'created' ? 'open' : 'paid');
        assert.equal(book.ledger.attempts[n]?.reference, 'pg-1');
        assert.equal(book.ledger.attempts[n]?.payment?.state.status, status);
        // One document: the attempt and its payment wait for the lock's release, together.
        const stored = await t.ledger();
        assert.equal(stored.attempts[n]?.status, event === 'created' ? undefined : 'open');
        assert.equal(
          (await readPayment(t.ctx, 'cart-1-1', 'pg-1'))?.state.status,
          event === 'created' ? undefined : 'pending',
        );
      });
    await answer('created', 'pending');
    assert.equal((await t.ledger()).attempts[1]?.status, 'open');
    assert.equal((await readPayment(t.ctx, 'cart-1-1', 'pg-1'))?.state.status, 'pending');
    assert.deepEqual(t.completed, []);
    await answer('charged', 'approved');
    assert.equal((await t.ledger()).attempts[1]?.status, 'paid');
    assert.equal((await readPayment(t.ctx, 'cart-1-1', 'pg-1'))?.state.status, 'approved');
    assert.deepEqual(t.completed, ['pg-1']);
  });

  it('a payment with a challenge keeps no record of its own: one document, one write per locked call', async () => {
    const t = setup();
    const created = await t.pay('4000000000003055');
    assert.equal(created.status, 'authenticating');
    t.store.calls.length = 0;
    const done = await t.proof();
    assert.equal(done.kind === 'done' && done.state.status, 'approved');
    // The proof's call: the lock with the document, the hook's claim and mark, one write-back.
    assert.deepEqual(t.store.calls, ['lockAndGet', 'setIfAbsent', 'set', 'writeAll']);
    assert.equal(await t.store.get(paymentKeys(created.reference!).record), undefined);
    const attempt = (await t.ledger()).attempts[1];
    assert.equal(attempt?.status, 'paid');
    assert.equal(attempt?.payment?.state.status, 'approved');
  });
});

describe('a lost write loses the attempt and its payment together, never one of them', () => {
  it('the write-back lost after a proof: the status, a replayed proof and the next Pay all say paid, once', async () => {
    const t = setup();
    const created = await t.pay('4000000000003055');
    assert.equal(created.status, 'authenticating');
    t.store.loseNextLedger = true;
    const done = await t.proof();
    assert.equal(done.kind, 'done');
    const lost = (await t.ledger()).attempts[1];
    assert.equal(lost?.status, 'open', 'the write was lost');
    assert.equal(lost?.payment?.state.status, 'authenticating', 'with its payment, not apart');
    assert.equal((await t.status(created.reference!)).status, 'approved');
    const replay = await t.proof();
    assert.equal(replay.kind, 'done');
    assert.equal(replay.kind === 'done' && replay.state.status, 'approved');
    const again = await t.pay('4111111111111111');
    assert.equal(again.status, 'approved');
    assert.equal(again.reference, created.reference, 'the paid payment, not a new one');
    assert.equal(t.gateway.charged().length, 1);
    assert.equal(t.gateway.calls.filter((c) => c === 'confirm3dsV2').length, 1);
  });
});

describe('a lookup under the lock ends the kept answer with the status', () => {
  it('the write-back lost, then Pay again: the document says paid and approved, the hook ran once', async () => {
    const t = setup();
    const created = await t.pay('4000000000003055');
    t.store.loseNextLedger = true;
    await t.proof();
    assert.equal((await t.ledger()).attempts[1]?.payment?.state.status, 'authenticating');
    const again = await t.pay('4111111111111111');
    assert.equal(again.reference, created.reference, 'the paid payment, not a new one');
    const attempt = (await t.ledger()).attempts[1];
    assert.equal(attempt?.status, 'paid');
    assert.equal(attempt?.payment?.state.status, 'approved', 'the answer moved with the status');
    assert.deepEqual(t.completed, [created.reference]);
    assert.equal(t.gateway.charged().length, 1);
  });
});

describe('what is learnt outside the lock', () => {
  it("a status read keeps the gateway's final word in the document when the lock is free, and leaves it to the holder when not", async () => {
    const t = setup();
    const created = await t.pay('4000000000003055');
    const reference = created.reference!;
    // The proof's write-back is lost: the document still says open / authenticating.
    t.store.loseNextLedger = true;
    await t.proof();
    // Someone holds the order's lock: the read answers the gateway's word and writes nothing.
    const lock = orderKeys('cart-1').lock;
    assert.equal(await t.store.setIfAbsent(lock, 'someone', 60_000), true);
    assert.equal((await t.status(reference)).status, 'approved');
    assert.equal((await t.ledger()).attempts[1]?.status, 'open');
    assert.equal(await t.store.get(lock), 'someone', 'the holder keeps its lock');
    await t.store.delete(lock);
    // The lock is free: the read writes the lookup into the document, status and answer together.
    assert.equal((await t.status(reference)).status, 'approved');
    const attempt = (await t.ledger()).attempts[1];
    assert.equal(attempt?.status, 'paid');
    assert.equal(attempt?.payment?.state.status, 'approved');
    assert.equal(await t.store.get(lock), undefined, 'and gives the lock back');
    t.gateway.calls.length = 0;
    assert.equal((await t.status(reference)).status, 'approved');
    assert.deepEqual(t.gateway.calls, [], 'then answered from the document');
    assert.deepEqual(t.completed, [reference], 'the hook ran once');
  });
});

describe('records written by the previous release are read (a rolling deploy)', () => {
  it('an old-shape ledger and payment record: the method page, Step 2 proof and status work', async () => {
    const t = setup();
    // A payment the previous release created: the gateway holds it, the store holds what that
    // release wrote, byte for byte in its shapes (ledger attempts, `{p:ref}:pay` record).
    const outcome = await t.gateway.payments.create({
      creditCard: { number: '4000000000003063' },
      transaction: { reference: 'cart-1-1', amount: 14_900, currency: 'ZAR' },
    });
    assert.equal(outcome.kind, '3ds-v2-method');
    const reference = outcome.reference;
    const v2 = outcome.kind === '3ds-v2-method' ? outcome.threeDSecureV2 : undefined;
    await t.store.set(
      orderKeys('cart-1').ledger,
      JSON.stringify({
        attempts: {
          '1': {
            method: 'card',
            status: 'open',
            amount: 14_900,
            currency: 'ZAR',
            openedAt: Date.now(),
            reference,
          },
        },
      }),
      60_000,
    );
    await t.store.set(
      paymentKeys(reference).record,
      JSON.stringify({
        merchantReference: 'cart-1-1',
        orderReference: 'cart-1',
        amount: 14_900,
        currency: 'ZAR',
        pageOrigin: 'https://shop.test',
        method: 'card',
        shopperId: undefined,
        reference,
        state: { success: true, status: 'authenticating', reference, threeDS: { version: 2 } },
        threeDS: {
          version: 2,
          transactionId: v2!.transactionId,
          txId: v2!.txId,
          tdsMethodContent: v2!.tdsMethodContent,
        },
      }),
      60_000,
    );
    const page = await methodContent(t.ctx, { order: 'cart-1', n: 1 });
    assert.equal(page?.content, v2!.tdsMethodContent);
    assert.equal(page?.frameAncestor, 'https://shop.test');
    const { confirmStep2 } = await import('../src/use-cases/confirm-step2.js');
    const step2 = await confirmStep2(
      { reference, merchantReference: 'cart-1-1' },
      t.caller(),
      t.ctx,
    );
    assert.equal(step2.status, 'authenticating', 'the challenge follows Step 2');
    const done = await t.proof();
    assert.equal(done.kind === 'done' && done.state.status, 'approved');
    const status = await t.status(reference);
    assert.equal(status.status, 'approved');
    assert.equal((await t.ledger()).attempts[1]?.status, 'paid');
    assert.deepEqual(t.completed, [reference]);
  });

  it("an old-shape document is moved into one at the order's next locked call", async () => {
    const t = setup();
    const record = {
      ...keptOf('pg-old'),
      pageOrigin: 'https://shop.test',
      state: { success: true, status: 'authenticating', reference: 'pg-old' },
    };
    const attempt = {
      method: 'card',
      status: 'open',
      amount: 14_900,
      currency: 'ZAR',
      openedAt: Date.now(),
    };
    await t.store.set(
      orderKeys('cart-1').ledger,
      JSON.stringify({ attempts: { '1': { ...attempt, reference: 'pg-old' } } }),
      60_000,
    );
    await t.store.set(paymentKeys('pg-old').record, JSON.stringify(record), 60_000);
    // Read without the lock: the old key, found through the old document.
    assert.equal((await readPayment(t.ctx, 'cart-1-1', 'pg-old'))?.pageOrigin, 'https://shop.test');
    await withOrder(t.ctx, 'cart-1', async (book) => {
      assert.equal(book.ledger.attempts[1]?.payment?.pageOrigin, 'https://shop.test');
    });
    const moved = await t.ledger();
    assert.equal(moved.v, 2);
    assert.deepEqual(moved.attempts[1]?.payment, record);
    assert.equal(moved.attempts[1]?.status, 'open', 'the attempt as it was');
  });
});

describe('what a status read of an approved payment costs', () => {
  it('a payment the store does not keep (approved without a challenge): one gateway lookup, not two', async () => {
    const t = setup();
    const paid = await t.pay('4111111111111111');
    assert.equal(paid.status, 'approved');
    t.gateway.calls.length = 0;
    const status = await t.status(paid.reference!);
    assert.equal(status.status, 'approved');
    assert.deepEqual(t.gateway.calls, ['lookup']);
  });

  it('a payment the book holds as approved: no gateway call, one store read', async () => {
    const t = setup();
    const created = await t.pay('4000000000003055');
    await t.proof();
    t.gateway.calls.length = 0;
    t.store.calls.length = 0;
    const status = await t.status(created.reference!);
    assert.equal(status.status, 'approved');
    assert.deepEqual(t.gateway.calls, []);
    assert.deepEqual(t.store.calls, ['get']);
  });
});

describe('store round trips of a card payment without a challenge', () => {
  for (const hook of [true, false])
    it(`${hook ? 'with' : 'without'} onPaymentCompleted`, async (t) => {
      const s = setup({ hook });
      assert.equal((await s.pay('4111111111111111')).status, 'approved');
      t.diagnostic(`store calls: ${s.store.calls.length} ${s.store.calls.join(' ')}`);
      // The order's lock and its release; the hook's delivery lock and delivered mark.
      assert.deepEqual(
        s.store.calls,
        hook ? ['lockAndGet', 'setIfAbsent', 'set', 'writeAll'] : ['lockAndGet', 'writeAll'],
      );
    });
});

describe('the use cases change a payment only through the book', () => {
  // The halves' own writers: a use case that imports one keeps two books in step again.
  const WRITERS =
    /\b(move|observe|recordPayment|saveSafely|savePayment|loadPayment|loadPaymentSafely|orderKeys)\b/;
  const dir = new URL('../src/use-cases/', import.meta.url);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts')))
    it(file, () => {
      const source = readFileSync(new URL(file, dir), 'utf8');
      const names = [
        ...source.matchAll(/import (?:type )?\{([^}]*)\} from '\.\.\/(?:order|stores)\/[^']+';/g),
      ].map((m) => m[1]!);
      for (const imported of names) assert.doesNotMatch(imported, WRITERS, `${file}: ${imported}`);
    });
});
