import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RedisStore } from '../../src/index.js';
import { startSentinel } from '@pg-checkout/test-helpers/redis-sentinel';
import { adapterPair } from '@pg-checkout/test-helpers/adapters';
import { challengeAcrossShop, sandboxShop, UNDER_LOAD } from './helpers/sandbox-shop.js';
import { assertPaidOnce, payAndAudit } from './helpers/paid-once.js';

// Sentinel's default down-after-milliseconds is 30 s; here 2 s, so the failover test takes
// seconds. The same test with the default timing is the bench's failover part
// (`npm run bench -- --only=failover`), whose counts BENCHMARKS.md reports.
const DOWN_AFTER_MS = 2_000;

// One instance on the Express router, the other on the Fetch handler, sharing the store.
const shop = sandboxShop({
  adapters: adapterPair(),
  servers: () => startSentinel({ downAfterMs: DOWN_AFTER_MS, failoverTimeoutMs: 10_000 }),
  // Each instance has its own client, set up as the README recommends for Sentinel.
  store: (sentinel) =>
    new RedisStore({
      client: sentinel.client({ maxRetriesPerRequest: 2, failoverDetector: true }),
      prefix: 'shop:',
    }),
});
const storeErrors = () =>
  shop.logged.map(({ message }) => message).filter((line) => /store|redis|sentinel/i.test(line));

describe(
  'checkout behind Sentinel (1 primary, 1 replica, 3 sentinels), two instances',
  UNDER_LOAD,
  () => {
    it('takes a full 3-D Secure v2 challenge started on one instance and finished on the other', async () => {
      await challengeAcrossShop(shop);
      assert.deepEqual(storeErrors(), [], 'no store error while the primary is up');
    });

    it('charges an order submitted to both instances at once exactly once', async () => {
      const report = await payAndAudit(shop, {
        connections: 4,
        stop: new Promise((r) => setTimeout(r, 1_500)),
        prefix: `twins-${Date.now()}`,
        twinEvery: 1,
      });
      assertPaidOnce(report, { paid: 10 });
      assert.deepEqual(storeErrors(), [], 'no store error while the primary is up');
    });

    it('loses no payment when the primary dies under 10 connections: 0 charged-but-failed, 0 doubled', async (t) => {
      const sentinel = shop.servers;
      const killedAt = new Promise<number>((resolve) =>
        setTimeout(() => void sentinel.killPrimary().then(resolve), 1_000),
      );
      // Load runs until 3 s after every sentinel names the promoted replica.
      const failedOver = killedAt.then(async (old) => {
        const started = Date.now();
        await sentinel.waitForFailover(old, 60_000);
        t.diagnostic(`failover took ${Date.now() - started} ms after the kill`);
        await new Promise((r) => setTimeout(r, 3_000));
      });
      const report = await payAndAudit(shop, {
        connections: 10,
        stop: failedOver,
        prefix: `failover-${Date.now()}`,
        twinEvery: 10,
      });
      t.diagnostic(JSON.stringify(report));
      // Answers while there was no primary said "nothing charged" (503) or what the gateway said.
      assertPaidOnce(report, {
        paid: 20,
        answers: /^(200 approved|200 pending|503 store_unavailable|409 conflict)$/,
      });
    });
  },
);
