/**
 * An instance that dies while its create is at the gateway (issue 38): the gateway may make a new
 * transaction of a reused merchant reference (the spec does not say it refuses one), so the next
 * instance must not send a create with the dead one's attempt number. The attempt is written to
 * the store before its create leaves, and the next payment asks the gateway about it first.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { FlakyStore } from '@pg-checkout/test-helpers/flaky-store';
import type { CheckoutError } from '../src/errors.js';
import { MemoryStore } from '../src/stores/memory.js';
import { orderKeys } from '../src/stores/keys.js';
import { coreHarness } from './helpers/core.js';

const ORDER = { amount: 14_900, currency: 'ZAR', reference: 'cart-crash' };

function twoInstances(reusedReference: 'refuse' | 'new-transaction') {
  const store = new MemoryStore();
  const gateway = new FakeGateway({ duplicateReference: reusedReference });
  const a = coreHarness({ store, gateway, resolveOrder: () => ORDER });
  const b = coreHarness({ store, gateway, resolveOrder: () => ORDER });
  return { store, gateway, a, b };
}

for (const reused of ['refuse', 'new-transaction'] as const) {
  describe(`an instance dies during its create (reused reference: ${reused})`, () => {
    it('a challenge left open, then a create that reached the gateway and never answered: the next payment charges nothing more', async () => {
      const { store, gateway, a, b } = twoInstances(reused);
      // The store holds the order's ledger (an attempt under way), so nothing is read back from the gateway.
      const open = await a.pay('4000000000003055');
      assert.equal(open.status, 'authenticating');

      gateway.createHangs = true;
      void a.pay('4111111111111111'); // never answers: its instance is gone
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(gateway.chargesOf(ORDER.reference).length, 1, 'the dead create was charged');
      // The dead instance's lock runs out (its TTL), as it does when nobody releases it.
      await store.delete(orderKeys(ORDER.reference).lock);

      const next = await b.pay('4111111111111111');
      assert.equal(gateway.chargesOf(ORDER.reference).length, 1, 'charged once, not twice');
      assert.equal(next.status, 'approved', 'the shopper is told the order is paid');
      assert.equal(
        gateway.calls.filter((c) => c === 'create').length,
        2,
        'the challenge’s create and the dead one; none from the next instance',
      );
    });
  });
}

describe('the attempt written ahead of its create', () => {
  it('a store that fails the write-ahead: nothing is sent, the shopper may pay again, charged once', async () => {
    const store = new FlakyStore();
    const gateway = new FakeGateway();
    const t = coreHarness({ store, gateway, resolveOrder: () => ORDER });
    assert.equal((await t.pay('4000000000003055')).status, 'authenticating');
    const creates = () => gateway.calls.filter((c) => c === 'create').length;
    // The order's lock and ledger answer; the write-ahead is the next store call, and it fails.
    store.failAfter(1);
    await assert.rejects(t.pay('4111111111111111'), (error: CheckoutError) => {
      assert.equal(error.code, 'store_unavailable');
      return true;
    });
    assert.equal(creates(), 1, 'no create left without its attempt written');
    store.reset();
    await new Promise((resolve) => setTimeout(resolve, 150)); // the lock's release, retried
    const paid = await t.pay('4111111111111111');
    assert.equal(paid.status, 'approved', JSON.stringify(paid));
    assert.equal(gateway.chargesOf(ORDER.reference).length, 1);
  });
});
