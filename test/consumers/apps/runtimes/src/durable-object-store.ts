// A CheckoutStore for Cloudflare Workers over Durable Objects. Workers KV would not do: it is
// eventually consistent and has no atomic claim, and the checkout's locks need one.
import { DurableObject } from 'cloudflare:workers';
import type { CheckoutStore } from '@pg-checkout/server';

type Writes = Parameters<CheckoutStore['writeAll']>[0];
interface Entry {
  value: string;
  expiresAt: number;
}

const SWEEP_MS = 60 * 60_000;

/**
 * Holds the keys of one hash tag (one order, or one payment). A Durable Object runs one call at a
 * time, and its storage calls close the input gate, so each method below is atomic.
 */
export class CheckoutStoreObject extends DurableObject {
  private async read(key: string): Promise<string | undefined> {
    const entry = await this.ctx.storage.get<Entry>(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    await this.ctx.storage.delete(key);
    return undefined;
  }

  private async write(key: string, value: string, ttlMs: number): Promise<void> {
    await this.ctx.storage.put<Entry>(key, { value, expiresAt: Date.now() + ttlMs });
    // Keys nobody reads again are swept by the alarm.
    if ((await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(Date.now() + SWEEP_MS);
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const entries = await this.ctx.storage.list<Entry>();
    const expired = [...entries].filter(([, e]) => e.expiresAt <= now).map(([key]) => key);
    if (expired.length > 0) await this.ctx.storage.delete(expired);
    if (entries.size > expired.length) await this.ctx.storage.setAlarm(now + SWEEP_MS);
  }

  async get(key: string): Promise<string | undefined> {
    return this.read(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.write(key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if ((await this.read(key)) !== undefined) return false;
    await this.write(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    await this.ctx.storage.delete(key);
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    const entry = await this.ctx.storage.get<Entry>(key);
    const live = entry && entry.expiresAt > Date.now() ? entry : undefined;
    const count = (live ? Number(live.value) : 0) + 1;
    // The counter expires ttlMs after it was created, not after its last increment.
    await this.ctx.storage.put<Entry>(key, {
      value: String(count),
      expiresAt: live?.expiresAt ?? Date.now() + ttlMs,
    });
    return count;
  }

  async reserve(key: string, ttlMs: number, limit: number): Promise<number> {
    const entry = await this.ctx.storage.get<Entry>(key);
    const live = entry && entry.expiresAt > Date.now() ? entry : undefined;
    const count = live ? Number(live.value) : 0;
    if (count >= limit) return 0;
    await this.ctx.storage.put<Entry>(key, {
      value: String(count + 1),
      expiresAt: live?.expiresAt ?? Date.now() + ttlMs,
    });
    return count + 1;
  }

  async release(key: string): Promise<void> {
    const entry = await this.ctx.storage.get<Entry>(key);
    if (!entry || entry.expiresAt <= Date.now()) return;
    const count = Math.max(0, Number(entry.value) - 1);
    await this.ctx.storage.put<Entry>(key, { value: String(count), expiresAt: entry.expiresAt });
  }

  async lockAndGet(
    lockKey: string,
    lockTtlMs: number,
    key: string,
    token = '1',
  ): Promise<{ locked: true; value: string | undefined } | { locked: false }> {
    if (!(await this.setIfAbsent(lockKey, token, lockTtlMs))) return { locked: false };
    return { locked: true, value: await this.read(key) };
  }

  async writeAll(ops: Writes, ifHeld?: { key: string; value: string }): Promise<boolean> {
    if (ifHeld && (await this.read(ifHeld.key)) !== ifHeld.value) return false;
    for (const op of ops) {
      if ('delete' in op) await this.ctx.storage.delete(op.key);
      else await this.write(op.key, op.value, op.ttlMs);
    }
    return true;
  }
}

/** The part of a key the checkout groups atomic calls by: the first non-empty `{...}`. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = open === -1 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/**
 * The store the checkout is given: each call goes to the Durable Object of its keys' hash tag (the
 * keys of one lockAndGet or writeAll share it), so one order's calls are atomic and orders spread.
 */
export class DurableObjectStore implements CheckoutStore {
  constructor(private readonly namespace: DurableObjectNamespace<CheckoutStoreObject>) {}

  private at(key: string) {
    return this.namespace.get(this.namespace.idFromName(hashTag(key)));
  }

  get(key: string) {
    return this.at(key).get(key);
  }
  set(key: string, value: string, ttlMs: number) {
    return this.at(key).set(key, value, ttlMs);
  }
  setIfAbsent(key: string, value: string, ttlMs: number) {
    return this.at(key).setIfAbsent(key, value, ttlMs);
  }
  delete(key: string) {
    return this.at(key).delete(key);
  }
  increment(key: string, ttlMs: number) {
    return this.at(key).increment(key, ttlMs);
  }
  reserve(key: string, ttlMs: number, limit: number) {
    return this.at(key).reserve(key, ttlMs, limit);
  }
  release(key: string) {
    return this.at(key).release(key);
  }
  lockAndGet(lockKey: string, lockTtlMs: number, key: string, token?: string) {
    return this.at(lockKey).lockAndGet(lockKey, lockTtlMs, key, token);
  }
  async writeAll(ops: Writes, ifHeld?: { key: string; value: string }) {
    const first = ifHeld?.key ?? ops[0]?.key;
    return first === undefined ? true : this.at(first).writeAll(ops, ifHeld);
  }
}
