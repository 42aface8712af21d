// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- @ts-expect-error would fail where ioredis is installed
/** @ts-ignore ioredis is an optional peer: kept in the .d.ts so apps without it type-check (as any). */
import type { Redis, Cluster } from 'ioredis';
import {
  assertKeyAndTtl,
  assertKnownOptions,
  assertLimit,
  assertWrites,
  hashTag,
  type CheckoutStore,
  type StoreWrite,
} from './store.js';
import { builtinCrypto } from '../runtime/crypto.js';

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions {
  /**
   * A connected ioredis client: a `Redis` (one server, or a primary found through Sentinel) or a
   * `Cluster`. The store never closes it. Required.
   */
  client: Redis | Cluster;
  /**
   * Prefix of every key, so several shops can share one Redis. It may not contain `{` or `}`: the
   * middleware's keys carry their own Cluster hash tags. Default `'pg-checkout:'`.
   */
  prefix?: string;
}

/** A Lua script sent once per server with EVAL, then called by its SHA1. */
interface Script {
  source: string;
  sha: string;
}

// Computed on first use, through the runtime's node:crypto (ioredis needs a Node-like runtime anyway),
// so that importing the package's entry loads no node: module on Workers.
function script(source: string): Script {
  let sha: string | undefined;
  return {
    source,
    get sha() {
      const crypto = builtinCrypto();
      if (!crypto) throw new Error('RedisStore needs a runtime with node:crypto (Node, Bun, Deno)');
      return (sha ??= crypto.createHash('sha1').update(source, 'utf8').digest('hex'));
    },
  };
}

// INCR and PEXPIRE in one script, so a crash between them cannot leave a counter that never expires.
const INCREMENT = script(`local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`);

// A counter of places holds 1 + the places taken, so one given back to 0 places keeps its expiry and
// the next place is one INCR (a counter that reads 1 after INCR was just created and gets its expiry).
const RESERVE = script(`local n = redis.call('INCR', KEYS[1])
if n == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  n = redis.call('INCR', KEYS[1])
end
if n - 1 > tonumber(ARGV[2]) then
  redis.call('DECR', KEYS[1])
  return 0
end
return n - 1`);

// DECR alone; a counter with no place taken is put back, an absent one (DECR made it) dropped.
const RELEASE = script(`local n = redis.call('DECR', KEYS[1])
if n == 0 then redis.call('INCR', KEYS[1]) elseif n < 0 then redis.call('DEL', KEYS[1]) end
return 1`);

// nil when the lock is taken; {value} (value nil when absent) when this call won it.
const LOCK_AND_GET =
  script(`if not redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1]) then return false end
return {redis.call('GET', KEYS[2])}`);

// ARGV holds a (ttl, value) pair per key; an empty ttl deletes the key.
const WRITE_ALL = script(`for i, key in ipairs(KEYS) do
  local ttl = ARGV[2 * i - 1]
  if ttl == '' then redis.call('DEL', key) else redis.call('SET', key, ARGV[2 * i], 'PX', ttl) end
end
return #KEYS`);

// The same, only while KEYS[1] holds ARGV[1] (the caller's lock); 0 when it does not.
const WRITE_IF_HELD = script(`if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 2, #KEYS do
  local ttl = ARGV[2 * i - 2]
  if ttl == '' then redis.call('DEL', KEYS[i]) else redis.call('SET', KEYS[i], ARGV[2 * i - 1], 'PX', ttl) end
end
return 1`);

/**
 * Store over Redis (ioredis), for several app instances sharing 3-D Secure sessions and limits.
 * Works on one Redis, on a primary behind Sentinel and on a Redis Cluster: every multi-key call
 * is one script (EVALSHA) on the node that owns the keys' hash tag.
 */
export class RedisStore implements CheckoutStore {
  readonly #client: Redis | Cluster;
  readonly #prefix: string;
  readonly #cluster: boolean;

