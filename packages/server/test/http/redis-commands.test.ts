import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { RedisStore } from '../../src/index.js';
import type { CheckoutOptions } from '../../src/index.js';
import { sandboxAppOver } from '@pg-checkout/test-helpers/sandbox-app';
import { startCluster, type TestCluster } from '@pg-checkout/test-helpers/redis-cluster';
import {
  commandCalls,
  commandsPerPayment as perPaymentOf,
  startRedis,
  type TestRedis,
} from '@pg-checkout/test-helpers/redis-server';
import { CARD } from '@pg-checkout/test-helpers/checkout-load';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';

overAdapters((adapter) => {
  const startSandboxApp = sandboxAppOver(adapter);
  let redis: TestRedis;
  let cluster: TestCluster;
  let sandbox: Sandbox;
  before(async () => {
    [redis, cluster, sandbox] = await Promise.all([
      startRedis(),
      startCluster(3),
      createSandbox({ port: 0, host: '127.0.0.1' }),
    ]);
  });
  after(async () => {
    await sandbox?.close();
    await redis?.stop();
    await cluster?.stop();
  });

  /**
   * Redis commands per approved frictionless card payment (POST /payments, 4111…1111), counted
   * by the servers (INFO commandstats on every node), averaged over 20 payments after 5 to warm
   * up (scripts loaded, slots known).
   */
  async function commandsPerPayment(
    store: RedisStore,
    nodes: Redis[],
    overrides: Partial<CheckoutOptions> = {},
  ): Promise<{ perPayment: number; breakdown: Record<string, number> }> {
    const app = await startSandboxApp({ store, ...overrides }, 5_000, sandbox);
    try {
      const pay = async (order: string) => {
        const answer = await app.post('/payments', CARD, { 'x-order': order });
        assert.equal(answer.body.status, 'approved', JSON.stringify(answer.body));
      };
      const run = `${Date.now()}`;
      for (let i = 0; i < 5; i++) await pay(`warm-${run}-${i}`);
      const before = await Promise.all(nodes.map(commandCalls));
      for (let i = 0; i < 20; i++) await pay(`count-${run}-${i}`);
      const after = await Promise.all(nodes.map(commandCalls));
      return perPaymentOf(before, after, 20);
    } finally {
      await app.close();
    }
  }

  describe('Redis commands per approved card payment', () => {
    it('at most 4 on one Redis, and the same on a 3-master Cluster', async (t) => {
      const single = await commandsPerPayment(new RedisStore({ client: redis.client() }), [
        redis.client(),
      ]);
      const nodes = cluster.ports.map((_, i) => cluster.node(i));
      const onCluster = await commandsPerPayment(
        new RedisStore({ client: cluster.cluster() }),
        nodes,
      );
      t.diagnostic(`one Redis: ${single.perPayment} ${JSON.stringify(single.breakdown)}`);
      t.diagnostic(`Cluster: ${onCluster.perPayment} ${JSON.stringify(onCluster.breakdown)}`);
      assert.ok(single.perPayment <= 4, `${single.perPayment} commands per payment`);
      assert.equal(onCluster.perPayment, single.perPayment, 'the cluster runs the same commands');
      assert.equal(single.breakdown.eval ?? 0, 0, 'no script resent with EVAL once loaded');
      assert.equal(onCluster.breakdown.eval ?? 0, 0, 'no script resent with EVAL once loaded');
    });

    it('every limit on (per client, per shopper, declines per order, shopper and client): at most 10 on a 3-master Cluster', async (t) => {
      const nodes = cluster.ports.map((_, i) => cluster.node(i));
      const everyLimit = await commandsPerPayment(
        new RedisStore({ client: cluster.cluster() }),
        nodes,
        {
          rateLimit: {
            windowMs: 3_600_000,
            perIp: 10_000,
            perShopper: 10_000,
            declines: { perOrder: 10, perShopper: 10_000, perIp: 10_000 },
          },
          savedCards: { shopperId: () => 'shopper-commands' },
        },
      );
      t.diagnostic(
        `every limit on: ${everyLimit.perPayment} ${JSON.stringify(everyLimit.breakdown)}`,
      );
      assert.ok(everyLimit.perPayment <= 10, `${everyLimit.perPayment} commands per payment`);
      // The decline places are taken and given back, never read apart.
      assert.equal(everyLimit.breakdown.decr, 2, JSON.stringify(everyLimit.breakdown));
      assert.equal(everyLimit.breakdown.eval ?? 0, 0);
    });

    it('rate limits add their counters by EVALSHA, never resending the script', async (t) => {
      const withLimits = await commandsPerPayment(
        new RedisStore({ client: redis.client() }),
        [redis.client()],
        { rateLimit: { windowMs: 60_000, perIp: 10_000, perShopper: 10_000 } },
      );
      t.diagnostic(
        `rate limits on: ${withLimits.perPayment} ${JSON.stringify(withLimits.breakdown)}`,
      );
      assert.equal(withLimits.breakdown.eval ?? 0, 0);
      assert.ok((withLimits.breakdown.incr ?? 0) >= 1, 'the limit counted');
    });
  });
}, 'express');
