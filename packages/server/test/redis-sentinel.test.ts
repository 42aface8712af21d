import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { RedisStore } from '../src/stores/redis.js';
import { storeSuite } from './helpers/store-suite.js';
import { startSentinel, type TestSentinel } from '@pg-checkout/test-helpers/redis-sentinel';

// Sentinel's default down-after-milliseconds is 30 s; 1 s keeps this file short. The failover
// with the default timing runs in the bench (`npm run bench -- --only=failover`).
const DOWN_AFTER_MS = 1_000;

let sentinel: TestSentinel;
let client: Redis;
before(async () => {
  sentinel = await startSentinel({ downAfterMs: DOWN_AFTER_MS, failoverTimeoutMs: 10_000 });
  client = sentinel.client();
});
after(async () => {
  await sentinel?.stop();
});

storeSuite(
  'RedisStore behind Sentinel (1 primary, 1 replica, 3 sentinels)',
  () => new RedisStore({ client }),
);

describe(
  'RedisStore behind Sentinel',
  // A hang (a request that never answers) fails the file instead of stalling the run.
  { timeout: 180_000 },
  () => {
    it('writes through to the primary and the replica follows', async () => {
      const store = new RedisStore({ client, prefix: 'shop:' });
      await store.writeAll([{ key: '{o:r}:ledger', value: 'L', ttlMs: 60_000 }]);
      const primary = await sentinel.primary();
      assert.equal(await primary.get('shop:{o:r}:ledger'), 'L');
      assert.match(await primary.info('replication'), /role:master[\s\S]*connected_slaves:1/);
    });

    it('follows a failover: after the primary is killed the same store works on the promoted replica', async () => {
      // Its own client: commands wait through the failover instead of failing after one retry.
      const failing = sentinel.client({ maxRetriesPerRequest: null, enableOfflineQueue: true });
      failing.on('error', () => undefined);
      const store = new RedisStore({ client: failing });
      await store.set('{o:kept}:ledger', 'before', 60_000);
      await store.increment('{r:1}:n', 60_000);
      const primary = await sentinel.primary();
      await primary.call('WAIT', '1', '1000'); // the replica has it, so the failover keeps it
      const old = await sentinel.killPrimary();
      const started = Date.now();
      // Sent while no primary exists: queued by ioredis and answered by the new one.
      const during = store.lockAndGet('{o:kept}:lock', 60_000, '{o:kept}:ledger');
      const promoted = await sentinel.waitForFailover(old, 30_000);
      assert.notEqual(promoted, old);
      assert.deepEqual(await during, { locked: true, value: 'before' });
      assert.equal(await store.get('{o:kept}:ledger'), 'before');
      // The promoted replica never ran our scripts itself: NOSCRIPT, then EVAL once.
      assert.equal(await store.increment('{r:1}:n', 60_000), 2);
      assert.deepEqual(await store.lockAndGet('{o:kept}:lock', 60_000, '{o:kept}:ledger'), {
        locked: false,
      });
      await store.writeAll([
        { key: '{o:kept}:ledger', value: 'after', ttlMs: 60_000 },
        { key: '{o:kept}:lock', delete: true },
      ]);
      assert.equal(await (await sentinel.primary()).get('pg-checkout:{o:kept}:ledger'), 'after');
      assert.ok(Date.now() - started < 30_000);
    });
  },
);
