import { CheckoutError } from '../errors.js';
import { ExpiryHeap } from './expiry-heap.js';
import {
  assertKeyAndTtl,
  assertKnownOptions,
  assertLimit,
  assertWrites,
  hashTag,
  type CheckoutStore,
  type StoreWrite,
} from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most live entries for new work. Live entries are never evicted (an open payment attempt
   * dropped early could let a retry charge twice); at this size the store refuses new claims
   * (`lockAndGet`, `setIfAbsent`, a new `increment` counter) on anything it holds nothing of with
   * `service_busy` ("you have not been charged") until some expire. Default `100_000`.
   */
  maxEntries?: number;
  /**
   * Entries beyond `maxEntries` kept for work already under way: every write (`set`,
   * `writeAll`), and claims on an order or payment the store already holds an entry of (same
   * hash tag, `{o:…}` or `{p:…}`), so a payment the gateway may have charged can still be
   * confirmed, recorded and completed when the store is full. Past it they throw a plain
   * error. Default `maxEntries / 10` (rounded up).
   */
  headroom?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

// Its status, `Retry-After` and the shopper's sentence are the code's, at the HTTP edge.
const busy = () => new CheckoutError('service_busy');

/** In-process store: bounded, expiring, for a single instance. The default. */
export class MemoryStore implements CheckoutStore {
  readonly #entries = new Map<string, Entry>();
  // Every write's expiry in time order, so expired entries go without a scan of the live ones.
  readonly #expiries = new ExpiryHeap<Entry>();
  // Live entries per hash tag: a claim under a tag the store holds continues work under way.
  readonly #tags = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #hardLimit: number;
  readonly #now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    assertKnownOptions('MemoryStore', options, ['maxEntries', 'headroom', 'now']);
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
    if (!this.#entries.has(key)) this.#reserve(1, true);
    this.#put(key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    assertKeyAndTtl(key, ttlMs);
    if (this.#live(key)) return false;
    this.#sweep();
    this.#reserve(1, this.#underWay(key));
    this.#put(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    assertKeyAndTtl(key);
    this.#remove(key);
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
    this.#reserve(1, this.#underWay(key));
    this.#put(key, '1', ttlMs);
    return 1;
  }

  async reserve(key: string, ttlMs: number, limit: number): Promise<number> {
    assertKeyAndTtl(key, ttlMs);
    assertLimit(limit);
    const entry = this.#live(key);
    if (entry) {
      const count = Number(entry.value);
      if (count >= limit) return 0;
      entry.value = String(count + 1);
      return count + 1;
    }
    this.#sweep();
    this.#reserve(1, this.#underWay(key));
    this.#put(key, '1', ttlMs);
    return 1;
  }

  async release(key: string): Promise<void> {
    assertKeyAndTtl(key);
    const entry = this.#live(key);
    if (entry) entry.value = String(Math.max(0, Number(entry.value) - 1));
  }

  async lockAndGet(
    lockKey: string,
    lockTtlMs: number,
    key: string,
    token = '1',
  ): Promise<{ locked: true; value: string | undefined } | { locked: false }> {
    assertKeyAndTtl(lockKey, lockTtlMs);
    assertKeyAndTtl(key);
    if (this.#live(lockKey)) return { locked: false };
    const value = this.#live(key)?.value;
    this.#sweep();
    this.#reserve(1, this.#underWay(lockKey));
    this.#put(lockKey, token, lockTtlMs);
    return { locked: true, value };
  }

  async writeAll(
    ops: readonly StoreWrite[],
    ifHeld?: { key: string; value: string },
  ): Promise<boolean> {
    assertWrites(ops);
    if (ifHeld && this.#live(ifHeld.key)?.value !== ifHeld.value) return false;
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
    this.#reserve(added, true);
    for (const op of ops) {
      if ('delete' in op) this.#remove(op.key);
      else this.#put(op.key, op.value, op.ttlMs);
    }
    return true;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#now()) {
      this.#remove(key);
      return undefined;
    }
    return entry;
  }

  #put(key: string, value: string, ttlMs: number): void {
    const entry = { value, expiresAt: this.#now() + ttlMs };
    if (!this.#entries.has(key)) this.#count(key, 1);
    this.#entries.set(key, entry);
    this.#expiries.push({ expiresAt: entry.expiresAt, key, entry });
  }

  #remove(key: string): void {
    if (this.#entries.delete(key)) this.#count(key, -1);
  }

  #count(key: string, by: 1 | -1): void {
    const tag = hashTag(key);
    if (tag === key) return;
    const n = (this.#tags.get(tag) ?? 0) + by;
    if (n > 0) this.#tags.set(tag, n);
    else this.#tags.delete(tag);
  }

  /** Whether a claim on `key` continues work under way: the store holds an entry of its tag. */
  #underWay(key: string): boolean {
    const tag = hashTag(key);
    return tag !== key && this.#tags.has(tag);
  }

  /**
   * Throws when `count` more entries do not fit: new work stops at maxEntries with `service_busy`
   * (no gateway call has been made), work under way at maxEntries + headroom with a plain error.
   */
  #reserve(count: number, underWay: boolean): void {
    const limit = underWay ? this.#hardLimit : this.#maxEntries;
    if (count <= 0 || this.#entries.size + count <= limit) return;
    if (!underWay) throw busy();
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
      if (this.#entries.get(due.key) === due.entry) this.#remove(due.key);
    }
    // Replaced and deleted entries leave stale items; rebuild once they outnumber the live ones.
    if (this.#expiries.size > 2 * this.#entries.size + 1_024) {
      this.#expiries.rebuild(
        [...this.#entries].map(([key, entry]) => ({ expiresAt: entry.expiresAt, key, entry })),
      );
    }
  }
}
