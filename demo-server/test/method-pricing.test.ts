import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { payOnSandboxPage } from '@pg-checkout/test-helpers/sandbox-payments';
import { Shopper } from '@pg-checkout/test-helpers/shopper';
import { startTestDemo, type TestDemo } from './helpers/demo.js';

// Issue 30: the shop prices the hosted page in USD from the method the checkout tells it, not from
// the URL, so reading a USD payment back (its status, the order's) prices it as the hosted page did.

let sandbox: Sandbox;
let demo: TestDemo;

before(async () => {
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  demo = await startTestDemo({
    baseUrl: sandbox.url,
    token: sandbox.token,
    secret: sandbox.secret,
  });
});
after(async () => {
  await demo?.close();
  await sandbox?.close();
});

test('a USD payment on the hosted page reads back approved, by its status and by the order', async () => {
  const shopper = new Shopper(demo.url);
  await shopper.setQuantity(1);
  const started = (await (
    await shopper.call('/checkout/hosted', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: demo.url },
      body: '{}',
    })
  ).json()) as { reference: string; clientSecret: string };
  assert.ok(started.reference, JSON.stringify(started));
  const paid = await payOnSandboxPage(sandbox.url, started.reference);
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
