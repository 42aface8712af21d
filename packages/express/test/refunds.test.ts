import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import express from 'express';
import type { GatewayClient } from '@pg-checkout/node';
import type { Sandbox } from '@pg-checkout/sandbox';
import { startSandboxClient } from '@pg-checkout/test-helpers/sandbox-client';
import { settledPayment } from '@pg-checkout/test-helpers/sandbox-payments';
import { createCheckout, RefundError, type RefundEvent } from '../src/index.js';

// checkout.refund() on the Express router: the core's refund use case with the router's client.

let sandbox: Sandbox;
let client: GatewayClient;
before(async () => {
  ({ sandbox, client } = await startSandboxClient());
});
after(() => sandbox.close());

test('the router refunds once per key, with the checkout’s gateway client and onRefundCompleted', async () => {
  const events: RefundEvent[] = [];
  const checkout = createCheckout({
    gateway: client,
    webhookSecret: sandbox.secret,
    publicUrl: 'https://shop.test/checkout',
    resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'o-1' }),
    onRefundCompleted: (e) => void events.push(e),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  express().use('/checkout', checkout); // still a router
  const paid = {
    reference: await settledPayment(client, 4_900, `express-refund-${randomUUID()}`),
  };
  const key = randomUUID();
  const first = await checkout.refund({ reference: paid.reference, amount: 2_000, key });
  const again = await checkout.refund({ reference: paid.reference, amount: 2_000, key });
  assert.deepEqual([first.status, again.status], ['refunded', 'already_refunded']);
  assert.equal((await checkout.refundable(paid.reference)).left, 2_900);
  // The refund's slot at the gateway, derived from the payment; the caller's key beside it.
  assert.equal(events[0]?.merchantReference, `${paid.reference}~r1`);
  assert.equal(events[0]?.key, key);
  assert.equal(first.refund.key, key);
  await assert.rejects(
    checkout.refund({ reference: paid.reference, amount: 3_000, key: randomUUID() }),
    (e: unknown) => e instanceof RefundError && e.code === 'more_than_left' && e.left === 2_900,
  );
});
