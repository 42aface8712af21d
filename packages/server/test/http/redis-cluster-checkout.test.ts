import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RedisStore } from '../../src/index.js';
import { startCluster } from '@pg-checkout/test-helpers/redis-cluster';
import { adapterPair } from '@pg-checkout/test-helpers/adapters';
import { challengeAcrossShop, sandboxShop, UNDER_LOAD } from './helpers/sandbox-shop.js';
import { assertPaidOnce, payAndAudit } from './helpers/paid-once.js';

// One instance on the Express router, the other on the Fetch handler, sharing the store.
const shop = sandboxShop({
  adapters: adapterPair(),
  servers: () => startCluster(3),
  store: (cluster) => new RedisStore({ client: cluster.cluster(), prefix: 'shop:' }),
});
// What the middleware logs when a store call fails (CROSSSLOT, MOVED, a lost connection).
const storeErrors = () =>
  shop.logged
    .map(({ message, fields }) => `${message} ${JSON.stringify(fields)}`)
    .filter((line) => /store|CROSSSLOT|MOVED|slot|redis/i.test(line));

describe('checkout on a 3-master Redis Cluster, two instances', UNDER_LOAD, () => {
  it('takes a full 3-D Secure v2 challenge started on one instance and finished on the other', async () => {
    await challengeAcrossShop(shop);
    assert.deepEqual(storeErrors(), [], 'no store error (CROSSSLOT) logged');
  });

  it('charges each order once under 10 connections, twins included, with its keys spread over all masters', async () => {
    const report = await payAndAudit(shop, {
      connections: 10,
      stop: new Promise((r) => setTimeout(r, 2_000)),
      prefix: `cluster-${Date.now()}`,
      twinEvery: 5,
    });
    assertPaidOnce(report, { paid: 20, answers: /^(200 approved|409 conflict)$/ });
    const cluster = shop.servers;
    const perNode = await Promise.all(cluster.ports.map((_, i) => cluster.node(i).dbsize()));
    assert.ok(
      perNode.every((n) => n > 0),
      `keys per master: ${perNode.join(', ')}`,
    );
    assert.deepEqual(storeErrors(), [], 'no store error (CROSSSLOT) logged');
  });
});
