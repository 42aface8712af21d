/**
 * Stores: 10,000 open 3-D Secure sessions written and read back through the CheckoutStore
 * interface with the middleware's hash-tagged keys and its lockAndGet/writeAll calls, in memory,
 * on one Redis and on a 3-master Redis Cluster.
 */
import { randomBytes } from 'node:crypto';
import { MemoryStore, RedisStore, type CheckoutStore } from '@pg-checkout/express';
import { pool } from './lib/pool.js';
import { startRedis } from './lib/redis.js';
import { startCluster } from '@pg-checkout/test-helpers/redis-cluster';
import { memoryAfterGc } from './lib/serve.js';

const SESSIONS = 10_000;
const CONCURRENCY = 50;
const TTL = 1_800_000;

/** What the middleware keeps for one payment waiting on 3-D Secure (shape of its PaymentRecord). */
function record(i: number, tdsMethodContent: string) {
  const reference = `SB00aa${i.toString(36).padStart(6, '0')}`;
  const session = randomBytes(24).toString('base64url');
  const threeDS = {
    version: 2,
    step: 'method',
    methodUrl: `https://shop.example/checkout/3ds/${session}/method`,
    tdsMethodContent,
    txId: randomBytes(16).toString('hex'),
    transactionId: randomBytes(16).toString('hex'),
    confirmUrl: `https://shop.example/checkout/payments/${reference}/3dsv2/confirm`,
  };
  return {
    order: `order-${i}`,
    session,
    reference,
    // Serialized when written, as the middleware does, so the store holds the only copy.
    value: () =>
      JSON.stringify({
        merchantReference: `order-${i}-${randomBytes(6).toString('base64url')}`,
        orderReference: `order-${i}`,
        amount: 10_000,
        currency: 'ZAR',
        pageOrigin: 'https://shop.example',
        session,
        reference,
        state: { success: true, status: 'authenticating', reference, threeDS },
        threeDS,
      }),
  };
}

const orderTag = (order: string) => `{o:${encodeURIComponent(order)}}`;
const paymentTag = (reference: string) => `{p:${reference}}`;

/** Create: claim the order and read its ledger; the payment record; ledger written, lock dropped. */
async function open(store: CheckoutStore, r: ReturnType<typeof record>): Promise<number> {
  const o = orderTag(r.order);
  const claim = await store.lockAndGet(`${o}:lock`, 120_000, `${o}:ledger`);
  if (!claim.locked) throw new Error('order locked');
  await store.set(`${paymentTag(r.reference)}:pay`, r.value(), TTL);
  await store.writeAll([
    {
      key: `${o}:ledger`,
      value: JSON.stringify({ attempts: { 1: { status: 'open', reference: r.reference } } }),
      ttlMs: TTL,
    },
    { key: `${o}:lock`, delete: true },
  ]);
  return 3;
}

/** The bank's callback: the record, the one-time confirm claim, the order under its lock. */
async function callback(store: CheckoutStore, r: ReturnType<typeof record>): Promise<number> {
  const p = paymentTag(r.reference);
  const o = orderTag(r.order);
  await store.get(`${p}:pay`);
  await store.setIfAbsent(`${p}:confirm`, '1', TTL);
  const claim = await store.lockAndGet(`${o}:lock`, 120_000, `${o}:ledger`);
  if (!claim.locked) throw new Error('order locked');
  await store.writeAll([{ key: `${o}:lock`, delete: true }]);
  return 4;
}

async function drive(
  store: CheckoutStore,
  records: ReturnType<typeof record>[],
  step: typeof open,
): Promise<{ ops: number; seconds: number }> {
  let ops = 0;
  const started = performance.now();
  await pool(CONCURRENCY, records.length, async (i) => {
    const done = await step(store, records[i]!);
    ops += done;
  });
  return { ops, seconds: (performance.now() - started) / 1000 };
}

export interface StoreRow {
  store: string;
  openOpsPerSecond: number;
  callbackOpsPerSecond: number;
  sessionsPerSecond: number;
  mbPer10k: number;
}

export async function benchStores(tdsMethodContent: string): Promise<StoreRow[]> {
  const rows: StoreRow[] = [];
  const records = Array.from({ length: SESSIONS }, (_, i) => record(i, tdsMethodContent));

  // Room for every session's entries, so the figures are not about a full store.
  const memory = new MemoryStore({ maxEntries: 4 * SESSIONS });
  const heapBefore = memoryAfterGc().heapUsedMb;
  const memOpen = await drive(memory, records, open);
  const heapAfter = memoryAfterGc().heapUsedMb;
  const memCallback = await drive(memory, records, callback);
  rows.push({
    store: 'MemoryStore',
    openOpsPerSecond: memOpen.ops / memOpen.seconds,
    callbackOpsPerSecond: memCallback.ops / memCallback.seconds,
    sessionsPerSecond: SESSIONS / memOpen.seconds,
    mbPer10k: heapAfter - heapBefore,
  });

  const redis = await startRedis();
  try {
    const store = new RedisStore({ client: redis.client });
    const used = async () =>
      Number(/used_memory:(\d+)/.exec(await redis.client.info('memory'))![1]) / 1024 / 1024;
    const usedBefore = await used();
    const redisOpen = await drive(store, records, open);
    const usedAfter = await used();
    const redisCallback = await drive(store, records, callback);
    rows.push({
      store: 'RedisStore (ioredis, loopback)',
      openOpsPerSecond: redisOpen.ops / redisOpen.seconds,
      callbackOpsPerSecond: redisCallback.ops / redisCallback.seconds,
      sessionsPerSecond: SESSIONS / redisOpen.seconds,
      mbPer10k: usedAfter - usedBefore,
    });
  } finally {
    await redis.stop();
  }

  const cluster = await startCluster(3);
  try {
    const store = new RedisStore({ client: cluster.cluster() });
    const used = async () => {
      let bytes = 0;
      for (let i = 0; i < cluster.ports.length; i++)
        bytes += Number(/used_memory:(\d+)/.exec(await cluster.node(i).info('memory'))![1]);
      return bytes / 1024 / 1024;
    };
    const usedBefore = await used();
    const clusterOpen = await drive(store, records, open);
    const usedAfter = await used();
    const clusterCallback = await drive(store, records, callback);
    rows.push({
      store: 'RedisStore (ioredis Cluster, 3 masters on loopback)',
      openOpsPerSecond: clusterOpen.ops / clusterOpen.seconds,
      callbackOpsPerSecond: clusterCallback.ops / clusterCallback.seconds,
      sessionsPerSecond: SESSIONS / clusterOpen.seconds,
      mbPer10k: usedAfter - usedBefore,
    });
  } finally {
    await cluster.stop();
  }
  return rows;
}
