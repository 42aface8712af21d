import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completeChallenge } from '@pg-checkout/test-helpers/bank';
import { adminSession, backOfficePage, ordersIn } from '@pg-checkout/test-helpers/admin';
import { payOnSandboxPage } from '@pg-checkout/test-helpers/sandbox-payments';
import { demoOnSandbox } from './helpers/demo.js';
import { Shopper } from '@pg-checkout/test-helpers/shopper';

// Issue 26, case 3: the shop compares before it believes. The quantity goes from 1 to 3 while the
// 3-D Secure challenge is open; the gateway charges R 149,00 for an order that now comes to
// R 447,00. The order is not paid: the back office and the shopper's result page say so.

const shop = demoOnSandbox();

test('case 3: an order whose total changed during the challenge is charged, not paid, and both pages say so', async () => {
  const shopper = new Shopper(shop.demo.url);
  const { order } = await shopper.setQuantity(1);
  const started = await shopper.pay('4000000000003055');
  assert.equal(started.status, 'authenticating', JSON.stringify(started));
  assert.equal((await shopper.setQuantity(3)).amount, 44_700, 'the open order takes the new cart');

  const callback = await completeChallenge(started.threeDS, '1234');
  assert.equal(callback.status, 200);
  const status = (await (
    await shopper.call(`/checkout/payments/${started.reference}`, {
      headers: { 'x-pg-client-secret': started.clientSecret },
    })
  ).json()) as { code?: string };
  assert.equal(status.code, 'order_changed', 'the checkout answers order_changed');

  const result = await shopper.result();
  assert.equal(result.state, 'changed');
  assert.deepEqual(result.charged, { amount: 14_900, currency: 'ZAR' });
  assert.deepEqual(result.total, { amount: 44_700, currency: 'ZAR' });
  assert.match(String(result.message), /charged R\s149,00 for R\s447,00/);

  const admin = await adminSession(shop.demo.shop);
  const row = ordersIn(await backOfficePage(shop.demo.url, admin)).orders.find(
    (o) => o.reference === order,
  );
  assert.equal(row?.status, 'changed');
  assert.match(row!.row, /charged R\s149,00 for R\s447,00: refund or collect the rest/);
  assert.doesNotMatch(row!.row, /data-order-status="paid"/);
});

test('case 3: the same total charged is paid', async () => {
  const shopper = new Shopper(shop.demo.url);
  const { order } = await shopper.setQuantity(2);
  const paid = await shopper.pay('4111111111111111');
  assert.equal(paid.status, 'approved');
  assert.deepEqual(await shopper.result(), { state: 'paid', amount: 29_800, currency: 'ZAR' });
  const admin = await adminSession(shop.demo.shop);
  const row = ordersIn(await backOfficePage(shop.demo.url, admin)).orders.find(
    (o) => o.reference === order,
  );
  assert.equal(row?.status, 'paid');
});

test('case 3: the hosted page’s USD charge of the order’s total (at the shop’s rate) is paid', async () => {
  const shopper = new Shopper(shop.demo.url);
  await shopper.setQuantity(1);
  const started = await shopper.startHosted();
  const paid = await payOnSandboxPage(shop.sandbox.url, started.reference);
  assert.ok(paid.status < 400, `the hosted page took the card (${paid.status})`);
  assert.deepEqual(await shopper.result(), { state: 'paid', amount: 805, currency: 'USD' });
  // The webhook's hook and the result page's lookup both mark it: paid either way.
  for (
    let i = 0;
    i < 100 && !shop.demo.logs.some((l) => l.includes(`${started.reference} completed`));
    i++
  )
    await new Promise((r) => setTimeout(r, 50));
  const cart = (await (await shopper.call('/api/cart')).json()) as { status: string };
  assert.equal(cart.status, 'paid');
  assert.deepEqual(await shopper.result(), { state: 'paid', amount: 805, currency: 'USD' });
});
