/**
 * What one approved card payment of a new order costs in round trips, counted at the store and the
 * gateway (issue 30's overhead goal): each call here is named in BENCHMARKS.md with why it stays, so
 * a change that adds one fails here and has to say why.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, type CheckoutStore } from '../src/index.js';
import { coreHarness } from './helpers/core.js';

/** A MemoryStore that counts its calls by method name. */
function countedStore(): { store: CheckoutStore; calls: string[] } {
  const inner = new MemoryStore();
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

async function payOnce(rateLimit: false | undefined) {
  const { store, calls } = countedStore();
  const t = coreHarness({
    store,
    resolveOrder: () => ({ amount: 14_900, currency: 'ZAR', reference: 'order-rt' }),
    // Unset: the default limits.
    options: { rateLimit },
  });
  calls.length = 0;
  const state = await t.pay('4111111111111111');
  assert.equal(state.status, 'approved');
  return { store: calls, gateway: t.gateway.calls };
}

describe('round trips of an approved card payment of a new order', () => {
  it('rate limits off: the order lock with its ledger, the write-back with the release; a lookup and the create', async () => {
    const counted = await payOnce(false);
    assert.deepEqual(counted.store, ['lockAndGet', 'writeAll']);
    assert.deepEqual(counted.gateway, ['reconcile', 'create']);
  });
  it("default limits: the pay counter and the client's decline place (taken before, given back after) on top, nothing else", async () => {
    const counted = await payOnce(undefined);
    // The order's declines are read from its ledger, under its lock: no store call of their own.
    assert.deepEqual(counted.store, ['increment', 'reserve', 'lockAndGet', 'writeAll', 'release']);
    assert.deepEqual(counted.gateway, ['reconcile', 'create']);
  });
});
