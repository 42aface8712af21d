import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import express from 'express';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { createCheckout, RefundError, type RefundEvent } from '../src/index.js';

// checkout.refund() on the Express router: the core's refund use case with the router's client.

let sandbox: Sandbox;
let client: GatewayClient;
before(async () => {
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  client = new GatewayClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    secret: sandbox.secret,
  });
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
  const paid = await client.payments.create({
    creditCard: {
      number: '4111111111111111',
      cardHolder: 'Thandi Nkosi',
      expiryMonth: 12,
      expiryYear: new Date().getUTCFullYear() + 3,
      cvv: '123',
      type: 'visa',
    },
    transaction: { reference: `express-refund-${randomUUID()}`, currency: 'ZAR', amount: 4_900 },
    autoExecute: true,
    clientIp: '127.0.0.1',
    screenWidth: '1280',
    screenHeight: '800',
  });
  const key = randomUUID();
  const first = await checkout.refund({ reference: paid.reference, amount: 2_000, key });
  const again = await checkout.refund({ reference: paid.reference, amount: 2_000, key });
  assert.deepEqual([first.status, again.status], ['refunded', 'already_refunded']);
  assert.equal((await checkout.refundable(paid.reference)).left, 2_900);
  assert.equal(events[0]?.merchantReference, `refund-${key}`);
  await assert.rejects(
    checkout.refund({ reference: paid.reference, amount: 3_000, key: randomUUID() }),
    (e: unknown) => e instanceof RefundError && e.code === 'more_than_left' && e.left === 2_900,
  );
});
