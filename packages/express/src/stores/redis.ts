import type { Redis, Cluster } from 'ioredis';
import { assertKeyAndTtl, type CheckoutStore } from './store.js';

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions {
  /** A connected ioredis client (or cluster); the store never closes it. Required. */
  client: Redis | Cluster;
  /** Prefix of every key, so several shops can share one Redis. Default `'pg-checkout:'`. */
  prefix?: string;
}

// INCR and PEXPIRE in one script, so a crash between them cannot leave a counter that never expires.
const INCREMENT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** Store over Redis (ioredis), for several app instances sharing 3-D Secure sessions and limits. */
export class RedisStore implements CheckoutStore {
  readonly #client: Redis | Cluster;
  readonly #prefix: string;

  constructor(options: RedisStoreOptions) {
    if (!options || typeof options.client?.set !== 'function') {
      throw new TypeError('RedisStore needs `client`, an ioredis instance');
    }
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'pg-checkout:';
  }

  async get(key: string): Promise<string | undefined> {
    assertKeyAndTtl(key);
    return (await this.#client.get(this.#prefix + key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    assertKeyAndTtl(key, ttlMs);
    await this.#client.set(this.#prefix + key, value, 'PX', ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    assertKeyAndTtl(key, ttlMs);
    return (await this.#client.set(this.#prefix + key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async delete(key: string): Promise<void> {
    assertKeyAndTtl(key);
    await this.#client.del(this.#prefix + key);
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    assertKeyAndTtl(key, ttlMs);
    return Number(await this.#client.eval(INCREMENT_SCRIPT, 1, this.#prefix + key, String(ttlMs)));
  }
}
