import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import express from 'express';
import type { WebhookEvent } from '../src/index.js';
import { card, startApp, type TestApp } from '@pg-checkout/test-helpers/checkout-app';

// Issue 12: a merchant app that parses bodies globally before mounting the checkout must still
// receive the gateway's webhooks (the hashes cover only the reference or payout id).
const SECRET = 'whsec-parsers';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

const parsers: Record<string, express.RequestHandler[]> = {
  'express.json()': [express.json()],
  'express.text()': [express.text({ type: '*/*' })],
  'express.urlencoded()': [express.urlencoded({ extended: false })],
  'express.raw()': [express.raw({ type: '*/*' })],
  'none (the router reads it)': [],
};

for (const [name, chain] of Object.entries(parsers)) {
  describe(`webhooks behind ${name}`, () => {
    let app: TestApp;
    const received: WebhookEvent[] = [];
    before(async () => {
      app = await startApp(
        { webhookSecret: SECRET, onWebhook: (event) => void received.push(event) },
        undefined,
        { parsers: chain },
      );
    });
    after(() => app.close());

    it('a genuine notification is handled once, a forged one refused', async () => {
      const reference = (await app.call('POST', '/payments', card('4111111111111111'))).body
        .reference as string;
      const body = {
        success: true,
        amount: 12_345,
        currency: 'ZAR',
        paymentReference: reference,
        merchantReference: 'order-x-1',
        paymentDate: '2026-11-23 09:00:00',
        status: 'SETTLED',
        date: '2026-11-23T09:00:00.000Z',
        hash: md5(reference + SECRET),
        bin: '411111XXXXXX1111',
      };
      const post = (payload: unknown) =>
        fetch(`${app.url}/webhooks/notify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        });
      const ok = await post(body);
      assert.equal(ok.status, 200, await ok.clone().text());
      assert.equal(received.length, 1);
      const forged = await post({ ...body, hash: md5(reference + 'guess') });
      assert.equal(forged.status, 401);
      assert.equal(received.length, 1);
    });
  });
}
