import { CheckoutError } from '../errors.js';
import { assertKeyAndTtl, assertWrites, type CheckoutStore, type StoreWrite } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most live entries kept. Expired entries are dropped to make room; live ones never are (an open
   * payment attempt dropped early could let a retry charge twice), so a full store refuses new
   * entries with a 503 until some expire. Default `100_000`.
   */
  maxEntries?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/** In-process store: bounded, expiring, for a single instance. The default. */
export class MemoryStore implements CheckoutStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new TypeError(
        `MemoryStore maxEntries must be a positive integer, got ${String(maxEntries)}`,
      );
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Number of live entries (expired ones are dropped first). */
  get size(): number {
    this.#sweep();
    return this.#entries.size;
  }

  async get(key: string): Promise<string | undefined> {
    assertKeyAndTtl(key);
    return this.#live(key)?.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    assertKeyAndTtl(key, ttlMs);
    this.#write(key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    assertKeyAndTtl(key, ttlMs);
    if (this.#live(key)) return false;
    this.#write(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    assertKeyAndTtl(key);
    this.#entries.delete(key);
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    assertKeyAndTtl(key, ttlMs);
    const entry = this.#live(key);
    if (!entry) {
      this.#write(key, '1', ttlMs);
      return 1;
    }
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return count;
  }

  async lockAndGet(
    lockKey: string,
    lockTtlMs: number,
    key: string,
  ): Promise<{ locked: true; value: string | undefined } | { locked: false }> {
    assertKeyAndTtl(lockKey, lockTtlMs);
    assertKeyAndTtl(key);
    if (this.#live(lockKey)) return { locked: false };
    this.#write(lockKey, '1', lockTtlMs);
    return { locked: true, value: this.#live(key)?.value };
  }

  async writeAll(ops: readonly StoreWrite[]): Promise<void> {
    assertWrites(ops);
    // All or nothing: make room for the net number of new keys before applying any operation.
    const present = new Map<string, boolean>();
    let added = 0;
    for (const op of ops) {
      const before = present.get(op.key) ?? this.#live(op.key) !== undefined;
      const after = !('delete' in op);
      present.set(op.key, after);
      added += Number(after) - Number(before);
    }
    this.#reserve(added);
    for (const op of ops) {
      if ('delete' in op) this.#entries.delete(op.key);
      else this.#entries.set(op.key, { value: op.value, expiresAt: this.#now() + op.ttlMs });
    }
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key: string, value: string, ttlMs: number): void {
    if (!this.#entries.has(key)) this.#reserve(1);
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  /** Throws the 503 when `count` more entries would not fit. */
  #reserve(count: number): void {
    if (count > 0 && this.#entries.size + count > this.#maxEntries) {
      this.#sweep();
      if (this.#entries.size + count > this.#maxEntries) {
        throw new CheckoutError(
          503,
          'service_busy',
          'We are very busy right now. Please try again in a minute; you have not been charged.',
          { 'Retry-After': '60' },
        );
      }
    }
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
  }
}
