import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Cluster } from 'ioredis';
import { RedisStore } from '../src/stores/redis.js';
import { storeSuite } from './helpers/store-suite.js';
import { startCluster, type TestCluster } from '@pg-checkout/test-helpers/redis-cluster';
import { callsBetween, commandCalls } from '@pg-checkout/test-helpers/redis-server';

let cluster: TestCluster;
let client: Cluster;
before(async () => {
  cluster = await startCluster(3);
  client = cluster.cluster();
});
after(async () => {
  await cluster?.stop();
});

storeSuite('RedisStore on a 3-master Redis Cluster', () => new RedisStore({ client }));

/** Which of the three nodes owns `key`'s slot, asked of the servers (not of ioredis). */
async function owner(key: string): Promise<number> {
  const slot = Number(await cluster.node(0).call('CLUSTER', 'KEYSLOT', key));
  const ranges = (await cluster.node(0).call('CLUSTER', 'SLOTS')) as [
    number,
    number,
    [string, number],
  ][];
  const range = ranges.find(([first, last]) => first <= slot && slot <= last);
  return cluster.ports.indexOf(Number(range?.[2][1]));
}

describe('RedisStore on a Redis Cluster', () => {
  it('keeps an order’s keys in one slot and spreads orders over every master', async () => {
    const store = new RedisStore({ client, prefix: 'shop:' });
    const owners = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const order = `{o:${encodeURIComponent(`order ${i}/x`)}}`;
      const lock = await store.lockAndGet(`${order}:lock`, 10_000, `${order}:ledger`);
      assert.deepEqual(lock, { locked: true, value: undefined });
      await store.writeAll([
        { key: `${order}:ledger`, value: `L${i}`, ttlMs: 10_000 },
        { key: `${order}:open`, value: 'O', ttlMs: 10_000 },
        { key: `${order}:lock`, delete: true },
      ]);
      const ledgerOwner = await owner(`shop:${order}:ledger`);
      assert.equal(await owner(`shop:${order}:open`), ledgerOwner);
      owners.add(ledgerOwner);
      assert.equal(await store.get(`${order}:ledger`), `L${i}`);
      assert.equal(await store.get(`${order}:lock`), undefined);
    }
    assert.deepEqual([...owners].sort(), [0, 1, 2], 'thirty orders land on all three masters');
  });

  it('runs lockAndGet and writeAll as one EVALSHA on the node that owns the order', async () => {
    const store = new RedisStore({ client });
    const order = '{o:counted}';
    await store.lockAndGet(`${order}:warm`, 10, `${order}:ledger`);
    await store.writeAll([{ key: `${order}:warm`, delete: true }]);
    const node = cluster.node(await owner(`pg-checkout:${order}:warm`));
    const others = [0, 1, 2]
      .map((i) => cluster.node(i))
      .filter((n) => n.options.port !== node.options.port);
    const before = await Promise.all([node, ...others].map(commandCalls));
    await store.lockAndGet(`${order}:lock`, 10_000, `${order}:ledger`);
    await store.writeAll([
      { key: `${order}:ledger`, value: 'paid', ttlMs: 10_000 },
      { key: `${order}:lock`, delete: true },
    ]);
    const after = await Promise.all([node, ...others].map(commandCalls));
    assert.deepEqual(callsBetween(before[0]!, after[0]!), { evalsha: 2, set: 2, get: 1, del: 1 });
    assert.deepEqual(callsBetween(before[1]!, after[1]!), {});
    assert.deepEqual(callsBetween(before[2]!, after[2]!), {});
  });

  it('writes keys of different orders and payments in one writeAll: one script per hash tag', async () => {
    const store = new RedisStore({ client });
    const keys = Array.from({ length: 12 }, (_, i) => `{p:SB${i}}:state`);
    await store.writeAll([
      ...keys.map((key) => ({ key, value: key, ttlMs: 10_000 })),
      { key: '{o:other}:lock', delete: true },
    ]);
    for (const key of keys) assert.equal(await store.get(key), key);
  });

  it('claims a lock and reads a key of another slot, in order, when their tags differ', async () => {
    const store = new RedisStore({ client });
    assert.deepEqual(await store.lockAndGet('{o:a}:lock', 10_000, '{p:SB1}:state'), {
      locked: true,
      value: '{p:SB1}:state',
    });
    assert.deepEqual(await store.lockAndGet('{o:a}:lock', 10_000, '{p:SB1}:state'), {
      locked: false,
    });
  });

  it('refuses a writeAll conditional on a lock of another hash tag: it could not be one script', async () => {
    const store = new RedisStore({ client });
    await store.lockAndGet('{o:c}:lock', 10_000, '{o:c}:ledger', 'tok');
    await assert.rejects(
      store.writeAll([{ key: '{p:SBX}:state', value: 'v', ttlMs: 10_000 }], {
        key: '{o:c}:lock',
        value: 'tok',
      }),
      /does not share the hash tag/,
    );
    assert.equal(await store.get('{p:SBX}:state'), undefined);
  });

  it('reloads its scripts on a master that forgot them', async () => {
    const store = new RedisStore({ client });
    await store.increment('{r:ip}:1', 10_000);
    await Promise.all([0, 1, 2].map((i) => cluster.node(i).script('FLUSH')));
    assert.equal(await store.increment('{r:ip}:1', 10_000), 2);
  });
});
