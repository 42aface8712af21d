import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { WebhookEvent } from '../../src/index.js';
import {
  REDIRECT_URLS,
  bankPost,
  card,
  local,
  payCard,
  pinned,
} from '@pg-checkout/test-helpers/checkout-app';
import { header, overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

// Issue 10: a reference is public knowledge; only the browser that created a payment steers it.
overAdapters((adapter) => {
  const logs: string[] = [];
  const received: WebhookEvent[] = [];
  const WEBHOOK_SECRET = 'whsec-strangers';
  const md5 = (s: string) => createHash('md5').update(s).digest('hex');

  const app = appForSuite(adapter, {
    methods: ['card', 'hosted', 'redirect', 'eft'],
    webhookSecret: WEBHOOK_SECRET,
    redirectUrls: REDIRECT_URLS,
    savedCards: { shopperId: (req) => header(req, 'x-shopper') || undefined },
    onWebhook: (event) => {
      received.push(event);
    },
    logger: {
      info: (...a) => logs.push(JSON.stringify(a)),
      warn: (...a) => logs.push(JSON.stringify(a)),
      error: (...a) => logs.push(JSON.stringify(a, Object.getOwnPropertyNames(a))),
    },
  });

  describe('a reference is not a credential', () => {
    it('status answers only the browser holding the payment’s client secret; strangers get the unknown-reference 404', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003097'));
      const { reference, clientSecret } = created.body;
      assert.equal(typeof clientSecret, 'string');
      assert.match(clientSecret, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      const other = await app.call('POST', '/payments', card('4111111111111111'));
      const unknown = await app.call('GET', '/payments/pg-does-not-exist', undefined, {
        origin: null,
        secret: null,
      });
      assert.equal(unknown.status, 404);
      // Another payment's secret, a forged one, and this payment's MAC bound to another attempt.
      const [, mac] = String(clientSecret).split('.');
      const otherAttempt = `${Buffer.from('order-9-1').toString('base64url')}.${mac}`;
      for (const secret of [
        null,
        '',
        'x'.repeat(43),
        other.body.clientSecret,
        clientSecret + 'A',
        otherAttempt,
      ]) {
        const answer = await app.call('GET', `/payments/${reference}`, undefined, {
          origin: null,
          secret,
        });
        assert.equal(answer.status, 404, `secret ${String(secret)}`);
        assert.deepEqual(answer.body, unknown.body);
        const text = JSON.stringify(answer.body);
        for (const leaked of ['termUrl', 'paReq', '/3ds/', 'md'])
          assert.ok(!text.includes(leaked), leaked);
      }
      const own = await app.call('GET', `/payments/${reference}`, undefined, { origin: null });
      assert.equal(own.status, 200);
      assert.equal(own.body.threeDS.version, 1);
      assert.match(own.body.threeDS.termUrl, /\/3ds\//);
    });

    it('Step 2 confirm with only the right Origin drives nothing; the owner still can', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003063'));
      const path = `/payments/${created.body.reference}/3dsv2/confirm`;
      for (const secret of [null, 'forged'.padEnd(43, 'x')]) {
        const stranger = await app.call('POST', path, {}, { secret });
        assert.equal(stranger.status, 404);
        assert.equal(stranger.body.code, 'not_found');
      }
      assert.equal(app.gateway.calls.includes('confirmStep2'), false);
      const owner = await app.call('POST', path, {});
      assert.equal(owner.body.status, 'authenticating');
      assert.equal(owner.body.threeDS.step, 'challenge');
      assert.equal(owner.body.threeDS.callbackOrigin, 'https://shop.test');
    });

    it('references a store could not take (long, odd characters) are 404, never 5xx', async () => {
      for (const reference of ['x'.repeat(600), 'a%2Fb', '%00', 'a b', '{p:x}']) {
        const status = await app.call('GET', `/payments/${reference}`, undefined, { origin: null });
        assert.equal(status.status, 404, reference.slice(0, 20));
        const step2 = await app.call('POST', `/payments/${reference}/3dsv2/confirm`, {});
        assert.equal(step2.status, 404);
      }
      const page = await bankPost(`${app.url}/3ds/${'y'.repeat(700)}/callback`, { cres: 'x' });
      assert.equal(page.status, 404);
      assert.match(page.html, /not valid or has expired/);
    });
  });

  describe('a junk proof does not kill a payment', () => {
    it('junk cres to the callback: the payment keeps waiting and the genuine proof still pays', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003055'));
      const { reference, threeDS } = created.body;
      const callback = local(app, String(app.gateway.lastCreate!.callbackUrl));
      const junk = await bankPost(callback, {
        cres: 'junk',
        threeDSSessionData: threeDS.threeDSSessionData,
      });
      assert.equal(junk.status, 400);
      assert.match(junk.html, /could not be used/);
      assert.doesNotMatch(junk.html, /3ds-complete/);
      assert.equal(app.gateway.txns.get(reference)!.status, 'THREE_D_SECURE');
      const waiting = await app.call('GET', `/payments/${reference}`, undefined, { origin: null });
      assert.equal(waiting.body.status, 'authenticating');
      const genuine = await bankPost(callback, {
        cres: 'good-proof',
        threeDSSessionData: threeDS.threeDSSessionData,
      });
      assert.equal(genuine.status, 200);
      assert.match(genuine.html, /3ds-complete/);
      const done = await app.call('GET', `/payments/${reference}`, undefined, { origin: null });
      assert.equal(done.body.status, 'approved');
    });

    it('a v1 PaRes with another payment’s MD confirms nothing and leaves the payment open', async () => {
      const a = await app.call('POST', '/payments', card('4000000000003097'));
      const b = await app.call('POST', '/payments', card('4000000000003097'));
      const page = await bankPost(local(app, a.body.threeDS.termUrl), {
        PaRes: 'good-proof',
        MD: b.body.threeDS.md,
      });
      assert.equal(page.status, 400);
      assert.equal(app.gateway.txns.get(a.body.reference)!.status, 'THREE_D_SECURE');
      const ok = await bankPost(local(app, a.body.threeDS.termUrl), {
        PaRes: 'good-proof',
        MD: a.body.threeDS.md,
      });
      assert.equal(ok.status, 200);
      const replay = await bankPost(local(app, a.body.threeDS.termUrl), {
        PaRes: 'good-proof',
        MD: a.body.threeDS.md,
      });
      assert.equal(replay.status, 200);
      assert.equal(
        app.gateway.calls.filter((c) => c === 'confirm3dsV1').length,
        1,
        'a replay confirms nothing twice',
      );
    });

    it('a tampered session token is refused as a page, not JSON', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003097'));
      const termUrl = local(app, created.body.threeDS.termUrl);
      const tampered = termUrl.replace(/\/3ds\/([^.]+)\./, (_m, b64: string) => {
        const other = Buffer.from(
          Buffer.from(b64, 'base64url').toString().replace(/-1$/, '-2'),
        ).toString('base64url');
        return `/3ds/${other}.`;
      });
      const page = await bankPost(tampered, { PaRes: 'good-proof', MD: created.body.threeDS.md });
      assert.equal(page.status, 404);
      assert.match(page.html, /<!doctype html>/);
    });
  });

  describe('one order, one payment, across methods', () => {
    it('after a card payment, EFT, redirect and the hosted page refuse the order', async () => {
      const paid = await payCard(app, '4111111111111111', 'once-1');
      assert.equal(paid.body.status, 'approved');
      for (const route of ['/eft', '/redirect']) {
        const answer = await app.call('POST', route, {}, pinned('once-1'));
        assert.equal(answer.status, 409, route);
        assert.equal(answer.body.code, 'already_paid');
      }
      const again = await payCard(app, '5555555555554444', 'once-1');
      assert.equal(again.body.reference, paid.body.reference);
      const ofOrder = [...app.gateway.txns.values()].filter((t) =>
        t.merchantReference.startsWith('once-1-'),
      );
      assert.equal(ofOrder.length, 1);
    });

    it('after an EFT completed at the gateway, a card payment answers that payment and charges nothing', async () => {
      const eft = await app.call('POST', '/eft', {}, pinned('once-2'));
      assert.equal(eft.status, 200);
      assert.equal(typeof eft.body.clientSecret, 'string');
      app.gateway.txns.get(eft.body.reference)!.status = 'SETTLED'; // the shopper paid on the bank's page
      const creates = app.gateway.calls.filter((c) => c === 'create').length;
      const card2 = await payCard(app, '4111111111111111', 'once-2');
      assert.equal(card2.body.status, 'approved');
      assert.equal(card2.body.reference, eft.body.reference);
      assert.equal(app.gateway.calls.filter((c) => c === 'create').length, creates);
      const redirect = await app.call('POST', '/redirect', {}, pinned('once-2'));
      assert.equal(redirect.body.code, 'already_paid');
    });

    it('an open challenge of an earlier attempt is not confirmed once another attempt paid the order', async () => {
      const first = await payCard(app, '4000000000003097', 'once-3');
      const second = await payCard(app, '4111111111111111', 'once-3');
      assert.equal(second.body.status, 'approved');
      const page = await bankPost(local(app, first.body.threeDS.termUrl), {
        PaRes: 'good-proof',
        MD: first.body.threeDS.md,
      });
      assert.equal(page.status, 200);
      const state = await app.call('GET', `/payments/${first.body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(state.body.code, 'already_paid');
      assert.match(state.body.message, /already been paid/);
      assert.equal(app.gateway.txns.get(first.body.reference)!.status, 'THREE_D_SECURE');
    });
  });

  describe('bad input never reaches 5xx', () => {
    it('an X-Forwarded-For of 600 characters or a non-IP is not sent as clientIp', async () => {
      for (const forwarded of ['9'.repeat(600), 'evil', '1.2.3.4, <script>']) {
        const answer = await app.call('POST', '/payments', card('4111111111111111'), {
          headers: { 'x-forwarded-for': forwarded },
        });
        assert.ok(answer.status < 500, `${forwarded.slice(0, 10)}: ${answer.status}`);
        const clientIp = String(app.gateway.lastCreate!.clientIp ?? '');
        assert.ok(clientIp === '' || /^[\d.:a-f]+$/i.test(clientIp), clientIp.slice(0, 20));
      }
    });
  });

  describe('webhooks are hints; the gateway’s lookup decides', () => {
    const notify = (paymentReference: string, extra: Record<string, unknown> = {}) => ({
      success: true,
      amount: 12_345,
      currency: 'ZAR',
      paymentReference,
      merchantReference: 'x-1',
      paymentDate: '2026-11-23 09:00:00',
      status: 'SETTLED',
      date: '2026-11-23T09:00:00.000Z',
      hash: md5(paymentReference + WEBHOOK_SECRET),
      bin: '',
      ...extra,
    });
    const post = (body: unknown) =>
      fetch(`${app.url}/webhooks/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('a resent notification with another amount and status: the handler gets the lookup’s', async () => {
      const eft = await app.call('POST', '/eft', {});
      const answer = await post(
        notify(eft.body.reference, { amount: 99_999_900, status: 'SETTLED' }),
      );
      assert.equal(answer.status, 200);
      const event = received.at(-1)!;
      assert.equal(event.type, 'payment');
      if (event.type !== 'payment') return;
      assert.equal(event.record.status, 'NEW');
      assert.equal(event.record.amount, 12_345);
      assert.equal(
        event.payload.amount,
        99_999_900,
        'the payload is handed on as posted, beside the record',
      );
    });

    it('a valid hash for a reference the gateway never created is acknowledged and ignored', async () => {
      const before = received.length;
      const answer = await post(notify('pg-never-created'));
      assert.equal(answer.status, 200);
      assert.deepEqual(await answer.json(), { success: true, ignored: true });
      assert.equal(received.length, before);
      assert.ok(logs.some((l) => l.includes('does not know')));
    });
  });

  describe('logs', () => {
    it('a malformed body holding a card number is never logged', async () => {
      logs.length = 0;
      await app.call('POST', '/payments', undefined, {
        raw: '{"card":{"number":"4111111111111111","cvv":"737"',
      });
      await app.call('POST', '/payments', undefined, {
        raw: '{"card":{"number":"4111111111111111","cvv":"737"}}',
        headers: { 'content-type': 'text/plain' },
      });
      const text = logs.join('\n');
      assert.ok(!text.includes('4111111111111111'));
      assert.ok(!text.includes('"737"'));
    });
  });

  describe('saved cards across shoppers', () => {
    it('one shopper deleting a card the vault shares never removes another shopper’s', async () => {
      const save = (shopper: string) =>
        app.call('POST', '/cards', card('4550270020557018'), { headers: { 'x-shopper': shopper } });
      const a = await save('ann');
      const b = await save('ben');
      assert.equal(a.body.card.token, b.body.card.token, 'the vault hands out one token per card');
      const removed = await app.call('DELETE', `/cards/${a.body.card.token}`, undefined, {
        headers: { 'x-shopper': 'ann' },
      });
      assert.equal(removed.status, 200);
      assert.equal(app.gateway.vault.has(b.body.card.token), true);
      const bens = await app.call('GET', '/cards', undefined, { headers: { 'x-shopper': 'ben' } });
      assert.equal(bens.body.cards.length, 1);
      const paid = await app.call(
        'POST',
        '/payments',
        { card: { token: b.body.card.token }, screenWidth: 1, screenHeight: 1 },
        { headers: { 'x-shopper': 'ben' } },
      );
      assert.equal(paid.body.status, 'approved');
      // The last holder's delete does remove it from the vault.
      await app.call('DELETE', `/cards/${b.body.card.token}`, undefined, {
        headers: { 'x-shopper': 'ben' },
      });
      assert.equal(app.gateway.vault.has(b.body.card.token), false);
    });
  });
});
