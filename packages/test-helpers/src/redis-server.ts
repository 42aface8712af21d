import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';

/** A throwaway redis-server on a free port, for tests. */
export interface TestRedis {
  port: number;
  /** A new connected client; all are closed by `stop()`. */
  client(options?: RedisOptions): Redis;
  stop(): Promise<void>;
}

/** A redis-server (or sentinel) process started by a test, killed by `stop()` or when the test process exits. */
export interface RedisProcess {
  port: number;
  child: ChildProcess;
  /** SIGKILL: the way a crashed primary goes away. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// A test that fails before its after hook still leaves no server behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function redisBinary(): string {
  return (
    process.env.REDIS_SERVER ??
    (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server')
  );
}

export async function freePort(): Promise<number> {
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

export async function waitForPing(port: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
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

/**
 * Starts `redis-server` on 127.0.0.1:`port` with no persistence; `args` come first (a config file
 * path for a sentinel) and `extra` after the defaults.
 */
export async function spawnRedis(
  port: number,
  extra: string[] = [],
  args: string[] = [],
): Promise<RedisProcess> {
  const binary = redisBinary();
  const child = spawn(
    binary,
    [
      ...args,
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      ...extra,
    ],
    { stdio: 'ignore' },
  );
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(new Error(`cannot start ${binary}: ${error.message} (set REDIS_SERVER)`)),
    );
    child.once('exit', (code) => reject(new Error(`${binary} exited at once (code ${code})`)));
  });
  failed.catch(() => undefined);
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    await Promise.race([waitForPing(port), failed]);
  } catch (error) {
    await end('SIGKILL');
    throw error;
  }
  return { port, child, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

/**
 * Runs `start` on a free port, again on another one if it fails: a port found free can be taken
 * by another test file before the server binds it.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= tries) throw error;
    }
  }
}

export async function startRedis(): Promise<TestRedis> {
  const server = await onFreePort((port) => spawnRedis(port));
  const port = server.port;
  const clients: Redis[] = [];
  return {
    port,
    client(options: RedisOptions = {}) {
      const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, ...options });
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.disconnect();
      await server.stop();
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

// What a client sends to keep its connection and slot map, not what a payment costs.
const HOUSEKEEPING = new Set([
  'info',
  'cluster',
  'ping',
  'client',
  'command',
  'hello',
  'select',
  'readonly',
]);
// A script or a MULTI block counts the commands it runs (commandstats counts those too), not itself.
const WRAPPERS = new Set(['evalsha', 'eval', 'multi', 'exec']);

/**
 * Redis commands per payment between two {@link commandCalls} readings of every node: the
 * breakdown by command (housekeeping left out) and the total of what ran (wrappers left out).
 */
export function commandsPerPayment(
  before: Record<string, number>[],
  after: Record<string, number>[],
  payments: number,
): { perPayment: number; breakdown: Record<string, number> } {
  const breakdown: Record<string, number> = {};
  for (const [i, node] of before.entries())
    for (const [name, n] of Object.entries(callsBetween(node, after[i]!)))
      if (!HOUSEKEEPING.has(name)) breakdown[name] = (breakdown[name] ?? 0) + n;
  // Whole counts summed over the nodes, divided once: no float drift past the bound.
  const total = Object.entries(breakdown)
    .filter(([name]) => !WRAPPERS.has(name))
    .reduce((sum, [, n]) => sum + n, 0);
  for (const name of Object.keys(breakdown)) breakdown[name] = breakdown[name]! / payments;
  return { perPayment: total / payments, breakdown };
}
