import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutStore } from '../../src/stores/store.js';

/** The one behaviour every CheckoutStore must have; run against each implementation. */
export function storeSuite(name: string, make: () => CheckoutStore): void {
  const key = () => `k-${Math.random().toString(36).slice(2)}`;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // A short ttl long enough that 20 concurrent calls fall inside it on a busy 2-core machine running
  // several test files at once (40 ms did not), and a wait that outlives it.
  const SHORT = 400;
  const PAST = 2 * SHORT;

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
      await store.set(k, 'v', SHORT);
      await sleep(PAST);
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
      assert.equal(await store.setIfAbsent(k, 'a', SHORT), true);
      assert.equal(await store.setIfAbsent(k, 'b', SHORT), false);
      await sleep(PAST);
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
      const counts = await Promise.all(Array.from({ length: 10 }, () => store.increment(k, SHORT)));
      assert.deepEqual(
        [...counts].sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      await sleep(PAST);
      assert.equal(await store.increment(k, SHORT), 1);
    });

    it('reserve takes places atomically up to its limit, nothing when full', async () => {
      const store = make();
      const k = key();
      const taken = await Promise.all(Array.from({ length: 12 }, () => store.reserve(k, SHORT, 4)));
      assert.deepEqual(
        [...taken].sort((a, b) => a - b),
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4],
      );
      assert.equal(await store.reserve(k, SHORT, 4), 0, 'a refusal took nothing');
      assert.equal(await store.reserve(k, SHORT, 5), 5);
    });

    it('release gives places back, atomically, keeping the expiry set at creation', async () => {
      const store = make();
      const k = key();
      await Promise.all(Array.from({ length: 10 }, () => store.reserve(k, SHORT, 100)));
      await Promise.all(Array.from({ length: 7 }, () => store.release(k)));
      assert.equal(await store.reserve(k, SHORT, 100), 4);
      for (let i = 0; i < 6; i++) await store.release(k);
      assert.equal(await store.reserve(k, SHORT, 100), 1, 'never below 0');
      await sleep(PAST);
      assert.equal(await store.reserve(k, SHORT, 100), 1, 'the window ended: a new counter');
    });

    it('release of a counter that is absent or at 0 leaves nothing behind', async () => {
      const store = make();
      const k = key();
      await store.release(k);
      assert.equal(await store.get(k), undefined);
      assert.equal(await store.reserve(k, SHORT, 1), 1);
      await store.release(k);
      await store.release(k);
      assert.equal(await store.reserve(k, SHORT, 1), 1);
      await sleep(PAST);
      assert.equal(await store.get(k), undefined, 'it expires like any counter');
    });

    it('reserve refuses a limit that is not a positive integer', async () => {
      const store = make();
      await assert.rejects(store.reserve(key(), 10_000, 0), /limit must be a positive integer/);
      await assert.rejects(store.reserve(key(), 10_000, 1.5), /limit must be a positive integer/);
    });

    it('lockAndGet claims the lock and reads the key only for the winner', async () => {
      const store = make();
      const order = `{o:${encodeURIComponent(`order ${key()}`)}}`;
      assert.deepEqual(await store.lockAndGet(`${order}:lock`, 10_000, `${order}:ledger`), {
        locked: true,
        value: undefined,
      });
      await store.set(`${order}:ledger`, '{"next":2}', 10_000);
      assert.deepEqual(await store.lockAndGet(`${order}:lock`, 10_000, `${order}:ledger`), {
        locked: false,
      });
      assert.equal(
        await store.setIfAbsent(`${order}:lock`, 'x', 10_000),
        false,
        'the lock is an ordinary key others can see',
      );
      await store.delete(`${order}:lock`);
      assert.deepEqual(await store.lockAndGet(`${order}:lock`, 10_000, `${order}:ledger`), {
        locked: true,
        value: '{"next":2}',
      });
    });

    it('lockAndGet lets exactly one concurrent claimer win, and the lock expires', async () => {
      const store = make();
      const order = `{o:${key()}}`;
      await store.set(`${order}:ledger`, 'L', 10_000);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          store.lockAndGet(`${order}:lock`, SHORT, `${order}:ledger`),
        ),
      );
      const won = results.filter((r) => r.locked);
      assert.equal(won.length, 1);
      assert.deepEqual(won[0], { locked: true, value: 'L' });
      await sleep(PAST);
      assert.deepEqual(await store.lockAndGet(`${order}:lock`, SHORT, `${order}:ledger`), {
        locked: true,
        value: 'L',
      });
    });

    it('writeAll applies writes and deletes together, each write with its own ttl', async () => {
      const store = make();
      const tag = `{p:SB${key()}}`;
      await store.set(`${tag}:lock`, '1', 10_000);
      await store.set(`${tag}:state`, 'old', 10_000);
      await store.writeAll([
        { key: `${tag}:state`, value: 'new', ttlMs: 10_000 },
        { key: `${tag}:short`, value: 's', ttlMs: SHORT },
        { key: `${tag}:lock`, delete: true },
        { key: `${tag}:never-there`, delete: true },
      ]);
      assert.equal(await store.get(`${tag}:state`), 'new');
      assert.equal(await store.get(`${tag}:short`), 's');
      assert.equal(await store.get(`${tag}:lock`), undefined);
      await sleep(PAST);
      assert.equal(await store.get(`${tag}:short`), undefined, 'the short write expired');
      assert.equal(await store.get(`${tag}:state`), 'new');
      await store.writeAll([]);
    });

    it('writeAll applies operations in order, so a later one on the same key wins', async () => {
      const store = make();
      const tag = `{o:${key()}}`;
      await store.writeAll([
        { key: `${tag}:a`, value: '1', ttlMs: 10_000 },
        { key: `${tag}:a`, delete: true },
        { key: `${tag}:b`, delete: true },
        { key: `${tag}:b`, value: '2', ttlMs: 10_000 },
      ]);
      assert.equal(await store.get(`${tag}:a`), undefined);
      assert.equal(await store.get(`${tag}:b`), '2');
    });

    it('lockAndGet holds the caller’s token, and writeAll with ifHeld applies only while it does', async () => {
      const store = make();
      const o = `{o:${key()}}`;
      assert.deepEqual(await store.lockAndGet(`${o}:lock`, 10_000, `${o}:ledger`, 'mine'), {
        locked: true,
        value: undefined,
      });
      assert.equal(await store.get(`${o}:lock`), 'mine');
      const held = { key: `${o}:lock`, value: 'mine' };
      assert.equal(
        await store.writeAll([{ key: `${o}:ledger`, value: 'one', ttlMs: 10_000 }], held),
        true,
      );
      assert.equal(await store.get(`${o}:ledger`), 'one');
      // The lock expired or the store lost it, and someone else took it: our writes must not land.
      await store.delete(`${o}:lock`);
      await store.lockAndGet(`${o}:lock`, 10_000, `${o}:ledger`, 'theirs');
      assert.equal(
        await store.writeAll(
          [
            { key: `${o}:ledger`, value: 'stale', ttlMs: 10_000 },
            { key: `${o}:lock`, delete: true },
          ],
          held,
        ),
        false,
      );
      assert.equal(await store.get(`${o}:ledger`), 'one');
      assert.equal(await store.get(`${o}:lock`), 'theirs', 'their lock stays');
      await store.delete(`${o}:lock`);
      assert.equal(
        await store.writeAll([{ key: `${o}:ledger`, value: 'late', ttlMs: 10_000 }], held),
        false,
        'no lock at all is not ours either',
      );
      assert.equal(await store.get(`${o}:ledger`), 'one');
      assert.equal(await store.writeAll([{ key: `${o}:x`, value: 'v', ttlMs: 10_000 }]), true);
    });

    it('writeAll checks every operation first and applies none when one is invalid', async () => {
      const store = make();
      const tag = `{o:${key()}}`;
      await assert.rejects(
        store.writeAll([
          { key: `${tag}:a`, value: '1', ttlMs: 10_000 },
          { key: `${tag}:b`, value: '2', ttlMs: 0 },
        ]),
        /ttlMs must be a positive integer/,
      );
      await assert.rejects(
        store.writeAll([{ key: `${tag}:a`, value: 1 as unknown as string, ttlMs: 10_000 }]),
        /value must be a string/,
      );
      assert.equal(await store.get(`${tag}:a`), undefined);
    });

    it('refuses empty keys and non-positive ttls with a clear error', async () => {
      const store = make();
      await assert.rejects(store.get(''), /store key must be a non-empty string/);
      await assert.rejects(store.set(key(), 'v', 0), /ttlMs must be a positive integer/);
      await assert.rejects(store.increment(key(), 1.5), /ttlMs must be a positive integer/);
      await assert.rejects(store.lockAndGet(key(), 0, key()), /ttlMs must be a positive integer/);
      await assert.rejects(store.lockAndGet(key(), 10, ''), /store key must be a non-empty/);
      await assert.rejects(store.writeAll([{ key: '', delete: true }]), /non-empty string/);
    });
  });
}
