import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutStore } from '../../src/index.js';

/** The one behaviour every CheckoutStore must have; run against each implementation. */
export function storeSuite(name: string, make: () => CheckoutStore): void {
  const key = () => `k-${Math.random().toString(36).slice(2)}`;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  describe(`${name}: CheckoutStore contract`, () => {
    it('returns undefined for a missing key and the value after set', async () => {
      const store = make();
      const k = key();
      assert.equal(await store.get(k), undefined);
      await store.set(k, '{"a":1}', 10_000);
      assert.equal(await store.get(k), '{"a":1}');
    });

    it('set replaces the value', async () => {
      const store = make();
      const k = key();
      await store.set(k, 'one', 10_000);
      await store.set(k, 'two', 10_000);
      assert.equal(await store.get(k), 'two');
    });

    it('expires entries after their ttl', async () => {
      const store = make();
      const k = key();
      await store.set(k, 'v', 40);
      await sleep(80);
      assert.equal(await store.get(k), undefined);
    });

    it('setIfAbsent lets exactly one concurrent claimer win', async () => {
      const store = make();
      const k = key();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.setIfAbsent(k, String(i), 10_000)),
      );
      assert.equal(results.filter(Boolean).length, 1);
      const winner = results.indexOf(true);
      assert.equal(await store.get(k), String(winner));
    });

    it('setIfAbsent succeeds again once the claim expired or was deleted', async () => {
      const store = make();
      const k = key();
      assert.equal(await store.setIfAbsent(k, 'a', 40), true);
      assert.equal(await store.setIfAbsent(k, 'b', 40), false);
      await sleep(80);
      assert.equal(await store.setIfAbsent(k, 'c', 10_000), true);
      await store.delete(k);
      assert.equal(await store.setIfAbsent(k, 'd', 10_000), true);
      assert.equal(await store.get(k), 'd');
    });

    it('delete removes and tolerates a missing key', async () => {
      const store = make();
      const k = key();
      await store.set(k, 'v', 10_000);
      await store.delete(k);
      await store.delete(k);
      assert.equal(await store.get(k), undefined);
    });

    it('increment counts atomically and restarts after the window expires', async () => {
      const store = make();
      const k = key();
      const counts = await Promise.all(Array.from({ length: 10 }, () => store.increment(k, 60)));
      assert.deepEqual(
        [...counts].sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      await sleep(100);
      assert.equal(await store.increment(k, 60), 1);
    });

    it('refuses empty keys and non-positive ttls with a clear error', async () => {
      const store = make();
      await assert.rejects(store.get(''), /store key must be a non-empty string/);
      await assert.rejects(store.set(key(), 'v', 0), /ttlMs must be a positive integer/);
      await assert.rejects(store.increment(key(), 1.5), /ttlMs must be a positive integer/);
    });
  });
}
