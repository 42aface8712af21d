/**
 * The store-fault phase's Redis: one redis-server on a free loopback port with persistence off,
 * and a fault loop that SIGKILLs it at random moments and starts it again, empty, on the same
 * port after a short random downtime. Every server it starts is killed when the soak ends, also
 * when it fails or is interrupted.
 */
import { freePort, spawnRedis, type RedisProcess } from '@pg-checkout/test-helpers/redis-server';
import { seeded } from './random.js';

export interface FaultStats {
  kills: number;
  /** Sum of kill -> answering PING again, in ms. */
  downtimeMs: number;
  longestDownMs: number;
}

export interface FaultyRedis {
  port: number;
  stats: FaultStats;
  /** Runs the kill/restart loop until `stop()` (or `stopFaults()`); resolves when it ends. */
  startFaults(options: { upMs: [number, number]; downMs: [number, number] }): void;
  /** Ends the loop and leaves a running, empty-or-not server behind. */
  stopFaults(): Promise<void>;
  /** Ends the loop and kills the server. */
  stop(): Promise<void>;
}

const chance = seeded('redis-faults');
const between = ([lo, hi]: [number, number]) => lo + chance() * (hi - lo);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFaultyRedis(): Promise<FaultyRedis> {
  const port = await freePort();
  // spawnRedis starts it with `--save "" --appendonly no`: a restart is an empty Redis.
  const extra: string[] = [];
  let server: RedisProcess = await spawnRedis(port, extra);
  const stats: FaultStats = { kills: 0, downtimeMs: 0, longestDownMs: 0 };
  let running = false;
  let loop: Promise<void> = Promise.resolve();

  async function restart(): Promise<void> {
    // The port is ours again at once (redis sets SO_REUSEADDR); retry briefly if it is not.
    for (let tries = 0; ; tries++) {
      try {
        server = await spawnRedis(port, extra);
        return;
      } catch (error) {
        if (tries >= 20) throw error;
        await sleep(50);
      }
    }
  }

  return {
    port,
    stats,
    startFaults({ upMs, downMs }) {
      running = true;
      loop = (async () => {
        while (running) {
          await sleep(between(upMs));
          if (!running) break;
          const killedAt = Date.now();
          await server.kill();
          stats.kills += 1;
          await sleep(between(downMs));
          await restart();
          const down = Date.now() - killedAt;
          stats.downtimeMs += down;
          stats.longestDownMs = Math.max(stats.longestDownMs, down);
        }
      })();
    },
    async stopFaults() {
      running = false;
      await loop;
    },
    async stop() {
      running = false;
      await loop.catch(() => undefined);
      await server.kill();
    },
  };
}
