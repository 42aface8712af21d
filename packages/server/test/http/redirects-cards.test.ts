import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REDIRECT_URLS, card } from '@pg-checkout/test-helpers/checkout-app';
import { header, overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  const app = appForSuite(adapter, {
    methods: ['card', 'hosted', 'redirect', 'eft'],
    redirectUrls: REDIRECT_URLS,
    resolveOrder: (req) => ({
      amount: 5000,
      currency: header(req, 'x-currency') ?? 'ZAR',
      reference: `r-${Math.random().toString(36).slice(2, 10)}`,
      consumer: { email: 'shopper@shop.test' },
    }),
    savedCards: {
      shopperId: (req) => header(req, 'x-shopper') || undefined,
      maySaveCard: (req) => header(req, 'x-shopper') !== 'guest',
    },
  });

  describe('hosted, redirect and EFT starts', () => {
    it('each answers the gateway redirectUrl and fills urls and notify on the server', async () => {
      for (const [route, kind] of [
        ['/redirect', 'redirect'],
        ['/eft', 'eft'],
      ] as const) {
        const { status, body } = await app.call('POST', route, {
          consumer: { name: 'Ann', email: 'evil@x.test' },
          amount: 1,
        });
        assert.equal(status, 200);
        assert.equal(body.success, true);
        assert.equal(body.redirectUrl, `https://pay.gateway.test/${kind}/${body.reference}`);
        const sent = app.gateway.lastRedirect as {
          transaction: { amount: number };
          consumer: { name: string; email: string };
          urls: Record<string, string>;
        };
        assert.equal(sent.transaction.amount, 5000);
        assert.equal(sent.consumer.email, 'shopper@shop.test');
        assert.equal(sent.consumer.name, 'Ann');
        assert.equal(sent.urls.success, 'https://shop.test/ok');
        if (kind === 'redirect')
          assert.equal(sent.urls.notify, 'https://shop.test/checkout/webhooks/notify');
        const state = await app.call('GET', `/payments/${body.reference}`, undefined, {
          origin: null,
        });
        assert.equal(state.body.status, 'pending');
        assert.equal(app.gateway.calls.at(-1), kind === 'redirect' ? 'redirectLookup' : 'lookup');
      }
    });

    it('a request the gateway refuses as malformed is a 400 naming the field, not "unavailable"', async () => {
      const { status, body } = await app.call(
        'POST',
        '/redirect',
        {},
        { headers: { 'x-currency': 'USD' } },
      );
      assert.equal(status, 400);
      assert.equal(body.code, 'invalid_request');
      assert.match(body.message, /consumer\.consumerAddress/);
    });

    it('the hosted page is for non-ZAR orders only', async () => {
      const zar = await app.call('POST', '/hosted', {});
      assert.equal(zar.status, 400);
      const usd = await app.call('POST', '/hosted', {}, { headers: { 'x-currency': 'USD' } });
      assert.equal(usd.status, 200);
      assert.match(usd.body.redirectUrl, /\/foreign\//);
    });

    it('bad consumer data is a 400 naming the field', async () => {
      const { status, body } = await app.call('POST', '/eft', {
        consumer: { email: 'not-an-email' },
      });
      assert.equal(status, 400);
      assert.match(body.message, /consumer\.email/);
    });
  });

  describe('saved cards', () => {
    const shopper = { headers: { 'x-shopper': 'alice' } };

    it('saves a card with an approved payment, lists it masked, pays with its token, removes it', async () => {
      const paid = await app.call(
        'POST',
        '/payments',
        { ...card('5555555555554444', { type: 'mastercard' }), saveCard: true },
        shopper,
      );
      assert.equal(paid.body.status, 'approved');
      const list = await app.call('GET', '/cards', undefined, { origin: null, ...shopper });
      assert.equal(list.body.cards.length, 1);
      const saved = list.body.cards[0];
      assert.equal(saved.number, '555555XXXXXX4444');
      assert.ok(!JSON.stringify(list.body).includes('5555555555554444'));
      const again = await app.call(
        'POST',
        '/payments',
        { card: { token: saved.token }, screenWidth: 400, screenHeight: 800 },
        shopper,
      );
      assert.equal(again.body.status, 'approved');
      const stolen = await app.call(
        'POST',
        '/payments',
        { card: { token: saved.token }, screenWidth: 400, screenHeight: 800 },
        { headers: { 'x-shopper': 'mallory' } },
      );
      assert.equal(stolen.status, 404);
      const removed = await app.call('DELETE', `/cards/${saved.token}`, undefined, shopper);
      assert.equal(removed.status, 200);
      assert.equal(app.gateway.vault.has(saved.token), false);
      assert.equal(
        (await app.call('DELETE', `/cards/${saved.token}`, undefined, shopper)).status,
        404,
      );
    });

    it('does not keep a card after a declined payment, nor for a shopper who may not save', async () => {
      const declined = await app.call(
        'POST',
        '/payments',
        { ...card('4000000000000002'), saveCard: true },
        { headers: { 'x-shopper': 'bob' } },
      );
      assert.equal(declined.body.status, 'declined');
      assert.equal(
        (
          await app.call('GET', '/cards', undefined, {
            origin: null,
            headers: { 'x-shopper': 'bob' },
          })
        ).body.cards.length,
        0,
      );
      const guest = await app.call(
        'POST',
        '/cards',
        { card: card('4111111111111111').card },
        { headers: { 'x-shopper': 'guest' } },
      );
      assert.equal(guest.status, 403);
    });

    it('needs a signed-in shopper', async () => {
      const { status, body } = await app.call('GET', '/cards', undefined, { origin: null });
      assert.equal(status, 401);
      assert.equal(body.code, 'not_signed_in');
    });
  });
});
