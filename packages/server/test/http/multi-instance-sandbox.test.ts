import { describe, it } from 'node:test';
import { RedisStore } from '../../src/index.js';
import { startRedis } from '@pg-checkout/test-helpers/redis-server';
import { adapterPair } from '@pg-checkout/test-helpers/adapters';
import { challengeAcrossShop, sandboxShop } from './helpers/sandbox-shop.js';

// One instance on the Express router, the other on the Fetch handler, sharing the store.
const shop = sandboxShop({
  adapters: adapterPair(),
  servers: startRedis,
  store: (redis) => new RedisStore({ client: redis.client(), prefix: 'shop:' }),
});

describe('two instances sharing Redis, against the sandbox', () => {
  it('v2 started on one, method, Step 2 and the bank posts through both: confirmed once, approved', async () => {
    await challengeAcrossShop(shop);
  });
});
