import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bankPost, card, local, order } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  const events: string[] = [];
  const app = appForSuite(adapter, {
    onPaymentCompleted: (e) => void events.push(`completed:${e.reference}`),
    onPaymentFailed: (e) => void events.push(`failed:${e.reference}`),
  });

  describe('card payments (fake gateway)', () => {
    it('GET /config answers the server-side order for display', async () => {
      const { status, body } = await app.call('GET', '/config', undefined, { origin: null });
      assert.equal(status, 200);
      assert.deepEqual(body, {
        success: true,
        amount: order.amount,
        currency: 'ZAR',
        methods: ['card'],
        savedCards: false,
      });
    });

    it('approves a frictionless card, with the amount from resolveOrder not the body', async () => {
      const { status, body } = await app.call('POST', '/payments', {
        ...card('4111111111111111'),
        amount: 1,
        currency: 'USD',
        reference: 'evil',
      });
      assert.equal(status, 200);
      assert.equal(body.status, 'approved');
      const txn = app.gateway.txns.get(body.reference)!;
      assert.equal(txn.amount, order.amount);
      assert.equal(txn.currency, 'ZAR');
      assert.match(txn.merchantReference, /^order-\d+-1$/);
      assert.ok(events.includes(`completed:${body.reference}`));
      const status2 = await app.call('GET', `/payments/${body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(status2.body.status, 'approved');
    });

    it('declines with a readable message, a 402 and the processor code', async () => {
      const { status, body } = await app.call('POST', '/payments', card('4000000000000002'));
      assert.equal(status, 402);
      assert.equal(body.success, false);
      assert.equal(body.status, 'declined');
      assert.equal(body.code, 'card_declined');
      assert.equal(body.originalErrorCode, 'fin005');
      assert.ok(events.includes(`failed:${body.reference}`));
    });

    it('runs 3-D Secure v1: TermUrl confirms once, the page tells only the shop origin', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003097'));
      assert.equal(created.body.status, 'authenticating');
      const action = created.body.threeDS;
      assert.equal(action.version, 1);
      assert.match(
        action.termUrl,
        /^https:\/\/shop\.test\/checkout\/3ds\/[A-Za-z0-9_-]+\.[0-9a-z]+\.[A-Za-z0-9_-]{43}\/term$/,
      );
      const page = await bankPost(local(app, action.termUrl), {
        PaRes: 'good-proof',
        MD: action.md,
      });
      assert.equal(page.status, 200);
      assert.match(
        page.html,
        /parent\.postMessage\(\{source:'pg-checkout',type:'3ds-complete',reference:"pg-[^"]+"\},"https:\/\/shop\.test"\)/,
      );
      const nonce = /script-src 'nonce-([^']+)'/.exec(page.csp ?? '')?.[1];
      assert.ok(nonce && page.html.includes(`<script nonce="${nonce}">`));
      assert.doesNotMatch(page.html, /\son[a-z]+=/i);
      const replay = await bankPost(local(app, action.termUrl), {
        PaRes: 'good-proof',
        MD: action.md,
      });
      assert.equal(replay.status, 200);
      assert.equal(app.gateway.calls.filter((c) => c === 'confirm3dsV1').length, 1);
      const status = await app.call('GET', `/payments/${created.body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(status.body.status, 'approved');
    });

    it('refuses a v1 post whose MD belongs to another payment, confirming nothing', async () => {
      const a = await app.call('POST', '/payments', card('4000000000003097'));
      const b = await app.call('POST', '/payments', card('4000000000003097'));
      const before = app.gateway.calls.length;
      const page = await bankPost(local(app, a.body.threeDS.termUrl), {
        PaRes: 'good-proof',
        MD: b.body.threeDS.md,
      });
      assert.equal(page.status, 400);
      assert.doesNotMatch(page.html, /postMessage/);
      assert.equal(app.gateway.calls.length, before);
    });

    it('runs v2 method -> Step 2 -> challenge -> callback -> approved', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003063'));
      const action = created.body.threeDS;
      assert.equal(action.step, 'method');
      const method = await fetch(local(app, action.methodUrl));
      assert.equal(await method.text(), action.tdsMethodContent);
      const csp = method.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
      assert.match(csp, /form-action https: https:\/\/acs\.bank\.test/);
      assert.match(csp, /frame-ancestors https:\/\/shop\.test/);
      const step2 = await app.call(
        'POST',
        new URL(action.confirmUrl).pathname.replace('/checkout', ''),
        {},
      );
      assert.equal(step2.status, 200);
      assert.equal(step2.body.threeDS.step, 'challenge');
      const again = await app.call('POST', `/payments/${created.body.reference}/3dsv2/confirm`, {});
      assert.equal(again.body.threeDS.step, 'challenge');
      assert.equal(app.gateway.calls.filter((c) => c === 'confirmStep2').length, 1);
      const callback = local(app, action.methodUrl.replace(/method$/, 'callback'));
      const page = await bankPost(callback, {
        cres: 'good-proof',
        threeDSSessionData: step2.body.threeDS.threeDSSessionData,
      });
      assert.match(page.html, /3ds-complete/);
      const status = await app.call('GET', `/payments/${created.body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(status.body.status, 'approved');
    });

    it('v2 frictionless at Step 2 and authentication failure at Step 2', async () => {
      const ok = await app.call('POST', '/payments', card('4000000000003220'));
      const done = await app.call('POST', `/payments/${ok.body.reference}/3dsv2/confirm`, {});
      assert.equal(done.body.status, 'approved');
      const bad = await app.call('POST', '/payments', card('4000000000000127'));
      const failed = await app.call('POST', `/payments/${bad.body.reference}/3dsv2/confirm`, {});
      assert.equal(failed.status, 402);
      assert.equal(failed.body.code, 'authentication_failed');
      assert.equal(failed.body.originalErrorCode, 'fin006');
    });

    it('a failed challenge answers the harmless page and a declined status', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003055'));
      const action = created.body.threeDS;
      assert.equal(action.step, 'challenge');
      const record = app.gateway.txns.get(created.body.reference)!;
      assert.equal(action.threeDSSessionData, `sd-${record.reference}`);
      const callbackUrl = String(app.gateway.lastCreate!.callbackUrl);
      assert.match(
        callbackUrl,
        /^https:\/\/shop\.test\/checkout\/3ds\/[A-Za-z0-9_-]+\.[0-9a-z]+\.[A-Za-z0-9_-]{43}\/callback$/,
      );
      const page = await bankPost(local(app, callbackUrl), {
        cres: 'failed-proof',
        threeDSSessionData: action.threeDSSessionData,
      });
      assert.equal(page.status, 200);
      assert.match(page.html, /3ds-complete/);
      const status = await app.call('GET', `/payments/${created.body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(status.status, 402);
      assert.equal(status.body.code, 'authentication_failed');
    });

    it('unknown references and sessions get 404 with a clear message', async () => {
      const status = await app.call('GET', '/payments/pg-nope', undefined, { origin: null });
      assert.equal(status.status, 404);
      assert.deepEqual(status.body, {
        success: false,
        message: 'This payment was not found.',
        code: 'not_found',
      });
      const step2 = await app.call('POST', '/payments/pg-nope/3dsv2/confirm', {});
      assert.equal(step2.status, 404);
      const page = await bankPost(`${app.url}/3ds/${'x'.repeat(32)}/callback`, {
        cres: 'good-proof',
      });
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.html, /postMessage/);
      const route = await app.call('GET', '/nothing-here', undefined, { origin: null });
      assert.equal(route.status, 404);
      assert.equal(route.body.code, 'not_found');
    });

    it('refuses state-changing calls from another origin or with none', async () => {
      for (const origin of ['https://evil.test', null]) {
        const { status, body } = await app.call('POST', '/payments', card('4111111111111111'), {
          origin,
        });
        assert.equal(status, 403);
        assert.equal(body.code, 'forbidden_origin');
      }
    });
  });
});
