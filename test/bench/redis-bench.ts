/**
 * The card-payment route on each store side by side: MemoryStore, RedisStore on one
 * redis-server, RedisStore on a 3-master Redis Cluster; throughput and latency at 1, 10 and
 * 50 connections, and the Redis commands each approved payment cost, counted by the servers.
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Redis } from 'ioredis';
import { startChild, type Child } from './lib/child.js';
import { quantile } from './lib/pool.js';
import type { SandboxReady } from './sandbox-bench.js';
import { startRedis } from '@pg-checkout/test-helpers/redis-server';
import { startCluster } from '@pg-checkout/test-helpers/redis-cluster';
import { cardBody } from '@pg-checkout/test-helpers/cards';
import {
  commandCalls,
  commandsPerPayment as perPaymentOf,
} from '@pg-checkout/test-helpers/redis-server';

export const STORE_LEVELS = [1, 10, 50] as const;
const ROUND_SECONDS = 3;
const ROUNDS = 5;
const STORES = ['memory', 'redis', 'cluster'] as const;
type StoreKind = (typeof STORES)[number];

const BODY = JSON.stringify(cardBody('4111111111111111'));

export interface StoreLoad {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

/** Redis commands per approved payment, by command, from 20 payments one after another. */
export interface CommandCount {
  perPayment: number;
  breakdown: Record<string, number>;
}

async function load(
  app: Child<{ url: string }>,
  nodes: Redis[],
  seconds: number,
  connections: number,
): Promise<StoreLoad> {
  const latencies: number[] = [];
  let bad = 0;
  const instance = autocannon({
    url: `${app.ready.url}/payments`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', origin: 'https://shop.test' },
    body: BODY,
  });
  instance.on('response', (_c: unknown, status: number, _b: number, ms: number) => {
    if (status === 200) latencies.push(ms);
    else bad++;
  });
  const result = await instance;
  return {
    rps: latencies.length / result.duration,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    bad: bad + result.errors + result.timeouts,
  };
}

/**
 * Payments one at a time, so every command counted belongs to a payment that finished: INFO
 * commandstats on every node before and after; a script counts the commands it runs.
 */
async function countCommands(
  app: Child<{ url: string }>,
  nodes: Redis[],
  PAYMENTS = 20,
): Promise<CommandCount> {
  const before = await Promise.all(nodes.map(commandCalls));
  for (let i = 0; i < PAYMENTS; i++) {
    const response = await fetch(`${app.ready.url}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://shop.test' },
      body: BODY,
    });
    const answer = (await response.json()) as { status?: string };
    if (answer.status !== 'approved')
      throw new Error(`payment not approved: ${JSON.stringify(answer)}`);
  }
  const after = await Promise.all(nodes.map(commandCalls));
  return perPaymentOf(before, after, PAYMENTS);
}

export async function benchRedisRoutes(sandbox: Child<SandboxReady>) {
  const redis = await startRedis();
  const cluster = await startCluster(3);
  const nodes: Record<StoreKind, Redis[]> = {
    memory: [],
    redis: [redis.client()],
    cluster: cluster.ports.map((_, i) => cluster.node(i)),
  };
  const apps = {} as Record<StoreKind, Child<{ url: string }>>;
  const env = {
    SANDBOX_URL: sandbox.ready.url,
    PG_TOKEN: sandbox.ready.token,
    PG_SECRET: sandbox.ready.secret,
    REDIS_PORT: String(redis.port),
    CLUSTER_PORTS: cluster.ports.join(','),
  };
  const script = fileURLToPath(new URL('./lib/store-app-child.ts', import.meta.url));
  try {
    for (const kind of STORES)
      apps[kind] = await startChild<{ url: string }>(script, { ...env, STORE: kind });
    for (const kind of STORES) await load(apps[kind], nodes[kind], 2, 10);
    const levels = [];
    for (const connections of STORE_LEVELS) {
      const rounds: Record<StoreKind, StoreLoad>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const r = {} as Record<StoreKind, StoreLoad>;
        // Alternating stores within a round, so a busy moment on the machine hits all alike.
        for (const kind of STORES)
          r[kind] = await load(apps[kind], nodes[kind], ROUND_SECONDS, connections);
        rounds.push(r);
      }
      const median = (pick: (r: Record<StoreKind, StoreLoad>) => number) =>
        rounds.map(pick).sort((a, b) => a - b)[rounds.length >> 1]!;
      const summary = (kind: StoreKind): StoreLoad => ({
        rps: median((r) => r[kind].rps),
        p50: median((r) => r[kind].p50),
        p99: median((r) => r[kind].p99),
        bad: rounds.reduce((n, r) => n + r[kind].bad, 0),
      });
      levels.push({
        connections,
        memory: summary('memory'),
        redis: summary('redis'),
        cluster: summary('cluster'),
        redisRatio: median((r) => r.redis.rps / r.memory.rps),
        clusterRatio: median((r) => r.cluster.rps / r.memory.rps),
        redisAddedP50: median((r) => r.redis.p50 - r.memory.p50),
      });
    }
    const commands = {
      redis: await countCommands(apps.redis, nodes.redis),
      cluster: await countCommands(apps.cluster, nodes.cluster),
    };
    return { levels, commands };
  } finally {
    for (const app of Object.values(apps)) await app.close();
    await redis.stop();
    await cluster.stop();
  }
}

/**
 * Redis commands per approved card payment with every limit on (per client, per shopper, the
 * declines of the order, the shopper and the client), a shopper signed in: on one redis-server
 * and on a 3-master Cluster, 20 payments one after another after 5 to warm up.
 */
export async function benchRedisCommandsWithLimits(sandbox: Child<SandboxReady>) {
  const redis = await startRedis();
  const cluster = await startCluster(3);
  const env = {
    SANDBOX_URL: sandbox.ready.url,
    PG_TOKEN: sandbox.ready.token,
    PG_SECRET: sandbox.ready.secret,
    REDIS_PORT: String(redis.port),
    CLUSTER_PORTS: cluster.ports.join(','),
    LIMITS: 'all',
  };
  const script = fileURLToPath(new URL('./lib/store-app-child.ts', import.meta.url));
  const apps: Child<{ url: string }>[] = [];
  try {
    const count = async (kind: 'redis' | 'cluster', nodes: Redis[]) => {
      const app = await startChild<{ url: string }>(script, { ...env, STORE: kind });
      apps.push(app);
      await countCommands(app, nodes, 5);
      return countCommands(app, nodes);
    };
    return {
      redis: await count('redis', [redis.client()]),
      cluster: await count(
        'cluster',
        cluster.ports.map((_, i) => cluster.node(i)),
      ),
    };
  } finally {
    for (const app of apps) await app.close();
    await redis.stop();
    await cluster.stop();
  }
}
