import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis, type ClusterOptions } from 'ioredis';
import { freePort, onFreePort, spawnRedis, type RedisProcess } from './redis-server.js';

/** A throwaway Redis Cluster of masters on free loopback ports (no replicas), for tests. */
export interface TestCluster {
  ports: number[];
  /** A new ioredis Cluster client; all are closed by `stop()`. */
  cluster(options?: ClusterOptions): Cluster;
  /** The plain client of one node (for INFO, CLUSTER, SCRIPT on that node); closed by `stop()`. */
  node(index: number): Redis;
  stop(): Promise<void>;
}

const SLOTS = 16_384;

/**
 * Starts `masters` redis-server processes with `--cluster-enabled yes`, gives each an even share
 * of the slots with CLUSTER ADDSLOTSRANGE, joins them with CLUSTER MEET (data and bus ports both
 * picked free, so nothing assumes port + 10000) and waits for `cluster_state:ok` on every node.
 */
export async function startCluster(masters = 3): Promise<TestCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'pg-cluster-'));
  const servers: RedisProcess[] = [];
  const admins: Redis[] = [];
  const clients: Array<Cluster | Redis> = [];
  const stop = async () => {
    for (const client of clients) client.disconnect();
    for (const admin of admins) admin.disconnect();
    await Promise.all(servers.map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const busPorts: number[] = [];
    for (let i = 0; i < masters; i++) {
      let bus = 0;
      const server = await onFreePort(async (port) => {
        bus = await freePort();
        return spawnRedis(port, [
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(bus),
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '5000',
          '--dir',
          dir,
        ]);
      });
      busPorts.push(bus);
      servers.push(server);
      const admin = new Redis({ port: server.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
      admins.push(admin);
    }
    for (const [i, admin] of admins.entries()) {
      const first = Math.floor((SLOTS * i) / masters);
      const last = Math.floor((SLOTS * (i + 1)) / masters) - 1;
      await admin.call('CLUSTER', 'ADDSLOTSRANGE', String(first), String(last));
      await admin.call('CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1));
    }
    for (let i = 1; i < masters; i++) {
      await admins[0]!.call(
        'CLUSTER',
        'MEET',
        '127.0.0.1',
        String(servers[i]!.port),
        String(busPorts[i]),
      );
    }
    const deadline = Date.now() + 20_000;
    for (const admin of admins) {
      for (;;) {
        const info = String(await admin.call('CLUSTER', 'INFO'));
        if (info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${masters}`))
          break;
        if (Date.now() > deadline) throw new Error(`cluster did not form:\n${info}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const ports = servers.map((s) => s.port);
  return {
    ports,
    cluster(options = {}) {
      const client = new Cluster(
        ports.map((port) => ({ host: '127.0.0.1', port })),
        { redisOptions: { maxRetriesPerRequest: 1 }, ...options },
      );
      clients.push(client);
      return client;
    },
    node(index) {
      return admins[index]!;
    },
    stop,
  };
}
