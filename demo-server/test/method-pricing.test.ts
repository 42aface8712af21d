import assert from 'node:assert/strict';
import { test } from 'node:test';
import { payOnSandboxPage } from '@pg-checkout/test-helpers/sandbox-payments';
import { Shopper } from '@pg-checkout/test-helpers/shopper';
import { demoOnSandbox } from './helpers/demo.js';

// Issue 30: the shop prices the hosted page in USD from the method the checkout tells it, not from
// the URL, so reading a USD payment back (its status, the order's) prices it as the hosted page did.

const shop = demoOnSandbox();

test('a USD payment on the hosted page reads back approved, by its status and by the order', async () => {
  const shopper = new Shopper(shop.demo.url);
  await shopper.setQuantity(1);
  const started = await shopper.startHosted();
  const paid = await payOnSandboxPage(shop.sandbox.url, started.reference);
  assert.ok(paid.status < 400, `the hosted page took the card (${paid.status})`);

  const status = (await (
    await shopper.call(`/checkout/payments/${started.reference}`, {
      headers: { 'x-pg-client-secret': started.clientSecret },
    })
  ).json()) as { status: string; code?: string };
  assert.deepEqual([status.status, status.code], ['approved', undefined], JSON.stringify(status));

  const order = (await (await shopper.call('/checkout/order')).json()) as {
    status: string;
    payment?: { status: string; code?: string };
  };
  assert.equal(order.status, 'paid', JSON.stringify(order));
  assert.equal(order.payment?.status, 'approved', JSON.stringify(order));
  assert.deepEqual(await shopper.result(), { state: 'paid', amount: 805, currency: 'USD' });
});
