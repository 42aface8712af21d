import { CheckoutError } from '../errors.js';
import { ExpiryHeap } from './expiry-heap.js';
import { assertKeyAndTtl, assertWrites, type CheckoutStore, type StoreWrite } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most live entries for new work. Live entries are never evicted (an open payment attempt
   * dropped early could let a retry charge twice); at this size the store refuses new claims
   * (`setIfAbsent`, `increment` of a new counter, `lockAndGet` of an order it knows nothing of)
   * with a 503 "you have not been charged" until some expire. Default `100_000`.
   */
  maxEntries?: number;
  /**
   * Entries beyond `maxEntries` kept for work already under way: writes (`set`, `writeAll`) and
   * `lockAndGet` of an order or payment the store already holds, so a payment the gateway may
   * have charged can still be recorded and completed when the store is full. Past it they
   * throw a plain error. Default `maxEntries / 10` (rounded up).
   */
  headroom?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

const busy = () =>
  new CheckoutError(
    503,
    'service_busy',
    'We are very busy right now. Please try again in a minute; you have not been charged.',
    { 'Retry-After': '60' },
  );

/** In-process store: bounded, expiring, for a single instance. The default. */
export class MemoryStore implements CheckoutStore {
  readonly #entries = new Map<string, Entry>();
  // Every write's expiry in time order, so expired entries go without a scan of the live ones.
  readonly #expiries = new ExpiryHeap<Entry>();
  readonly #maxEntries: number;
  readonly #hardLimit: number;
  readonly #now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new TypeError(
        `MemoryStore maxEntries must be a positive integer, got ${String(maxEntries)}`,
      );
    }
    const headroom = options.headroom ?? Math.ceil(maxEntries / 10);
    if (!Number.isInteger(headroom) || headroom < 0) {
      throw new TypeError(
        `MemoryStore headroom must be a non-negative integer, got ${String(headroom)}`,
      );
    }
    this.#maxEntries = maxEntries;
    this.#hardLimit = maxEntries + headroom;
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
    this.#sweep();
    if (!this.#entries.has(key)) this.#reserve(1, this.#hardLimit);
    this.#put(key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    assertKeyAndTtl(key, ttlMs);
    if (this.#live(key)) return false;
    this.#sweep();
    this.#reserve(1, this.#maxEntries);
    this.#put(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    assertKeyAndTtl(key);
    this.#entries.delete(key);
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    assertKeyAndTtl(key, ttlMs);
    const entry = this.#live(key);
    if (entry) {
      const count = Number(entry.value) + 1;
      entry.value = String(count);
      return count;
    }
    this.#sweep();
    this.#reserve(1, this.#maxEntries);
    this.#put(key, '1', ttlMs);
    return 1;
  }

  async lockAndGet(
    lockKey: string,
    lockTtlMs: number,
    key: string,
  ): Promise<{ locked: true; value: string | undefined } | { locked: false }> {
    assertKeyAndTtl(lockKey, lockTtlMs);
    assertKeyAndTtl(key);
    if (this.#live(lockKey)) return { locked: false };
    const value = this.#live(key)?.value;
    this.#sweep();
    // A lock on something the store already holds continues work under way: it may use the headroom.
    this.#reserve(1, value === undefined ? this.#maxEntries : this.#hardLimit);
    this.#put(lockKey, '1', lockTtlMs);
    return { locked: true, value };
  }

  async writeAll(ops: readonly StoreWrite[]): Promise<void> {
    assertWrites(ops);
    this.#sweep();
    // All or nothing: make room for the net number of new keys before applying any operation.
    const present = new Map<string, boolean>();
    let added = 0;
    for (const op of ops) {
      const before = present.get(op.key) ?? this.#entries.has(op.key);
      const after = !('delete' in op);
      present.set(op.key, after);
      added += Number(after) - Number(before);
    }
    this.#reserve(added, this.#hardLimit);
    for (const op of ops) {
      if ('delete' in op) this.#entries.delete(op.key);
      else this.#put(op.key, op.value, op.ttlMs);
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

  #put(key: string, value: string, ttlMs: number): void {
    const entry = { value, expiresAt: this.#now() + ttlMs };
    this.#entries.set(key, entry);
    this.#expiries.push({ expiresAt: entry.expiresAt, key, entry });
  }

  /** Throws when `count` more entries would pass `limit`: the 503 for new work, a plain error past the headroom. */
  #reserve(count: number, limit: number): void {
    if (count <= 0 || this.#entries.size + count <= limit) return;
    if (limit === this.#maxEntries) throw busy();
    throw new Error(
      `MemoryStore is full: ${this.#entries.size} live entries, maxEntries ${this.#maxEntries} plus headroom ${this.#hardLimit - this.#maxEntries}`,
    );
  }

  /** Drops what has expired, oldest first; O(log n) per dropped entry, O(1) when none has. */
  #sweep(): void {
    const now = this.#now();
    for (
      let due = this.#expiries.peek();
      due && due.expiresAt <= now;
      due = this.#expiries.peek()
    ) {
      this.#expiries.pop();
      if (this.#entries.get(due.key) === due.entry) this.#entries.delete(due.key);
    }
    // Replaced and deleted entries leave stale items; rebuild once they outnumber the live ones.
    if (this.#expiries.size > 2 * this.#entries.size + 1_024) {
      this.#expiries.rebuild(
        [...this.#entries].map(([key, entry]) => ({ expiresAt: entry.expiresAt, key, entry })),
      );
    }
  }
}
