/**
 * "Was this order charged already?" asked when the checkout loads the order, not on the Pay click
 * (docs/contracts.md, issue 36): a fresh answer in the store lets Pay send its create at once; a store
 * that lost it, or an answer past its time, makes Pay look up first, as before.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../src/index.js';
import { orderKeys } from '../../src/stores/keys.js';
import { LOOKUP_FRESH_MS } from '../../src/order/ledger.js';
import { payCard, pinned } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  describe('the charged-already lookup kept with the order', () => {
    const store = new MemoryStore();
    const app = appForSuite(adapter, { store });
    let orders = 0;

    /** The checkout page loads the order (`GET /config`); its lookup runs beside the answer. */
    async function load(order: string): Promise<void> {
      const config = await app.call('GET', '/config', undefined, pinned(order));
      assert.equal(config.status, 200);
      const deadline = Date.now() + 5_000;
      while (!(await store.get(orderKeys(order).ledger))) {
        if (Date.now() > deadline) assert.fail('the order was not looked up on load');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    /** The gateway calls Pay makes, and its answer. */
    async function pay(order: string, number = '4111111111111111') {
      app.gateway.calls.splice(0);
      const answer = await payCard(app, number, order);
      return { status: answer.body.status as string, calls: [...app.gateway.calls] };
    }

    it('loaded, then Pay: the create alone, at once', async () => {
      const order = `known-${++orders}`;
      await load(order);
      assert.deepEqual(await pay(order), { status: 'approved', calls: ['create'] });
    });

    it('never loaded: Pay looks up first, then creates (as before)', async () => {
      const order = `known-${++orders}`;
      assert.deepEqual(await pay(order), { status: 'approved', calls: ['reconcile', 'create'] });
    });

    it('loaded, then the store lost it: Pay looks up first', async () => {
      const order = `known-${++orders}`;
      await load(order);
      await store.delete(orderKeys(order).ledger);
      assert.deepEqual(await pay(order), { status: 'approved', calls: ['reconcile', 'create'] });
    });

    it('loaded longer ago than it is believed: Pay looks up first', async () => {
      const order = `known-${++orders}`;
      await load(order);
      const key = orderKeys(order).ledger;
      const kept = JSON.parse((await store.get(key))!) as { lookedUpAt: number };
      kept.lookedUpAt -= LOOKUP_FRESH_MS;
      await store.set(key, JSON.stringify(kept), 60_000);
      assert.deepEqual(await pay(order), { status: 'approved', calls: ['reconcile', 'create'] });
    });

    it('loaded again while known: no second lookup; a paid order stays paid, charged once', async () => {
      const order = `known-${++orders}`;
      await load(order);
      app.gateway.calls.splice(0);
      await app.call('GET', '/config', undefined, pinned(order));
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(app.gateway.calls, []);
      assert.equal((await pay(order)).status, 'approved');
      const again = await pay(order);
      assert.equal(again.status, 'approved');
      assert.ok(!again.calls.includes('create'), again.calls.join(', '));
      assert.equal(app.gateway.chargesOf(order).length, 1);
    });
  });
});
