import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../src/index.js';
import { storeSuite } from './helpers/store-suite.js';

storeSuite('MemoryStore', () => new MemoryStore());

describe('MemoryStore bounds', () => {
  it('evicts the oldest entries beyond maxEntries', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    for (const k of ['a', 'b', 'c', 'd']) await store.set(k, k, 60_000);
    assert.equal(store.size, 3);
    assert.equal(await store.get('a'), undefined);
    assert.equal(await store.get('d'), 'd');
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
