/**
 * Issue 38, case 3: every cap is reserved before the gateway is asked. 3N card payments sent at
 * once never pass a cap of N, on the memory store and on Redis: the gateway sees at most N creates.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryStore, RedisStore, type CheckoutStore } from '../../src/index.js';
import { card, startAppOver, type TestApp } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { startRedis, type TestRedis } from '@pg-checkout/test-helpers/redis-server';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { holdClock } from '@pg-checkout/test-helpers/clock';

const N = 4;
const DECLINED = '4000000000000002';
const APPROVED = '4111111111111111';

/** A gateway that takes 100 ms per create, so every payment of a burst is in flight at once. */
function slowGateway(): FakeGateway {
  const gateway = new FakeGateway();
  const create = gateway.payments.create;
  gateway.payments.create = async (request) => {
    await sleep(100);
    return create(request);
  };
  return gateway;
}

overAdapters((adapter) => {
  const start = startAppOver(adapter);
  const startApp = (options: Parameters<typeof start>[0]) => start(options, slowGateway());
  let redis: TestRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  const stores: [string, () => CheckoutStore][] = [
    ['MemoryStore', () => new MemoryStore()],
    ['RedisStore', () => new RedisStore({ client: redis.client(), prefix: `caps-${Date.now()}:` })],
  ];

  /** 3N payments at once; the gateway's creates and every answer's status and code. */
  async function atOnce(
    app: TestApp,
    request: (i: number) => { number: string; order: string; ip: string },
  ) {
    const answers = await Promise.all(
      Array.from({ length: 3 * N }, (_, i) => {
        const { number, order, ip } = request(i);
        return app.call('POST', '/payments', card(number), {
          headers: { 'x-test-order': order, 'x-forwarded-for': ip },
        });
      }),
    );
    return {
      creates: app.gateway.calls.filter((c) => c === 'create').length,
      answers: answers.map((a) => `${a.status} ${(a.body as { code?: string }).code ?? ''}`),
    };
  }

  for (const [name, store] of stores)
    describe(`caps reserved before the gateway (${name})`, () => {
      it(`declines per order: ${3 * N} cards at once from ${3 * N} addresses, at most ${N} reach the gateway`, async (t) => {
        // The limits count in fixed windows of the wall clock: a burst must not cross a window's edge.
        holdClock(t.mock);
        const app = await startApp({
          store: store(),
          rateLimit: { declines: { perOrder: N } },
        });
        try {
          const run = `${Date.now()}`;
          const { creates, answers } = await atOnce(app, (i) => ({
            number: DECLINED,
            order: `one-order-${run}`,
            ip: `10.70.${i}.1`,
          }));
          assert.ok(creates <= N, `${creates} creates for a cap of ${N}: ${answers.join(', ')}`);
          assert.ok(creates >= 1, answers.join(', '));
          for (const answer of answers)
            assert.match(answer, /^(402 card_declined|429 too_many_declines|409 conflict)$/);
          // The cap still holds after the burst: one more card is refused before the gateway.
          if (creates === N) {
            const next = await app.call('POST', '/payments', card(DECLINED), {
              headers: { 'x-test-order': `one-order-${run}`, 'x-forwarded-for': '10.71.0.1' },
            });
            assert.equal(next.status, 429);
          }
        } finally {
          await app.close();
        }
      });

      it(`declines per client: ${3 * N} cards at once on ${3 * N} orders from one network, at most ${N} reach the gateway`, async (t) => {
        // The limits count in fixed windows of the wall clock: a burst must not cross a window's edge.
        holdClock(t.mock);
        const app = await startApp({
          store: store(),
          rateLimit: { perIp: 1_000, declines: { perIp: N } },
        });
        try {
          const run = `${Date.now()}`;
          const { creates, answers } = await atOnce(app, (i) => ({
            number: DECLINED,
            order: `client-${run}-${i}`,
            ip: `2001:db8:70::${i + 1}`,
          }));
          assert.ok(creates <= N, `${creates} creates for a cap of ${N}: ${answers.join(', ')}`);
          assert.equal(answers.filter((a) => a === '402 card_declined').length, creates);
          assert.equal(
            answers.filter((a) => a === '429 too_many_declines').length,
            3 * N - creates,
          );
        } finally {
          await app.close();
        }
      });

      it('a reservation the gateway did not decline is given back: approved cards never fill the decline cap', async (t) => {
        // The limits count in fixed windows of the wall clock: a burst must not cross a window's edge.
        holdClock(t.mock);
        const app = await startApp({
          store: store(),
          rateLimit: { perIp: 1_000, declines: { perIp: N } },
        });
        try {
          const run = `${Date.now()}`;
          for (let round = 0; round < 3; round++) {
            const { answers } = await atOnce(app, (i) => ({
              number: APPROVED,
              order: `approved-${run}-${round}-${i}`,
              ip: '10.72.0.1',
            }));
            // At once, at most N are in flight; each approval gives its place back.
            assert.ok(
              answers.some((a) => a.startsWith('200')),
              answers.join(', '),
            );
          }
          const later = await app.call('POST', '/payments', card(APPROVED), {
            headers: { 'x-test-order': `approved-${run}-after`, 'x-forwarded-for': '10.72.0.1' },
          });
          assert.equal(later.status, 200, JSON.stringify(later.body));
        } finally {
          await app.close();
        }
      });

      it(`payment starts per client: ${3 * N} at once from one address, at most ${N} reach the gateway`, async (t) => {
        // The limits count in fixed windows of the wall clock: a burst must not cross a window's edge.
        holdClock(t.mock);
        const app = await startApp({ store: store(), rateLimit: { perIp: N } });
        try {
          const run = `${Date.now()}`;
          const { creates, answers } = await atOnce(app, (i) => ({
            number: APPROVED,
            order: `starts-${run}-${i}`,
            ip: '10.73.0.1',
          }));
          assert.equal(creates, N, answers.join(', '));
          assert.equal(answers.filter((a) => a === '429 rate_limited').length, 2 * N);
        } finally {
          await app.close();
        }
      });
    });
}, 'express');