  constructor(options: RedisStoreOptions) {
    if (!options || typeof options.client?.set !== 'function') {
      throw new TypeError('RedisStore needs `client`, an ioredis instance');
    }
    assertKnownOptions('RedisStore', options, ['client', 'prefix']);
    const prefix = options.prefix ?? 'pg-checkout:';
    if (typeof prefix !== 'string' || /[{}]/.test(prefix)) {
      throw new TypeError(
        `RedisStore prefix must be a string without { or } (keys carry their own Cluster hash tags), got ${JSON.stringify(prefix)}`,
      );
    }
    this.#client = options.client;
    this.#prefix = prefix;
    this.#cluster = options.client.isCluster === true;
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
    return Number(await this.#run(INCREMENT, [this.#prefix + key], [String(ttlMs)]));
  }

  async reserve(key: string, ttlMs: number, limit: number): Promise<number> {
    assertKeyAndTtl(key, ttlMs);
    assertLimit(limit);
    return Number(await this.#run(RESERVE, [this.#prefix + key], [String(ttlMs), String(limit)]));
  }

  async release(key: string): Promise<void> {
    assertKeyAndTtl(key);
    await this.#run(RELEASE, [this.#prefix + key], []);
  }

  async lockAndGet(
    lockKey: string,
    lockTtlMs: number,
    key: string,
    token = '1',
  ): Promise<{ locked: true; value: string | undefined } | { locked: false }> {
    assertKeyAndTtl(lockKey, lockTtlMs);
    assertKeyAndTtl(key);
    const keys = [this.#prefix + lockKey, this.#prefix + key];
    if (this.#cluster && hashTag(keys[0]!) !== hashTag(keys[1]!)) {
      // Different slots cannot share a script; claiming first and reading after is the same contract.
      if ((await this.#client.set(keys[0]!, token, 'PX', lockTtlMs, 'NX')) !== 'OK') {
        return { locked: false };
      }
      return { locked: true, value: (await this.#client.get(keys[1]!)) ?? undefined };
    }
    const reply = (await this.#run(LOCK_AND_GET, keys, [String(lockTtlMs), token])) as
      [string | null] | null;
    return reply ? { locked: true, value: reply[0] ?? undefined } : { locked: false };
  }

  async writeAll(
    ops: readonly StoreWrite[],
    ifHeld?: { key: string; value: string },
  ): Promise<boolean> {
    assertWrites(ops);
    if (ifHeld) {
      assertKeyAndTtl(ifHeld.key);
      const keys = [this.#prefix + ifHeld.key];
      const args = [ifHeld.value];
      for (const op of ops) {
        if (this.#cluster && hashTag(this.#prefix + op.key) !== hashTag(keys[0]!))
          throw new TypeError(`writeAll: ${op.key} does not share the hash tag of ${ifHeld.key}`);
        keys.push(this.#prefix + op.key);
        if ('delete' in op) args.push('', '');
        else args.push(String(op.ttlMs), op.value);
      }
      return Number(await this.#run(WRITE_IF_HELD, keys, args)) === 1;
    }
    if (ops.length === 0) return true;
    // On a Cluster each hash tag is one script on its node (atomic per tag); elsewhere one script.
    const groups = new Map<string, StoreWrite[]>();
    for (const op of ops) {
      const tag = this.#cluster ? hashTag(this.#prefix + op.key) : '';
      const group = groups.get(tag);
      if (group) group.push(op);
      else groups.set(tag, [op]);
    }
    await Promise.all([...groups.values()].map((group) => this.#writeGroup(group)));
    return true;
  }

  async #writeGroup(ops: StoreWrite[]): Promise<void> {
    const keys: string[] = [];
    const args: string[] = [];
    for (const op of ops) {
      keys.push(this.#prefix + op.key);
      if ('delete' in op) args.push('', '');
      else args.push(String(op.ttlMs), op.value);
    }
    await this.#run(WRITE_ALL, keys, args);
  }

  /** EVALSHA; after a NOSCRIPT (new server, failover, SCRIPT FLUSH) one EVAL loads it again. */
  async #run(script: Script, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#client.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.#client.eval(script.source, keys.length, ...keys, ...args);
    }
  }
}
