import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A throwaway redis-server on a free port, for tests. */
export interface TestRedis {
  port: number;
  /** A new connected client; all are closed by `stop()`. */
  client(): Redis;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const probe = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      probe.disconnect();
    }
  }
}

export async function startRedis(): Promise<TestRedis> {
  const binary =
    process.env.REDIS_SERVER ??
    (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server');
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const clients: Redis[] = [];
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(new Error(`cannot start ${binary}: ${error.message} (set REDIS_SERVER)`)),
    ),
  );
  await Promise.race([waitForPing(port), failed]);
  failed.catch(() => undefined);
  return {
    port,
    client() {
      const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.disconnect();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Calls per command from `INFO commandstats` (commands run inside scripts count too). */
export async function commandCalls(client: Redis): Promise<Record<string, number>> {
  const info = await client.info('commandstats');
  const calls: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    calls[match[1]!] = Number(match[2]);
  }
  return calls;
}

/** What changed between two {@link commandCalls} readings, leaving out the reading itself. */
export function callsBetween(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [name, count] of Object.entries(after)) {
    const n = count - (before[name] ?? 0) - (name === 'info' ? 1 : 0);
    if (n > 0) delta[name] = n;
  }
  return delta;
}
