import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import { onFreePort, spawnRedis, type RedisProcess } from './redis-server.js';

/** A primary, its replicas and three sentinels on free loopback ports, for tests. */
export interface TestSentinel {
  /** The monitored master's name, as ioredis' `name` option wants it. */
  name: string;
  sentinels: { host: string; port: number }[];
  /** A new ioredis client that finds the primary through the sentinels; closed by `stop()`. */
  client(options?: RedisOptions): Redis;
  /** A plain client of whichever server is primary now. */
  primary(): Promise<Redis>;
  /** The port the sentinels give for the primary now. */
  primaryPort(): Promise<number>;
  /** SIGKILLs the current primary (a crash, not a shutdown); resolves with its port. */
  killPrimary(): Promise<number>;
  /** Resolves with the new primary's port once every sentinel names one other than `oldPort`. */
  waitForFailover(oldPort: number, timeoutMs: number): Promise<number>;
  stop(): Promise<void>;
}

export interface SentinelTiming {
  /**
   * Sentinel's `down-after-milliseconds`; left out of the configuration (Sentinel's default,
   * 30 s) when undefined.
   */
  downAfterMs?: number;
  /** Sentinel's `failover-timeout`; default left to Sentinel (3 minutes). */
  failoverTimeoutMs?: number;
}

const NAME = 'pgcheckout';

/**
 * Starts one primary, `replicas` replicas of it and three sentinels (quorum 2) in sentinel mode
 * (`redis-server <conf> --sentinel`, which Debian's redis-server package runs without the
 * separate redis-sentinel package), and waits until every sentinel knows the replicas and the
 * other sentinels, so a failover can happen.
 */
export async function startSentinel(
  timing: SentinelTiming = {},
  replicas = 1,
): Promise<TestSentinel> {
  const dir = await mkdtemp(join(tmpdir(), 'pg-sentinel-'));
  const servers: RedisProcess[] = [];
  const sentinels: RedisProcess[] = [];
  const clients: Redis[] = [];
  const stop = async () => {
    for (const client of clients) client.disconnect();
    await Promise.all([...sentinels, ...servers].map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  const admin = (port: number) => {
    const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    clients.push(client);
    return client;
  };
  try {
    const primary = await onFreePort((port) => spawnRedis(port, ['--dir', dir]));
    servers.push(primary);
    const primaryPort = primary.port;
    for (let i = 0; i < replicas; i++) {
      servers.push(
        await onFreePort((port) =>
          spawnRedis(port, ['--dir', dir, '--replicaof', '127.0.0.1', String(primaryPort)]),
        ),
      );
    }
    for (let i = 0; i < 3; i++) {
      const lines = [`sentinel monitor ${NAME} 127.0.0.1 ${primaryPort} 2`];
      if (timing.downAfterMs !== undefined)
        lines.push(`sentinel down-after-milliseconds ${NAME} ${timing.downAfterMs}`);
      if (timing.failoverTimeoutMs !== undefined)
        lines.push(`sentinel failover-timeout ${NAME} ${timing.failoverTimeoutMs}`);
      sentinels.push(
        await onFreePort(async (port) => {
          // Sentinel rewrites its configuration file, so each gets its own.
          const conf = join(dir, `sentinel-${port}.conf`);
          await writeFile(conf, lines.join('\n') + '\n');
          return spawnRedis(port, ['--dir', dir], [conf, '--sentinel']);
        }),
      );
    }
    const deadline = Date.now() + 20_000;
    for (const replica of servers.slice(1)) {
      const client = admin(replica.port);
      while (!(await client.info('replication')).includes('master_link_status:up')) {
        if (Date.now() > deadline) throw new Error('replica did not sync with the primary');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (const sentinel of sentinels) {
      const client = admin(sentinel.port);
      for (;;) {
        const known = (await client.call('SENTINEL', 'REPLICAS', NAME)) as unknown[];
        const peers = (await client.call('SENTINEL', 'SENTINELS', NAME)) as unknown[];
        if (known.length === replicas && peers.length === 2) break;
        if (Date.now() > deadline) throw new Error('sentinels did not discover each other');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const sentinelAddresses = sentinels.map((s) => ({ host: '127.0.0.1', port: s.port }));
  const askedSentinels = sentinels.map((s) => admin(s.port));
  const masterPortFrom = async (sentinel: Redis) => {
    const [, port] = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', NAME)) as [
      string,
      string,
    ];
    return Number(port);
  };
  const primaryPort = () => masterPortFrom(askedSentinels[0]!);
  return {
    name: NAME,
    sentinels: sentinelAddresses,
    client(options = {}) {
      const client = new Redis({
        sentinels: sentinelAddresses,
        name: NAME,
        maxRetriesPerRequest: 1,
        ...options,
      });
      // Refused connections while a primary is down are expected here; commands still reject.
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    },
    async primary() {
      return admin(await primaryPort());
    },
    primaryPort,
    async killPrimary() {
      const port = await primaryPort();
      const server = servers.find((s) => s.port === port);
      if (!server) throw new Error(`no server of ours on port ${port}`);
      await server.kill();
      return port;
    },
    async waitForFailover(oldPort, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ports = await Promise.all(askedSentinels.map(masterPortFrom));
        if (ports.every((p) => p !== oldPort && p === ports[0])) return ports[0]!;
        if (Date.now() > deadline)
          throw new Error(`no failover from ${oldPort} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop,
  };
}
