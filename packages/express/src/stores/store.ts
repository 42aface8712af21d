/**
 * Where the middleware keeps its state: 3-D Secure sessions, payment attempts, webhook
 * de-duplication and rate-limit counters. Values are strings (JSON); every key expires.
 * Use {@link MemoryStore} for one process and {@link RedisStore} when several instances
 * serve the same shop.
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
