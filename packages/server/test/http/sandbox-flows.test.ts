import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { WebhookEvent } from '../../src/index.js';
import { REDIRECT_URLS } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { sandboxAppForSuite } from '@pg-checkout/test-helpers/suite';
import { testProfile } from '@pg-checkout/test-helpers/sandbox';

overAdapters((adapter) => {
  const webhooks: WebhookEvent[] = [];
  let shopper = 'dora';
  const app = sandboxAppForSuite(adapter, {
    methods: ['card', 'hosted', 'redirect', 'eft'],
    redirectUrls: REDIRECT_URLS,
    onWebhook: (event) => void webhooks.push(event),
    savedCards: { shopperId: () => shopper },
  });

  async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  const payOnPage = (redirectUrl: string, fields: Record<string, string>) =>
    fetch(redirectUrl.replace(/\/pay\/(?:[^/]+\/)?([^/]+)$/, '/pay/$1'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'pay', ...fields }).toString(),
    });

  describe('redirect, EFT and hosted payments with the sandbox', () => {
    it('redirect: start, pay on the gateway page, the notify webhook settles our record once', async () => {
      const started = await app.post('/redirect', {
        consumer: { name: 'Ann', surname: 'Lee', email: 'ann@shop.test' },
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      assert.ok(started.body.redirectUrl.startsWith(app.sandboxUrl));
      assert.equal((await app.get(`/payments/${started.body.reference}`)).body.status, 'pending');
      const paid = await payOnPage(started.body.redirectUrl, {
        number: '4111111111111111',
        cardHolder: 'Ann Lee',
        expiryMonth: '12',
        expiryYear: '2031',
        cvv: '123',
      });
      await paid.arrayBuffer();
      // The gateway's lookup decides, webhook or not: on the strict sandbox it may come late,
      // twice, out of order or never.
      assert.equal((await app.get(`/payments/${started.body.reference}`)).body.status, 'approved');
      const ours = () =>
        webhooks.filter(
          (e) => e.type === 'payment' && e.payload.paymentReference === started.body.reference,
        );
      if (testProfile() === 'strict') {
        // Everything held falls due (copies included); handed over at most once, whatever came.
        await fetch(`${app.sandboxUrl}/_sandbox/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advanceMs: 4 * 3_600_000 }),
        });
        await new Promise((r) => setTimeout(r, 500));
        assert.ok(ours().length <= 1, `${ours().length} notifications handed over`);
        if (ours().length === 0) return;
      }
      const event = await waitFor(() => ours()[0], 'the notify webhook');
      assert.equal(event.type === 'payment' && event.payload.status, 'SETTLED');
      const replay = await fetch(`${app.url}/webhooks/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event.payload),
      });
      assert.deepEqual(await replay.json(), { success: true, duplicate: true });
      const forged = await fetch(`${app.url}/webhooks/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...event.payload, hash: '0'.repeat(32) }),
      });
      assert.equal(forged.status, 401);
      assert.equal(
        webhooks.filter(
          (e) => e.type === 'payment' && e.payload.paymentReference === started.body.reference,
        ).length,
        1,
      );
    });

    it('EFT: start answers the gateway redirectUrl', async () => {
      const started = await app.post('/eft', { consumer: { name: 'Ben', email: 'ben@shop.test' } });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      assert.match(started.body.redirectUrl, /\/pay\//);
      assert.equal((await app.record(started.body.reference)).amount, 10_000);
    });

    it('hosted (v3, USD): start with a consumer address answers the redirectUrl', async () => {
      const started = await app.post(
        '/hosted',
        {
          consumer: {
            name: 'Cy',
            email: 'cy@shop.test',
            consumerAddress: {
              addressLineOne: '1 Main Rd',
              city: 'Cape Town',
              postCode: '8001',
              country: 'ZA',
            },
          },
        },
        { 'x-currency': 'USD' },
      );
      assert.equal(started.status, 200, JSON.stringify(started.body));
      assert.ok(started.body.redirectUrl);
      const record = await app.record(started.body.reference);
      assert.equal(record.currency, 'USD');
    });

    it('a payout webhook from the sandbox is verified and handed over', async () => {
      await app.sandbox('/_sandbox/payouts', { url: `${app.url}/webhooks/payout` });
      const payout = await waitFor(
        () => webhooks.find((e) => e.type === 'payout'),
        'the payout webhook',
      );
      assert.equal(typeof (payout.type === 'payout' && payout.payload.payoutId), 'number');
    });
  });

  describe('saved cards with the sandbox vault', () => {
    it('saves with a payment, lists masked, pays by token, removes', async () => {
      shopper = `shopper-${Date.now()}`;
      const card = {
        number: '5555555555554444',
        cardHolder: 'Dora',
        expiryMonth: 11,
        expiryYear: 2032,
        cvv: '321',
        type: 'mastercard',
      };
      const paid = await app.post('/payments', {
        card,
        screenWidth: 800,
        screenHeight: 600,
        saveCard: true,
      });
      assert.equal(paid.body.status, 'approved', JSON.stringify(paid.body));
      const list = await app.get('/cards');
      assert.equal(list.body.cards.length, 1);
      assert.equal(list.body.cards[0].number, '555555XXXXXX4444');
      const token = list.body.cards[0].token;
      const again = await app.post('/payments', {
        card: { token },
        screenWidth: 800,
        screenHeight: 600,
      });
      assert.equal(again.body.status, 'approved', JSON.stringify(again.body));
      const removed = await fetch(`${app.url}/cards/${token}`, {
        method: 'DELETE',
        headers: { origin: 'https://shop.test' },
      });
      assert.equal(removed.status, 200);
      assert.equal((await app.get('/cards')).body.cards.length, 0);
    });
  });
});
