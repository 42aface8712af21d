/** The core's use cases, issue 29: the total charged is the one shown, and "already paid" says so. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutOrder } from '../src/options.js';
import { FlakyStore } from '@pg-checkout/test-helpers/flaky-store';
import { coreHarness } from './helpers/core.js';

const setup = (order: CheckoutOrder) =>
  coreHarness({ store: new FlakyStore(), resolveOrder: () => order });

describe('payByCard and the total the page showed', () => {
  it('an order now R 447,00 paid from a page that showed R 149,00: amount_changed, nothing sent', async () => {
    const t = setup({ amount: 44_700, currency: 'ZAR', reference: 'qty-3' });
    const state = await t.pay('4111111111111111', { amount: 14_900, currency: 'ZAR' });
    assert.equal(state.status, 'failed');
    assert.equal(state.success ? '' : state.code, 'amount_changed');
    assert.deepEqual('order' in state ? state.order : undefined, {
      amount: 44_700,
      currency: 'ZAR',
    });
    assert.deepEqual(
      t.gateway.calls.filter((c) => c === 'create'),
      [],
    );
  });

  it('another currency shown is a changed total too; the same total is paid', async () => {
    const t = setup({ amount: 14_900, currency: 'ZAR', reference: 'cur' });
    const usd = await t.pay('4111111111111111', { amount: 14_900, currency: 'USD' });
    assert.equal(usd.success ? '' : usd.code, 'amount_changed');
    const zar = await t.pay('4111111111111111', { amount: 14_900, currency: 'ZAR' });
    assert.equal(zar.status, 'approved');
    assert.deepEqual(
      t.gateway.charged().map((c) => c.amount),
      [14_900],
    );
  });

  it('a paid order answers "already paid" whatever total was shown, and charges nothing more', async () => {
    const t = setup({ amount: 14_900, currency: 'ZAR', reference: 'paid' });
    const first = await t.pay('4111111111111111', { amount: 14_900, currency: 'ZAR' });
    const second = await t.pay('5555555555554444', { amount: 9_900, currency: 'ZAR' });
    assert.equal(second.status, 'approved');
    assert.equal(second.status === 'approved' && second.alreadyPaid, true);
    assert.equal(second.reference, first.reference);
    assert.equal(t.gateway.charged().length, 1);
  });
});
