import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RedisStore } from '../src/index.js';
import { storeSuite } from './helpers/store-suite.js';
import { startRedis, type TestRedis } from './helpers/redis-server.js';

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

  it('refuses to start without an ioredis client', () => {
    assert.throws(() => new RedisStore({} as never), /needs `client`, an ioredis instance/);
  });
});
