/**
 * Stores: 10,000 open 3-D Secure sessions written and read back through the CheckoutStore
 * interface with the keys, values and sequence the middleware uses, in memory and in Redis.
 */
import { randomBytes } from 'node:crypto';
import { MemoryStore, RedisStore, type CheckoutStore } from '@pg-checkout/express';
import { pool } from './lib/pool.js';
import { startRedis } from './lib/redis.js';
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

/** Create: order lock, paid and open checks, open attempt, record, session binding, unlock. */
async function open(store: CheckoutStore, r: ReturnType<typeof record>): Promise<number> {
  await store.setIfAbsent(`lock:${r.order}`, '1', 300_000);
  await store.get(`paid:${r.order}`);
  await store.get(`open:${r.order}`);
  await store.set(`open:${r.order}`, JSON.stringify([{ session: r.session }]), TTL);
  await store.delete(`open:${r.order}`);
  await store.set(`pay:${r.reference}`, r.value(), TTL);
  await store.set(`3ds:${r.session}`, r.reference, TTL);
  await store.delete(`lock:${r.order}`);
  return 8;
}

/** The bank's callback: session to reference, the record, the one-time confirm claim. */
async function callback(store: CheckoutStore, r: ReturnType<typeof record>): Promise<number> {
  const reference = await store.get(`3ds:${r.session}`);
  await store.get(`pay:${reference}`);
  await store.setIfAbsent(`confirm:${r.session}`, '1', TTL);
  return 3;
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

  // The default bound (10,000 entries) would evict: each open session holds two entries.
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
  return rows;
}
