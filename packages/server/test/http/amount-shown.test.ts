/**
 * Issue 29, the money truth across tabs: the total charged is the one the page showed, a tab whose
 * order another tab paid is told its card was not charged, and a closed bank check is "cancelled,
 * no payment was made" only once the middleware made sure no proof will be sent.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  REDIRECT_URLS,
  bankPost,
  card,
  local,
  payCard,
  pinned,
  type TestOptions,
} from '@pg-checkout/test-helpers/checkout-app';
import { header, overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  /** Each request is about the order `x-test-order` names, R 149,00. */
  const PINNED_ORDER: TestOptions = {
    resolveOrder: (req) => ({
      amount: 14_900,
      currency: 'ZAR',
      reference: header(req, 'x-test-order')!,
    }),
  };

  describe('the amount as shown, and one order paid from two tabs', () => {
    const amounts = new Map<string, number>();
    const app = appForSuite(adapter, {
      methods: ['card', 'eft', 'redirect'],
      redirectUrls: REDIRECT_URLS,
      resolveOrder: (req) => {
        const reference = header(req, 'x-test-order')!;
        return { amount: amounts.get(reference) ?? 14_900, currency: 'ZAR', reference };
      },
    });
    const shown = (amount: number) => ({ shown: { amount, currency: 'ZAR' } });

    it('tab B showing R 149,00 after quantity 1 -> 3 is refused amount_changed, never charged R 447,00', async () => {
      amounts.set('cart-b', 44_700);
      const stale = await app.call(
        'POST',
        '/payments',
        { ...card('4111111111111111'), ...shown(14_900) },
        pinned('cart-b'),
      );
      assert.equal(stale.status, 409);
      assert.deepEqual(
        { ...stale.body, message: undefined },
        {
          success: false,
          status: 'failed',
          code: 'amount_changed',
          message: undefined,
          order: { amount: 44_700, currency: 'ZAR' },
        },
      );
      assert.match(stale.body.message, /447\.00 ZAR/);
      assert.equal(app.gateway.calls.filter((c) => c === 'create').length, 0, 'nothing sent');
      // The shopper sees R 447,00 and taps Pay again: that total is charged, once.
      const paid = await app.call(
        'POST',
        '/payments',
        { ...card('4111111111111111'), ...shown(44_700) },
        pinned('cart-b'),
      );
      assert.equal(paid.body.status, 'approved');
      assert.deepEqual(
        app.gateway.charged().map((t) => t.amount),
        [44_700],
      );
    });

    it('the redirect routes refuse a stale total the same way, before any payment page is made', async () => {
      amounts.set('cart-eft', 44_700);
      for (const method of ['eft', 'redirect']) {
        const stale = await app.call('POST', `/${method}`, shown(14_900), pinned('cart-eft'));
        assert.equal(stale.status, 409, method);
        assert.equal(stale.body.code, 'amount_changed');
        assert.deepEqual(stale.body.order, { amount: 44_700, currency: 'ZAR' });
      }
      assert.ok(!app.gateway.calls.some((c) => c === 'eft' || c === 'redirect'));
      const fresh = await app.call('POST', '/eft', shown(44_700), pinned('cart-eft'));
      assert.equal(fresh.status, 200);
      assert.equal(fresh.body.success, true);
    });

    it('a client that sends no total (older drop-ins, merchants’ own) is served as before; a malformed one is refused', async () => {
      amounts.set('cart-old', 44_700);
      const old = await payCard(app, '4111111111111111', 'cart-old');
      assert.equal(old.body.status, 'approved');
      for (const half of [
        { shown: { amount: 44_700 } },
        { shown: { currency: 'ZAR' } },
        { shown: { amount: '447', currency: 'ZAR' } },
      ]) {
        const refused = await app.call(
          'POST',
          '/payments',
          { ...card('4111111111111111'), ...half },
          pinned('cart-half'),
        );
        assert.equal(refused.status, 400, JSON.stringify(half));
        assert.equal(refused.body.code, 'invalid_request');
      }
    });

    it('tab B paying an order tab A paid: approved with alreadyPaid, tab A’s reference, its card not charged', async () => {
      const a = await app.call(
        'POST',
        '/payments',
        { ...card('4111111111111111'), ...shown(14_900) },
        pinned('cart-tabs'),
      );
      assert.equal(a.body.status, 'approved');
      assert.equal(a.body.alreadyPaid, undefined, 'tab A’s own payment is not "already paid"');
      const b = await app.call(
        'POST',
        '/payments',
        { ...card('5555555555554444', { type: 'mastercard' }), ...shown(14_900) },
        pinned('cart-tabs'),
      );
      assert.equal(b.status, 200);
      assert.equal(b.body.status, 'approved');
      assert.equal(b.body.alreadyPaid, true);
      assert.equal(b.body.reference, a.body.reference);
      assert.match(b.body.message, /already paid/);
      const charged = app.gateway
        .charged()
        .filter((t) => t.merchantReference.startsWith('cart-tabs'));
      assert.equal(charged.length, 1);
      assert.equal(charged[0]!.number, '4111111111111111', 'tab B’s card was never sent');
    });
  });

  describe('a bank check that ends after another tab paid (point 8)', () => {
    const app = appForSuite(adapter, PINNED_ORDER);

    it('its proof is never sent and its state says this card was not charged', async () => {
      const b = await payCard(app, '4000000000003055', 'late-bank');
      const callbackUrl = String(app.gateway.lastCreate!.callbackUrl);
      const a = await payCard(app, '4111111111111111', 'late-bank');
      assert.equal(a.body.status, 'approved');
      await bankPost(local(app, callbackUrl), {
        cres: 'good-proof',
        threeDSSessionData: b.body.threeDS.threeDSSessionData,
      });
      const status = await app.call(
        'GET',
        `/payments/${b.body.reference}`,
        undefined,
        pinned('late-bank'),
      );
      assert.equal(status.body.code, 'already_paid');
      assert.match(status.body.message, /not charged/);
      assert.equal(app.gateway.chargesOf('late-bank').length, 1);
    });
  });

  describe('a bank check the shopper closed', () => {
    const app = appForSuite(adapter, PINNED_ORDER);

    it('closed after the bank’s answer reached the shop: the cancel answers approved, never "no payment"', async () => {
      const created = await payCard(app, '4000000000003055', 'closed-late');
      assert.equal(created.body.threeDS.step, 'challenge');
      const callbackUrl = String(app.gateway.lastCreate!.callbackUrl);
      const page = await bankPost(local(app, callbackUrl), {
        cres: 'good-proof',
        threeDSSessionData: created.body.threeDS.threeDSSessionData,
      });
      assert.equal(page.status, 200);
      const cancel = await app.call(
        'POST',
        `/payments/${created.body.reference}/cancel`,
        {},
        pinned('closed-late'),
      );
      assert.equal(cancel.status, 200);
      assert.equal(cancel.body.status, 'approved');
      assert.equal(cancel.body.reference, created.body.reference);
    });

    it('closed before: "cancelled" is confirmed, and a proof arriving later is never sent', async () => {
      const created = await payCard(app, '4000000000003055', 'closed-early');
      const callbackUrl = String(app.gateway.lastCreate!.callbackUrl);
      const cancel = await app.call(
        'POST',
        `/payments/${created.body.reference}/cancel`,
        {},
        pinned('closed-early'),
      );
      assert.equal(cancel.status, 200);
      assert.equal(cancel.body.code, 'authentication_cancelled');
      const confirmsBefore = app.gateway.calls.filter((c) => c.startsWith('confirm3ds')).length;
      await bankPost(local(app, callbackUrl), {
        cres: 'good-proof',
        threeDSSessionData: created.body.threeDS.threeDSSessionData,
      });
      assert.equal(
        app.gateway.calls.filter((c) => c.startsWith('confirm3ds')).length,
        confirmsBefore,
        'the late proof was not sent',
      );
      const status = await app.call(
        'GET',
        `/payments/${created.body.reference}`,
        undefined,
        pinned('closed-early'),
      );
      assert.equal(status.body.code, 'authentication_cancelled');
      // The order is open again: another card pays it, once.
      const next = await payCard(app, '4111111111111111', 'closed-early');
      assert.equal(next.body.status, 'approved');
      assert.equal(app.gateway.chargesOf('closed-early').length, 1);
    });

    it('a stranger cannot cancel someone’s bank check', async () => {
      const created = await payCard(app, '4000000000003055', 'closed-x');
      const cancel = await app.call(
        'POST',
        `/payments/${created.body.reference}/cancel`,
        {},
        {
          ...pinned('closed-x'),
          secret: null,
        },
      );
      assert.equal(cancel.status, 404);
    });
  });
});
