/**
 * Where the middleware keeps its state: 3-D Secure sessions, payment attempts, webhook
 * de-duplication and rate-limit counters. Values are strings (JSON); every key expires.
 * Use {@link MemoryStore} for one process and {@link RedisStore} when several instances
 * serve the same shop.
 *
 * Keys given to one {@link CheckoutStore.lockAndGet} or {@link CheckoutStore.writeAll} call share a
 * Redis Cluster hash tag (`{o:<order>}:<name>`, `{p:<reference>}:<name>`), so a store can run the
 * call as one script on one node.
 */
export interface CheckoutStore {
  /** The value under `key`, or `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds, replacing any earlier value. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Stores `value` only when `key` is absent; `true` when this call won (an atomic claim). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Removes `key`; no error when it is absent. */
  delete(key: string): Promise<void>;
  /** Adds one to the counter under `key` (created at 1, expiring `ttlMs` after creation); returns the new count. */
  increment(key: string, ttlMs: number): Promise<number>;
  /**
   * Takes one place under `limit` in the counter of places under `key` (created expiring `ttlMs`
   * after creation), atomically: the count with this place, or `0` when the counter was full
   * (nothing taken). A counter of places is read and changed only through `reserve` and `release`.
   */
  reserve(key: string, ttlMs: number, limit: number): Promise<number>;
  /** Gives back one place {@link CheckoutStore.reserve} took, its expiry unchanged; never below 0. */
  release(key: string): Promise<void>;
  /**
   * Atomically claims lockKey (like SET NX PX), holding `token` (default `'1'`), and, only when
   * won, reads key.
   */
  lockAndGet(
    lockKey: string,
    lockTtlMs: number,
    key: string,
    token?: string,
  ): Promise<{ locked: true; value: string | undefined } | { locked: false }>;
  /**
   * Applies the writes and deletes together (MULTI or one script on Redis). With `ifHeld`, only
   * while `ifHeld.key` still holds `ifHeld.value` (a lock this caller took): `false` when it did
   * not apply them (the lock expired, or a store restarted empty and someone else took it).
   * `ifHeld.key` shares the hash tag of every key written.
   */
  writeAll(ops: readonly StoreWrite[], ifHeld?: { key: string; value: string }): Promise<boolean>;
}

/** One operation of {@link CheckoutStore.writeAll}: a write with its TTL, or a delete. */
export type StoreWrite =
  { key: string; value: string; ttlMs: number } | { key: string; delete: true };

/** The part of a key Redis Cluster hashes: the first non-empty `{...}`, else the whole key. */
export function hashTag(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/** Throws at construction for an option the store does not know (a typo would otherwise be ignored). */
export function assertKnownOptions(store: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(
        `${store}: unknown option \`${key}\` (it takes ${known.map((k) => `\`${k}\``).join(', ')})`,
      );
    }
  }
}

/** Throws a clear error for a key or TTL no store should accept. */
export function assertKeyAndTtl(key: string, ttlMs?: number): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
    throw new TypeError('store key must be a non-empty string of at most 512 characters');
  }
  if (ttlMs !== undefined && (!Number.isInteger(ttlMs) || ttlMs <= 0)) {
    throw new TypeError(`store ttlMs must be a positive integer, got ${String(ttlMs)}`);
  }
}

/** Throws for a `reserve` limit that is not a positive integer. */
export function assertLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new TypeError(`store reserve limit must be a positive integer, got ${String(limit)}`);
}

/** Checks every operation of a {@link CheckoutStore.writeAll} call before any of them is applied. */
export function assertWrites(ops: readonly StoreWrite[]): void {
  if (!Array.isArray(ops)) throw new TypeError('writeAll takes an array of operations');
  for (const op of ops) {
    if ('delete' in op && op.delete === true) {
      assertKeyAndTtl(op.key);
    } else {
      const write = op as { key: string; value: unknown; ttlMs: number };
      assertKeyAndTtl(write.key, write.ttlMs);
      if (typeof write.value !== 'string') {
        throw new TypeError(`store value must be a string (key ${write.key})`);
      }
    }
  }
}
