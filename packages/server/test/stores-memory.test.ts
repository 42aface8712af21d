import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
// From the package: the error's status and sentence are the HTTP edge's, which the package loads.
import { CheckoutError } from '../src/index.js';
import { MemoryStore } from '../src/stores/memory.js';
import { storeSuite } from './helpers/store-suite.js';

storeSuite('MemoryStore', () => new MemoryStore());

const isBusy = (err: CheckoutError) => {
  assert.ok(err instanceof CheckoutError);
  assert.equal(err.status, 503);
  assert.equal(err.code, 'service_busy');
  assert.match(err.message, /not been charged/);
  return true;
};

describe('MemoryStore bounds', () => {
  it('never evicts a live entry: a full store refuses new claims with a 503', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    for (const k of ['a', 'b']) await store.set(k, k, 60_000);
    assert.equal(await store.increment('c', 60_000), 1);
    await assert.rejects(store.setIfAbsent('d', 'd', 60_000), isBusy);
    await assert.rejects(store.increment('d', 60_000), isBusy);
    await assert.rejects(store.lockAndGet('{o:new}:lock', 60_000, '{o:new}:ledger'), isBusy);
    assert.equal(store.size, 3);
    assert.equal(await store.get('a'), 'a', 'the oldest live entry is still there');
    await store.set('a', 'A', 60_000);
    assert.equal(await store.get('a'), 'A', 'replacing an existing key still works when full');
    assert.equal(await store.increment('c', 60_000), 2, 'an existing counter still counts');
  });

  it('lets work under way finish in the headroom: the lock of a known order, its writes', async () => {
    const store = new MemoryStore({ maxEntries: 4, headroom: 2 });
    await store.set('{o:paid}:ledger', '{"attempt":1}', 60_000);
    for (const k of ['a', 'b', 'c']) await store.set(k, k, 60_000);
    await assert.rejects(store.lockAndGet('{o:new}:lock', 60_000, '{o:new}:ledger'), isBusy);
    // The gateway may have charged this one: its completion must get through.
    assert.deepEqual(await store.lockAndGet('{o:paid}:lock', 60_000, '{o:paid}:ledger'), {
      locked: true,
      value: '{"attempt":1}',
    });
    await store.writeAll([
      { key: '{o:paid}:ledger', value: '{"paid":1}', ttlMs: 60_000 },
      { key: '{p:SB1}:state', value: 'approved', ttlMs: 60_000 },
      { key: '{o:paid}:lock', delete: true },
    ]);
    await store.set('{p:SB1}:extra', 'x', 60_000);
    assert.equal(store.size, 6);
    await assert.rejects(
      store.writeAll([{ key: 'one-too-many', value: 'x', ttlMs: 60_000 }]),
      (err: Error) => !(err instanceof CheckoutError) && /MemoryStore is full/.test(err.message),
      'past the headroom: a plain store failure, never a "not charged" answer',
    );
    assert.equal(await store.get('one-too-many'), undefined);
  });

  it('lets claims on a payment it holds through when full (confirm, hook marks), not on new ones', async () => {
    const store = new MemoryStore({ maxEntries: 2, headroom: 2 });
    await store.set('{p:SB1}:pay', 'record', 60_000);
    await store.set('x', 'x', 60_000);
    assert.equal(await store.setIfAbsent('{p:SB1}:confirm', '1', 60_000), true);
    assert.equal(await store.setIfAbsent('{p:SB1}:confirm', '1', 60_000), false);
    await assert.rejects(store.setIfAbsent('{p:SB2}:confirm', '1', 60_000), isBusy);
    await store.writeAll([
      { key: '{p:SB1}:pay', delete: true },
      { key: '{p:SB1}:confirm', delete: true },
    ]);
    await store.set('y', 'y', 60_000);
    await assert.rejects(
      store.setIfAbsent('{p:SB1}:hook:approved', '1', 60_000),
      isBusy,
      'once the payment is gone from the store, a claim on it is new work again',
    );
  });

  it('with no headroom, a write past maxEntries is a plain store failure, not the 503', async () => {
    const store = new MemoryStore({ maxEntries: 1, headroom: 0 });
    await store.set('a', 'a', 60_000);
    await assert.rejects(
      store.set('b', 'b', 60_000),
      (err: Error) => !(err instanceof CheckoutError) && /MemoryStore is full/.test(err.message),
    );
  });

  it('refuses without looking at every entry: 1,000 refusals of a full 100,000-entry store are quick', async () => {
    const store = new MemoryStore({ maxEntries: 100_000, headroom: 0 });
    for (let i = 0; i < 100_000; i++) await store.set(`k${i}`, 'v', 600_000);
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) {
      await store.setIfAbsent(`new${i}`, 'v', 60_000).then(
        () => assert.fail('a full store accepted a claim'),
        (err: unknown) => assert.ok(err instanceof CheckoutError),
      );
    }
    const ms = performance.now() - started;
    // A scan of 100,000 entries per refusal took 4.5 s or more here; the heap takes tens of ms.
    assert.ok(ms < 500, `1,000 refusals took ${ms.toFixed(0)} ms`);
  });

  it('drops expired entries in expiry order, whatever order they were written in', async () => {
    let now = 1_000;
    const store = new MemoryStore({ maxEntries: 2, headroom: 0, now: () => now });
    await store.set('long', 'y', 60_000);
    await store.set('short', 'x', 10);
    now += 20;
    assert.equal(await store.setIfAbsent('new', 'z', 60_000), true);
    assert.equal(await store.get('long'), 'y');
    assert.equal(await store.get('new'), 'z');
    assert.equal(store.size, 2);
  });

  it('agrees with a plain map model through any mix of writes, deletes, time and a full store (fast-check)', async () => {
    const KEYS = ['a', 'b', '{o:1}:lock', '{o:1}:ledger', '{p:2}:pay', '{p:2}:confirm'];
    const tagOf = (k: string) => /^\{([^}]+)\}/.exec(k)?.[1];
    const key = fc.constantFrom(...KEYS);
    const ttl = fc.integer({ min: 1, max: 50 });
    const op = fc.oneof(
      fc.record({ t: fc.constant('set' as const), key, ttl }),
      fc.record({ t: fc.constant('claim' as const), key, ttl }),
      fc.record({ t: fc.constant('lock' as const), key, ttl }),
      fc.record({ t: fc.constant('incr' as const), key, ttl }),
      fc.record({ t: fc.constant('del' as const), key }),
      fc.record({
        t: fc.constant('all' as const),
        ops: fc.array(fc.record({ key, ttl, del: fc.boolean() }), { maxLength: 4 }),
      }),
      fc.record({ t: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 30 }) }),
    );
    const caps = fc.constantFrom(
      { maxEntries: 100, headroom: 0 },
      { maxEntries: 2, headroom: 2 },
      { maxEntries: 3, headroom: 0 },
    );
    await fc.assert(
      fc.asyncProperty(
        caps,
        fc.array(op, { minLength: 200, maxLength: 2_000 }),
        async (cap, ops) => {
          let now = 0;
          let n = 0;
          const store = new MemoryStore({ ...cap, now: () => now });
          const model = new Map<string, { value: string; expiresAt: number }>();
          const live = (k: string) => {
            const e = model.get(k);
            return e && e.expiresAt > now ? e : undefined;
          };
          const count = () => KEYS.filter((k) => live(k)).length;
          const underWay = (k: string) => {
            const tag = tagOf(k);
            return tag !== undefined && KEYS.some((o) => tagOf(o) === tag && live(o));
          };
          // The refusal the rules call for when `added` entries are asked for, or undefined.
          const refusal = (added: number, work: boolean) =>
            added > 0 && count() + added > cap.maxEntries + (work ? cap.headroom : 0)
              ? work
                ? 'full'
                : 'busy'
              : undefined;
          const outcome = async (run: () => Promise<unknown>) =>
            run().then(
              (v) => ({ v }),
              (e: Error) => ({
                refused:
                  e instanceof CheckoutError
                    ? 'busy'
                    : /is full/.test(e.message)
                      ? 'full'
                      : e.message,
              }),
            );
          for (const o of ops) {
            const value = String(++n);
            if (o.t === 'set') {
              const expected = live(o.key) ? undefined : refusal(1, true);
              const got = await outcome(() => store.set(o.key, value, o.ttl));
              assert.equal('refused' in got ? got.refused : undefined, expected);
              if (!expected) model.set(o.key, { value, expiresAt: now + o.ttl });
            } else if (o.t === 'claim' || o.t === 'lock') {
              const taken = !!live(o.key);
              const expected = taken ? undefined : refusal(1, underWay(o.key));
              const got = await outcome(() =>
                o.t === 'claim'
                  ? store.setIfAbsent(o.key, value, o.ttl)
                  : store.lockAndGet(o.key, o.ttl, 'a').then((r) => r.locked),
              );
              assert.equal('refused' in got ? got.refused : undefined, expected, `${o.t} ${o.key}`);
              if (!expected) assert.equal((got as { v: boolean }).v, !taken);
              if (!expected && !taken)
                model.set(o.key, { value: o.t === 'lock' ? '1' : value, expiresAt: now + o.ttl });
            } else if (o.t === 'incr') {
              const e = live(o.key);
              const expected = e ? undefined : refusal(1, underWay(o.key));
              const got = await outcome(() => store.increment(o.key, o.ttl));
              assert.equal('refused' in got ? got.refused : undefined, expected);
              if (!expected) {
                if (e) e.value = String(Number(e.value) + 1);
                else model.set(o.key, { value: '1', expiresAt: now + o.ttl });
                assert.equal(String((got as { v: number }).v), live(o.key)!.value);
              }
            } else if (o.t === 'del') {
              await store.delete(o.key);
              model.delete(o.key);
            } else if (o.t === 'all') {
              const after = new Map(KEYS.map((k) => [k, !!live(k)]));
              for (const w of o.ops) after.set(w.key, !w.del);
              const added = [...after.values()].filter(Boolean).length - count();
              const expected = refusal(added, true);
              const got = await outcome(() =>
                store.writeAll(
                  o.ops.map((w) =>
                    w.del
                      ? { key: w.key, delete: true as const }
                      : { key: w.key, value, ttlMs: w.ttl },
                  ),
                ),
              );
              assert.equal('refused' in got ? got.refused : undefined, expected);
              if (!expected)
                for (const w of o.ops) {
                  if (w.del) model.delete(w.key);
                  else model.set(w.key, { value, expiresAt: now + w.ttl });
                }
            } else {
              now += o.ms;
            }
            for (const k of KEYS)
              assert.equal(await store.get(k), live(k)?.value, `key ${k} at ${now}`);
            assert.equal(store.size, count());
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a nonsense maxEntries or headroom', () => {
    assert.throws(
      () => new MemoryStore({ maxEntries: 0 }),
      /maxEntries must be a positive integer/,
    );
    assert.throws(() => new MemoryStore({ headroom: -1 }), /headroom must be a non-negative/);
    assert.throws(
      () => new MemoryStore({ maxEntires: 10 } as never),
      /MemoryStore: unknown option `maxEntires` \(it takes `maxEntries`, `headroom`, `now`\)/,
    );
  });
});
