/**
 * Refunds once, against the real sandbox: the key's merchant reference is looked up before anything
 * is sent, what is left comes from the gateway's records (pending refunds taken, not refunded), and a
 * lost answer is "unknown" until the gateway shows the refund, never a second refund.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { GatewayClient } from '@pg-checkout/node';
import type { Sandbox } from '@pg-checkout/sandbox';
import { startSandboxClient } from '@pg-checkout/test-helpers/sandbox-client';
import { refundedAtSandbox, settledPayment } from '@pg-checkout/test-helpers/sandbox-payments';
import { createCheckoutHandler } from '../src/fetch.js';
import { MemoryStore } from '../src/stores/memory.js';
import type { RefundEvent } from '../src/options.js';
import { refund, type RefundResult } from '../src/use-cases/refund.js';
import { refundable, RefundError } from '../src/use-cases/refundable.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DAY = 24 * 60 * 60 * 1000;

describe('refund: once per key, from the gateway’s records', () => {
  let sandbox: Sandbox;
  let client: GatewayClient;

  before(async () => {
    ({ sandbox, client } = await startSandboxClient({ retryDelayMs: 10 }));
  });
  after(() => sandbox.close());

  const settled = (amount: number, autoExecute = true): Promise<string> =>
    settledPayment(client, amount, `refund-test-${randomUUID()}`, { autoExecute });
  const refundedAtGateway = (reference: string) => refundedAtSandbox(sandbox.url, reference);
  const faults = (body: object) =>
    fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const key = () => randomUUID();
  const rejectsWith = (promise: Promise<unknown>, code: string) =>
    assert.rejects(promise, (e: unknown) => e instanceof RefundError && e.code === code);

  it('refunds once: the same key again sends nothing and answers already_refunded', async () => {
    const reference = await settled(4_900);
    const events: RefundEvent[] = [];
    const deps = { gateway: client, onRefundCompleted: (e: RefundEvent) => void events.push(e) };
    const k = key();
    const first = await refund({ reference, amount: 2_000, key: k }, deps);
    assert.equal(first.status, 'refunded');
    assert.equal(first.status === 'refunded' && first.left, 2_900);
    // The refund's merchant reference is its payment's first slot; the key is the book's.
    assert.equal(first.refund.merchantReference, `${reference}~r1`);
    assert.equal(first.refund.key, k);
    assert.ok(first.refund.reference, 'the refund’s own gateway reference, from its record');
    const again = await refund({ reference, amount: 2_000, key: k }, deps);
    assert.equal(again.status, 'already_refunded');
    assert.equal(again.status === 'already_refunded' && again.pending, false);
    assert.equal(again.refund.reference, first.refund.reference);
    assert.equal(await refundedAtGateway(reference), 2_000);
    // The hook runs at least once, idempotent by merchant reference.
    assert.deepEqual(new Set(events.map((e) => e.merchantReference)), new Set([`${reference}~r1`]));
    assert.equal(events[0]!.key, k);
    assert.equal(events[0]!.amount, 2_000);
    assert.equal(events[0]!.paymentReference, reference);
  });

  it('case 4: a lost answer is unknown while the lookup cannot tell, and the same key later refunds nothing more', async () => {
    const reference = await settled(4_900);
    const k = key();
    // The refund is processed, then its connection reset; the lookups of its slots fail too.
    await faults({
      rate: 1,
      kinds: ['reset'],
      paths: [
        '/pg/api/v2/payment/*/refund',
        `/pg/api/v2/payment/lookup/merchantReference/${reference}~r`,
      ],
    });
    let lost: RefundResult | undefined;
    try {
      // The slots' lookups fail before anything is sent: nothing is sent blind.
      await rejectsWith(
        refund({ reference, amount: 2_000, key: k }, { gateway: client }),
        'gateway_unavailable',
      );
      assert.equal(await refundedAtGateway(reference), 0);
      // Only the refund's answer is lost: the lookups before it work, the one after it does not.
      await faults({ rate: 1, kinds: ['reset'], paths: ['/pg/api/v2/payment/*/refund'] });
      let sent = false;
      const refundThen = (send: typeof client.payments.refund) =>
        ((...args: Parameters<typeof send>) => {
          sent = true;
          return send(...args);
        }) as typeof send;
      const blind = {
        ...client,
        payments: {
          ...client.payments,
          refund: refundThen(client.payments.refund.bind(client.payments)),
        },
        foreign: client.foreign,
        lookups: client.lookups,
        reconcile: (ref: string) =>
          sent
            ? Promise.reject(Object.assign(new Error('lost'), { name: 'GatewayTimeoutError' }))
            : client.reconcile(ref),
      };
      lost = await refund({ reference, amount: 2_000, key: k }, { gateway: blind });
    } finally {
      await faults({ rate: 0 });
    }
    assert.equal(lost.status, 'unknown');
    assert.equal(lost.refund.merchantReference, `${reference}~r1`);
    assert.equal(await refundedAtGateway(reference), 2_000, 'it went through');
    // What is left comes from the gateway: R 29,00 of R 49,00.
    assert.equal((await refundable(reference, { gateway: client })).left, 2_900);
    const again = await refund({ reference, amount: 2_000, key: k }, { gateway: client });
    assert.equal(again.status, 'already_refunded');
    assert.equal(await refundedAtGateway(reference), 2_000, 'never refunded twice');
  });

  it('a lost answer the lookup after it finds is refunded', async () => {
    const reference = await settled(4_900);
    await faults({ rate: 1, kinds: ['reset'], paths: ['/pg/api/v2/payment/*/refund'] });
    let result: RefundResult;
    try {
      result = await refund({ reference, amount: 1_000, key: key() }, { gateway: client });
    } finally {
      await faults({ rate: 0 });
    }
    assert.equal(result.status, 'refunded');
    assert.equal(result.status === 'refunded' && result.left, 3_900);
    assert.equal(await refundedAtGateway(reference), 1_000);
  });

  it('what is left: other refunds counted, a pending one taken but not refunded, more than left refused', async () => {
    const reference = await settled(10_000);
    // A refund made by another process of the shop (its own book): its slot at the gateway shows it.
    await refund(
      { reference, amount: 1_000, key: key() },
      { gateway: client, store: new MemoryStore() },
    );
    const pending = await refund({ reference, amount: 1_007, key: key() }, { gateway: client });
    assert.equal(pending.status, 'pending');
    assert.equal(pending.status === 'pending' && pending.left, 7_993);
    const now = await refundable(reference, { gateway: client });
    assert.deepEqual(
      [now.amount, now.refunded, now.pending, now.left],
      [10_000, 1_000, 1_007, 7_993],
    );
    await assert.rejects(
      refund({ reference, amount: 8_000, key: key() }, { gateway: client }),
      (e: unknown) =>
        e instanceof RefundError &&
        e.code === 'more_than_left' &&
        e.left === 7_993 &&
        e.pending === 1_007,
    );
    // The pending refund's key again: already there, still pending, nothing sent.
    assert.equal(pending.refund.merchantReference, `${reference}~r2`);
    const k = pending.refund.key!;
    const same = await refund({ reference, amount: 1_007, key: k }, { gateway: client });
    assert.equal(same.status === 'already_refunded' && same.pending, true);
    // No amount: all that is left.
    const rest = await refund({ reference, key: key() }, { gateway: client });
    assert.equal(rest.status, 'refunded');
    assert.equal(rest.refund.amount, 7_993);
    assert.equal(rest.status === 'refunded' && rest.left, 0);
    await rejectsWith(
      refund({ reference, amount: 1, key: key() }, { gateway: client }),
      'more_than_left',
    );
    // The manual refund completes: the payment is fully refunded.
    await fetch(`${sandbox.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: DAY + 1_000 }),
    });
    const done = await refundable(reference, { gateway: client });
    assert.deepEqual([done.refunded, done.pending, done.left], [10_000, 0, 0]);
    assert.equal(done.payment.status, 'REFUNDED');
    await rejectsWith(refund({ reference, key: key() }, { gateway: client }), 'more_than_left');
    assert.equal(await refundedAtGateway(reference), 10_000);
  });

  it('refuses, sending nothing: a bad key or amount, an unknown or unsettled payment, a key reused for another amount', async () => {
    const reference = await settled(4_900);
    const deps = { gateway: client };
    await rejectsWith(
      refund({ reference, amount: 100, key: 'no spaces' }, deps),
      'invalid_request',
    );
    await rejectsWith(
      refund({ reference, amount: 100, key: 'k'.repeat(93) }, deps),
      'invalid_request',
    );
    await rejectsWith(refund({ reference, amount: 1.5, key: key() }, deps), 'invalid_request');
    await rejectsWith(refund({ reference, amount: 0, key: key() }, deps), 'invalid_request');
    await rejectsWith(
      refund({ reference: 'SBNOSUCH1', amount: 100, key: key() }, deps),
      'not_found',
    );
    const authorized = await settled(4_900, false);
    await rejectsWith(
      refund({ reference: authorized, amount: 100, key: key() }, deps),
      'not_refundable',
    );
    const k = key();
    assert.equal((await refund({ reference, amount: 100, key: k }, deps)).status, 'refunded');
    await rejectsWith(refund({ reference, amount: 200, key: k }, deps), 'key_reused');
    assert.equal(await refundedAtGateway(reference), 100);
    assert.equal(await refundedAtGateway(authorized), 0);
  });

  it('checkout.refund on createCheckoutHandler uses the checkout’s client and onRefundCompleted', async () => {
    const events: RefundEvent[] = [];
    const checkout = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: 'https://shop.test/checkout',
      resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'o-1' }),
      onRefundCompleted: (e) => {
        events.push(e);
        throw new Error('the merchant’s database is down');
      },
      logger: silent,
    });
    const reference = await settled(4_900);
    const result = await checkout.refund({ reference, amount: 900, key: key() });
    assert.equal(result.status, 'refunded', 'a hook that throws does not undo the refund');
    assert.equal(events.length, 1);
    assert.equal((await checkout.refundable(reference)).left, 4_000);
  });
});
