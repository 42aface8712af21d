import { MemoryStore } from '@pg-checkout/server';
import type { CheckoutStore } from '@pg-checkout/server';

/**
 * A store that fails on demand, the way Redis does when it is killed or restarts empty: `down`
 * makes every call throw; `wipe()` forgets everything; `failAfter(n)` lets n more calls through.
 */
export class FlakyStore implements CheckoutStore {
  #inner = new MemoryStore();
  down = false;
  #budget = Infinity;

  wipe(): void {
    this.#inner = new MemoryStore();
  }

  /** Lets `calls` more calls through, then goes down. */
  failAfter(calls: number): void {
    this.#budget = calls;
  }

  #check(): void {
    if (this.#budget <= 0) this.down = true;
    this.#budget -= 1;
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  }

  reset(): void {
    this.down = false;
    this.#budget = Infinity;
  }

  async get(key: string) {
    this.#check();
    return this.#inner.get(key);
  }
  async set(key: string, value: string, ttlMs: number) {
    this.#check();
    return this.#inner.set(key, value, ttlMs);
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    this.#check();
    return this.#inner.setIfAbsent(key, value, ttlMs);
  }
  async delete(key: string) {
    this.#check();
    return this.#inner.delete(key);
  }
  async increment(key: string, ttlMs: number) {
    this.#check();
    return this.#inner.increment(key, ttlMs);
  }
  async reserve(key: string, ttlMs: number, limit: number) {
    this.#check();
    return this.#inner.reserve(key, ttlMs, limit);
  }
  async release(key: string) {
    this.#check();
    return this.#inner.release(key);
  }
  async lockAndGet(lockKey: string, lockTtlMs: number, key: string, token?: string) {
    this.#check();
    return this.#inner.lockAndGet(lockKey, lockTtlMs, key, token);
  }
  async writeAll(
    ops: Parameters<CheckoutStore['writeAll']>[0],
    ifHeld?: Parameters<CheckoutStore['writeAll']>[1],
  ) {
    this.#check();
    return this.#inner.writeAll(ops, ifHeld);
  }
}
