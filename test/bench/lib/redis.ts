/** A throwaway redis-server on a free loopback port, killed when the bench is done. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface BenchRedis {
  client: Redis;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const child = spawn(
    process.env.REDIS_SERVER ?? '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw error;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    client,
    stop: async () => {
      client.disconnect();
      child.kill('SIGTERM');
      await exited;
    },
  };
}
