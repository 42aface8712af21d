import { CheckoutError } from '../errors.js';
import { assertKeyAndTtl, type CheckoutStore } from './store.js';

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

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key: string, value: string, ttlMs: number): void {
    const replacing = this.#entries.has(key);
    if (!replacing && this.#entries.size >= this.#maxEntries) {
      this.#sweep();
      if (this.#entries.size >= this.#maxEntries) {
        throw new CheckoutError(
          503,
          'service_busy',
          'We are very busy right now. Please try again in a minute; you have not been charged.',
          { 'Retry-After': '60' },
        );
      }
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
  }
}
