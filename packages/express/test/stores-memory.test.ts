import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CheckoutError } from '../src/errors.js';
import { MemoryStore } from '../src/stores/memory.js';
import { storeSuite } from './helpers/store-suite.js';

storeSuite('MemoryStore', () => new MemoryStore());

describe('MemoryStore bounds', () => {
  it('never evicts a live entry: a full store refuses new keys with a 503', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    for (const k of ['a', 'b', 'c']) await store.set(k, k, 60_000);
    await assert.rejects(store.set('d', 'd', 60_000), (err: CheckoutError) => {
      assert.equal(err.status, 503);
      assert.equal(err.code, 'service_busy');
      assert.match(err.message, /not been charged/);
      return true;
    });
    await assert.rejects(store.setIfAbsent('d', 'd', 60_000), CheckoutError);
    await assert.rejects(store.increment('d', 60_000), CheckoutError);
    assert.equal(store.size, 3);
    assert.equal(await store.get('a'), 'a', 'the oldest live entry is still there');
    await store.set('a', 'A', 60_000);
    assert.equal(await store.get('a'), 'A', 'replacing an existing key still works when full');
  });

  it('drops expired entries before evicting live ones', async () => {
    let now = 1_000;
    const store = new MemoryStore({ maxEntries: 2, now: () => now });
    await store.set('short', 'x', 10);
    await store.set('long', 'y', 60_000);
    now += 20;
    await store.set('new', 'z', 60_000);
    assert.equal(await store.get('long'), 'y');
    assert.equal(await store.get('new'), 'z');
  });

  it('refuses a nonsense maxEntries', () => {
    assert.throws(
      () => new MemoryStore({ maxEntries: 0 }),
      /maxEntries must be a positive integer/,
    );
  });
});
