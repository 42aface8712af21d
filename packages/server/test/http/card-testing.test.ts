import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { createCheckout } from '@pg-checkout/express';
import type { CardTestingEvent } from '../../src/index.js';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { card, SESSION_SECRET, startAppOver } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { holdClock } from '@pg-checkout/test-helpers/clock';

// Issue 26: one card tester is stopped after a few declines, the merchant is told with counts
// only, and other shoppers never notice.

overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  const DECLINED = '4000000000000002';

  function recorder() {
    const events: CardTestingEvent[] = [];
    const logs: string[] = [];
    const line = (...a: unknown[]) => void logs.push(JSON.stringify(a));
    return {
      events,
      logs,
      options: {
        onSuspectedCardTesting: (event: CardTestingEvent) => void events.push(event),
        logger: { info: line, warn: line, error: line },
      },
      /** The hook runs after the answer: give it a moment. */
      async settled(count: number) {
        for (let i = 0; i < 50 && events.length < count; i++) await sleep(10);
      },
    };
  }

  describe('a card tester is stopped', () => {
    it('after 10 declines in one order: 429 too_many_declines, the merchant told once, other shoppers pay at once', async (t) => {
      holdClock(t.mock);
      const seen = recorder();
      const app = await startApp({ rateLimit: {}, ...seen.options });
      try {
        const tester = { headers: { 'x-forwarded-for': '10.50.0.1', 'x-test-order': 'tester-1' } };
        for (let i = 0; i < 10; i++) {
          const declined = await app.call('POST', '/payments', card(DECLINED), tester);
          assert.equal(declined.status, 402, `decline ${i + 1}`);
          assert.equal(declined.body.code, 'card_declined');
        }
        const creates = app.gateway.calls.filter((c) => c === 'create').length;
        for (const number of [DECLINED, '4111111111111111']) {
          const stopped = await app.call('POST', '/payments', card(number), tester);
          assert.equal(stopped.status, 429);
          assert.equal(stopped.body.code, 'too_many_declines');
          assert.match(stopped.body.message, /Too many cards were declined/);
          assert.ok(Number(stopped.headers.get('retry-after')) > 60);
        }
        assert.equal(app.gateway.calls.filter((c) => c === 'create').length, creates, 'not sent');

        const other = await app.call('POST', '/payments', card('4111111111111111'), {
          headers: { 'x-forwarded-for': '10.60.0.1', 'x-test-order': 'shopper-1' },
        });
        assert.equal(other.status, 200, JSON.stringify(other.body));
        assert.equal(other.body.status, 'approved');

        await seen.settled(1);
        await sleep(30);
        assert.deepEqual(seen.events, [
          { scope: 'order', orderReference: 'tester-1', declines: 10, windowMs: 3_600_000 },
        ]);
        const told = JSON.stringify(seen.events) + seen.logs.join('\n');
        assert.ok(seen.logs.some((l) => l.includes('card testing suspected')));
        for (const number of [DECLINED, '4111111111111111'])
          assert.ok(!told.includes(number), 'no card number in the event or the log');
        assert.ok(!told.includes('10.50.0.1'), 'no client address in the event or the log');
      } finally {
        await app.close();
      }
    });

    it('one network rotating carts is stopped per client; a shopper elsewhere still pays', async (t) => {
      holdClock(t.mock);
      const seen = recorder();
      const app = await startApp({
        rateLimit: { perIp: 100, declines: { perIp: 15 } },
        ...seen.options,
      });
      try {
        const from = (order: string) => ({
          headers: { 'x-forwarded-for': '2001:db8:50::1', 'x-test-order': order },
        });
        const statuses: number[] = [];
        for (const [order, tries] of [
          ['rotate-a', 10],
          ['rotate-b', 5],
        ] as const)
          for (let i = 0; i < tries; i++)
            statuses.push(
              (await app.call('POST', '/payments', card(DECLINED), from(order))).status,
            );
        assert.deepEqual(new Set(statuses), new Set([402]));
        // Another address of the same /64, another cart: the same client.
        const next = await app.call('POST', '/payments', card(DECLINED), {
          headers: { 'x-forwarded-for': '2001:db8:50::2', 'x-test-order': 'rotate-c' },
        });
        assert.equal(next.status, 429);
        assert.equal(next.body.code, 'too_many_declines');
        const elsewhere = await app.call('POST', '/payments', card('4111111111111111'), {
          headers: { 'x-forwarded-for': '2001:db8:51::1', 'x-test-order': 'rotate-d' },
        });
        assert.equal(elsewhere.body.status, 'approved');
        await seen.settled(2);
        await sleep(30);
        assert.deepEqual(
          seen.events.map((e) => [e.scope, e.orderReference, e.declines]),
          [
            ['order', 'rotate-a', 10],
            ['client', 'rotate-b', 15],
          ],
        );
      } finally {
        await app.close();
      }
    });

    it('declines at 3-D Secure count too, and a hook that throws is only logged', async (t) => {
      holdClock(t.mock);
      const seen = recorder();
      const app = await startApp({
        rateLimit: { declines: { perOrder: 2 } },
        ...seen.options,
        onSuspectedCardTesting: () => {
          throw new Error('merchant hook down');
        },
      });
      try {
        const pinned = { headers: { 'x-forwarded-for': '10.52.0.1', 'x-test-order': 'tds-1' } };
        // 4000000000000127: authentication fails at Step 2.
        for (let i = 0; i < 2; i++) {
          const created = await app.call('POST', '/payments', card('4000000000000127'), pinned);
          const step2 = await app.call(
            'POST',
            `/payments/${created.body.reference}/3dsv2/confirm`,
            {},
            pinned,
          );
          assert.equal(step2.body.status, 'declined', JSON.stringify(step2.body));
        }
        const stopped = await app.call('POST', '/payments', card('4111111111111111'), pinned);
        assert.equal(stopped.body.code, 'too_many_declines');
        await sleep(50);
        assert.ok(seen.logs.some((l) => l.includes('onSuspectedCardTesting threw')));
      } finally {
        await app.close();
      }
    });

    it('rateLimit.declines: false turns the stop off', async () => {
      const app = await startApp({ rateLimit: { declines: false } });
      try {
        const pinned = { headers: { 'x-test-order': 'off-1' } };
        for (let i = 0; i < 12; i++)
          assert.equal((await app.call('POST', '/payments', card(DECLINED), pinned)).status, 402);
      } finally {
        await app.close();
      }
    });
  });
});

describe('rateLimit.declines is checked at setup', () => {
  const make = (declines: unknown) => () =>
    express().use(
      createCheckout({
        gateway: new FakeGateway(),
        sessionSecret: SESSION_SECRET,
        webhookSecret: 'whsec',
        publicUrl: 'https://shop.test/checkout',
        resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'o' }),
        rateLimit: { declines: declines as false },
      }),
    );
  it('names the wrong setting and the fix', () => {
    assert.throws(make({ perOrder: 0 }), /`rateLimit\.declines\.perOrder` .*at least 1.*false/);
    assert.throws(make({ windowMs: 1_000 }), /`rateLimit\.declines\.windowMs` .*at least 60_000/);
    assert.throws(make({ maxDeclines: 5 }), /did you mean `rateLimit\.declines\.perOrder`\?/);
    assert.throws(make({ perIpp: 5 }), /did you mean `rateLimit\.declines\.perIp`\?/);
    assert.throws(make('yes'), /must be false \(off\) or \{ perOrder\?/);
    assert.doesNotThrow(make({ perOrder: 3, windowMs: 600_000 }));
  });
});
