import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RedisStore } from '../src/stores/redis.js';
import { storeSuite } from './helpers/store-suite.js';
import {
  callsBetween,
  commandCalls,
  startRedis,
  type TestRedis,
} from '@pg-checkout/test-helpers/redis-server';

let redis: TestRedis;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis.stop();
});

storeSuite('RedisStore', () => new RedisStore({ client: redis.client() }));

describe('RedisStore specifics', () => {
  it('namespaces keys with the prefix, so two shops do not collide', async () => {
    const a = new RedisStore({ client: redis.client(), prefix: 'shop-a:' });
    const b = new RedisStore({ client: redis.client(), prefix: 'shop-b:' });
    await a.set('same', 'A', 10_000);
    assert.equal(await b.get('same'), undefined);
    assert.equal(await redis.client().get('shop-a:same'), 'A');
  });

  it('runs lockAndGet, writeAll and increment as one EVALSHA each, never resending the script', async () => {
    const client = redis.client();
    const store = new RedisStore({ client });
    // Warm up: the first call on a fresh server may load each script once.
    await store.lockAndGet('{o:warm}:lock', 10_000, '{o:warm}:ledger');
    await store.writeAll([{ key: '{o:warm}:lock', delete: true }]);
    await store.increment('rl:warm', 10_000);
    const before = await commandCalls(client);
    await store.lockAndGet('{o:a}:lock', 10_000, '{o:a}:ledger');
    await store.writeAll([
      { key: '{o:a}:ledger', value: 'paid', ttlMs: 10_000 },
      { key: '{o:a}:lock', delete: true },
    ]);
    await store.increment('rl:a', 10_000);
    await store.increment('rl:a', 10_000);
    const delta = callsBetween(before, await commandCalls(client));
    // SET NX + GET; SET + DEL; INCR + PEXPIRE, INCR: 4 EVALSHA, 7 commands inside them.
    assert.deepEqual(delta, { evalsha: 4, set: 2, get: 1, del: 1, incr: 2, pexpire: 1 });
  });

  it('loads its scripts again after the server forgot them (NOSCRIPT)', async () => {
    const client = redis.client();
    const store = new RedisStore({ client });
    await store.increment('rl:flush', 10_000);
    await client.script('FLUSH');
    assert.equal(await store.increment('rl:flush', 10_000), 2);
    await client.script('FLUSH');
    assert.deepEqual(await store.lockAndGet('{o:f}:lock', 10_000, '{o:f}:x'), {
      locked: true,
      value: undefined,
    });
    await client.script('FLUSH');
    await store.writeAll([{ key: '{o:f}:x', value: 'v', ttlMs: 10_000 }]);
    assert.equal(await store.get('{o:f}:x'), 'v');
    const before = await commandCalls(client);
    await store.writeAll([{ key: '{o:f}:x', delete: true }]);
    assert.deepEqual(
      callsBetween(before, await commandCalls(client)),
      { evalsha: 1, del: 1 },
      'once reloaded, the script is called by its SHA again',
    );
  });

  it('keeps the hash tags of the keys: the prefix goes in front, outside the tag', async () => {
    const client = redis.client();
    const store = new RedisStore({ client, prefix: 'shop:' });
    await store.writeAll([{ key: '{o:order%201}:ledger', value: 'L', ttlMs: 10_000 }]);
    assert.equal(await client.get('shop:{o:order%201}:ledger'), 'L');
    assert.ok((await client.pttl('shop:{o:order%201}:ledger')) > 9_000);
  });

  it('refuses a prefix with { or }, which would change the keys hash slots', () => {
    assert.throws(
      () => new RedisStore({ client: redis.client(), prefix: 'shop{a}:' }),
      /prefix must be a string without \{ or \}/,
    );
  });

  it('refuses an option it does not know', () => {
    assert.throws(
      () => new RedisStore({ client: redis.client(), keyPrefix: 'x:' } as never),
      /RedisStore: unknown option `keyPrefix` \(it takes `client`, `prefix`\)/,
    );
  });

  it('refuses to start without an ioredis client', () => {
    assert.throws(() => new RedisStore({} as never), /needs `client`, an ioredis instance/);
  });
});
