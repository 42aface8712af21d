import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayClient } from '@pg-checkout/node';
import type { Sandbox } from '@pg-checkout/sandbox';
import { createCheckout } from '@pg-checkout/express';
import { MemoryStore, type OrderChangedEvent } from '../../src/index.js';
import type { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import {
  bankPost,
  card,
  local,
  payCard,
  pinned,
  startAppOver,
} from '@pg-checkout/test-helpers/checkout-app';
import { holdClock } from '@pg-checkout/test-helpers/clock';
import { header, overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';
import { startTestSandbox } from '@pg-checkout/test-helpers/sandbox';

overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  type Logged = [level: string, message: string, fields: Record<string, unknown>];
  const collecting = (into: Logged[]) => ({
    info: (m: string, f?: Record<string, unknown>) => void into.push(['info', m, f ?? {}]),
    warn: (m: string, f?: Record<string, unknown>) => void into.push(['warn', m, f ?? {}]),
    error: (m: string, f?: Record<string, unknown>) => void into.push(['error', m, f ?? {}]),
  });

  describe('an order that changed after it was charged', () => {
    const amounts = new Map<string, number>();
    const changes: OrderChangedEvent[] = [];
    const app = appForSuite(adapter, {
      resolveOrder: (req) => {
        const reference = header(req, 'x-test-order')!;
        return { amount: amounts.get(reference) ?? 14_900, currency: 'ZAR', reference };
      },
      onOrderChanged: (event) => void changes.push(event),
    });

    it('paid R 149,00, then R 447,00: the next Pay is order_changed, never approved, never charged again', async () => {
      const paid = await payCard(app, '4111111111111111', 'cart-3x');
      assert.equal(paid.body.status, 'approved');
      amounts.set('cart-3x', 44_700);
      const next = await payCard(app, '4111111111111111', 'cart-3x');
      assert.equal(next.status, 409);
      assert.equal(next.body.status, 'failed');
      assert.equal(next.body.code, 'order_changed');
      assert.equal(next.body.reference, paid.body.reference);
      assert.match(next.body.message, /149\.00 ZAR/);
      assert.equal(app.gateway.charged().length, 1, 'the difference is never charged');
      // The status of the charged payment says the same, and the merchant hears of it once.
      const status = await app.call(
        'GET',
        `/payments/${paid.body.reference}`,
        undefined,
        pinned('cart-3x'),
      );
      assert.equal(status.body.code, 'order_changed');
      assert.deepEqual(
        changes.map((c) => [c.orderReference, c.charged.amount, c.order.amount]),
        [['cart-3x', 14_900, 44_700]],
      );
      // Back to what was charged: approved again, the same payment.
      amounts.set('cart-3x', 14_900);
      const again = await payCard(app, '4111111111111111', 'cart-3x');
      assert.equal(again.body.status, 'approved');
      assert.equal(again.body.reference, paid.body.reference);
    });

    it('changed while the challenge was open: the bank’s approval reads order_changed', async () => {
      const created = await payCard(app, '4000000000003055', 'cart-open');
      assert.equal(created.body.threeDS.step, 'challenge');
      const callbackUrl = String(app.gateway.lastCreate!.callbackUrl);
      amounts.set('cart-open', 44_700);
      const page = await bankPost(local(app, callbackUrl), {
        cres: 'good-proof',
        threeDSSessionData: created.body.threeDS.threeDSSessionData,
      });
      assert.equal(page.status, 200);
      const status = await app.call(
        'GET',
        `/payments/${created.body.reference}`,
        undefined,
        pinned('cart-open'),
      );
      assert.equal(status.status, 409);
      assert.equal(status.body.code, 'order_changed');
      const order = await app.call('GET', '/order', undefined, pinned('cart-open'));
      assert.equal(order.body.status, 'paid');
      assert.equal(order.body.payment.code, 'order_changed');
    });
    it('changed during the method step: Step 2’s frictionless approval reads order_changed', async () => {
      const created = await payCard(app, '4000000000003220', 'cart-step2');
      assert.equal(created.body.threeDS.step, 'method');
      amounts.set('cart-step2', 29_800);
      const step2 = await app.call(
        'POST',
        `/payments/${created.body.reference}/3dsv2/confirm`,
        {},
        pinned('cart-step2'),
      );
      assert.equal(step2.status, 409);
      assert.equal(step2.body.code, 'order_changed');
      assert.equal(changes.at(-1)?.order.amount, 29_800);
    });
  });

  describe('saved cards cannot fill the store', () => {
    it('a flood of card posts from many clients is limited; payments still work after it', async (t) => {
      holdClock(t.mock);
      let n = 0;
      const app = await startApp({
        store: new MemoryStore({ maxEntries: 300 }),
        rateLimit: {},
        // Like a shop whose hook names every visitor: each post is a "new shopper".
        savedCards: { shopperId: (req) => header(req, 'x-shopper') },
      });
      try {
        const statuses = new Map<number, number>();
        for (let i = 0; i < 400; i++) {
          n += 1;
          const answer = await app.call(
            'POST',
            '/cards',
            { card: card(`4111111111111111`).card },
            {
              headers: {
                'x-shopper': `visitor-${n}`,
                'x-forwarded-for': `10.1.${n >> 8}.${n & 255}`,
              },
            },
          );
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }
        assert.ok((statuses.get(429) ?? 0) > 300, JSON.stringify([...statuses]));
        const paid = await app.call('POST', '/payments', card('4111111111111111'), {
          headers: { 'x-forwarded-for': '10.200.0.1' },
        });
        assert.equal(paid.status, 200, JSON.stringify(paid.body));
        assert.equal(paid.body.status, 'approved');
      } finally {
        await app.close();
      }
    });
  });

  describe('limits count an IPv6 client by its /64', () => {
    it('four addresses of one home line share one budget; another line has its own', async (t) => {
      holdClock(t.mock);
      const app = await startApp({ rateLimit: { perIp: 3 } });
      try {
        const from = (ip: string) =>
          app.call('POST', '/payments', card('4111111111111111'), {
            headers: { 'x-forwarded-for': ip },
          });
        for (const host of ['1', '2', '3'])
          assert.equal((await from(`2001:db8:1:2::${host}`)).status, 200);
        const fourth = await from('2001:db8:1:2:ffff::4');
        assert.equal(fourth.status, 429);
        assert.equal(fourth.body.code, 'rate_limited');
        assert.equal((await from('2001:db8:1:3::1')).status, 200);
      } finally {
        await app.close();
      }
    });
  });

  describe('a wrong gateway base URL', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await startTestSandbox();
    });
    after(() => sandbox.close());

    it('with /pg/api in gateway.baseUrl: refused at setup, with the fix', () => {
      assert.throws(
        () =>
          createCheckout({
            gateway: { token: 't', secret: 's', baseUrl: `${sandbox.url}/pg/api` },
            publicUrl: 'https://shop.test/checkout',
            resolveOrder: () => ({ amount: 1, currency: 'ZAR', reference: 'x' }),
          }),
        /gateway\.baseUrl` must be the host only.*adds \/pg\/api/,
      );
    });

    it('a client on a URL with no such endpoint: 503 misconfigured, never card_declined', async () => {
      const logs: Logged[] = [];
      const app = await startApp(
        {
          logger: collecting(logs),
          resolveOrder: () => ({ amount: 1_000, currency: 'ZAR', reference: 'wrong-url' }),
        },
        new GatewayClient({
          token: sandbox.token,
          secret: sandbox.secret,
          baseUrl: `${sandbox.url}/pg/api`,
          retries: 0,
        }) as unknown as FakeGateway,
      );
      try {
        for (let i = 0; i < 2; i++) {
          const answer = await app.call('POST', '/payments', card('4111111111111111'));
          assert.equal(answer.status, 503);
          assert.equal(answer.body.code, 'misconfigured');
          assert.notEqual(answer.body.code, 'card_declined');
        }
        const said = logs.filter(([l, m]) => l === 'error' && /host only/.test(m));
        assert.equal(said.length, 1);
        assert.match(said[0]![1], /without \/pg\/api/);
      } finally {
        await app.close();
      }
    });
  });
});
