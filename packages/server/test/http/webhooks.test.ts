import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { WebhookEvent } from '../../src/index.js';
import { card } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';
import {
  NOTIFY_LOOKUP_WINDOW_MS,
  NOTIFY_LOOKUPS_PER_WINDOW,
} from '../../src/use-cases/webhooks.js';

overAdapters((adapter) => {
  const SECRET = 'whsec-test';
  const md5 = (s: string) => createHash('md5').update(s).digest('hex');

  const received: WebhookEvent[] = [];
  let failNext = 0;
  const app = appForSuite(adapter, {
    webhookSecret: SECRET,
    onWebhook: async (event) => {
      if (failNext > 0) {
        failNext--;
        throw new Error('merchant database down');
      }
      received.push(event);
    },
  });

  const notify = (paymentReference: string, extra: Record<string, unknown> = {}) => ({
    success: true,
    amount: 12_345,
    currency: 'ZAR',
    paymentReference,
    merchantReference: 'order-1-abc',
    paymentDate: '2026-11-23 09:00:00',
    status: 'SETTLED',
    date: '2026-11-23T09:00:00.000Z',
    hash: md5(paymentReference + SECRET),
    bin: '411111XXXXXX1111',
    ...extra,
  });

  const post = (path: string, body: unknown) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  /** A payment the (fake) gateway really made: notifications are checked against its lookup. */
  const paid = async (): Promise<string> =>
    (await app.call('POST', '/payments', card('4111111111111111'))).body.reference as string;
  const deliveries = (reference: string) =>
    received.filter((e) => e.type === 'payment' && e.payload.paymentReference === reference).length;

  describe('webhooks', () => {
    it('a valid notification reaches the handler once, duplicates are acknowledged only', async () => {
      const w1 = await paid();
      const body = notify(w1);
      const first = await post('/webhooks/notify', body);
      assert.equal(first.status, 200);
      const again = await post('/webhooks/notify', body);
      assert.equal(again.status, 200);
      assert.deepEqual(await again.json(), { success: true, duplicate: true });
      assert.equal(deliveries(w1), 1);
      // The payload's word changes nothing: while the gateway still says SETTLED, it is the same event.
      const claimed = await post(
        '/webhooks/notify',
        notify(w1, { status: 'REFUNDED', amount: -12_345 }),
      );
      assert.deepEqual(await claimed.json(), { success: true, duplicate: true });
      assert.equal(deliveries(w1), 1);
      // Once the gateway's own record moved on, it is a new event.
      app.gateway.txns.get(w1)!.status = 'REFUNDED';
      const refunded = await post(
        '/webhooks/notify',
        notify(w1, { status: 'REFUNDED', amount: -12_345 }),
      );
      assert.equal(refunded.status, 200);
      assert.equal(deliveries(w1), 2);
    });

    /** Gateway calls a notification can cost: the lookups and the order's confirmation. */
    const lookups = () =>
      app.gateway.calls.filter((c) => c === 'lookup' || c === 'redirectLookup' || c === 'reconcile')
        .length;

    it('a replayed genuine notification costs no gateway call: 36 deliveries, one lookup', async () => {
      const w = await paid();
      const before = lookups();
      const answers = [];
      for (let i = 0; i < 36; i++) answers.push((await post('/webhooks/notify', notify(w))).status);
      assert.deepEqual(new Set(answers), new Set([200]));
      assert.equal(lookups() - before, 1, 'only the first delivery is checked with the gateway');
      assert.equal(deliveries(w), 1);
    });

    it('forgeries of one reference with a valid hash: lookups bounded per window, answered with a retry', async () => {
      const w = await paid();
      assert.equal((await post('/webhooks/notify', notify(w))).status, 200);
      const before = lookups();
      const refused: Response[] = [];
      // The hash covers only the reference: each status and amount is a payload never seen before.
      for (let i = 1; i <= 40; i++) {
        const answer = await post(
          '/webhooks/notify',
          notify(w, { status: 'REFUNDED', amount: -i }),
        );
        if (answer.status !== 200) refused.push(answer);
      }
      assert.ok(
        lookups() - before < NOTIFY_LOOKUPS_PER_WINDOW,
        `at most ${NOTIFY_LOOKUPS_PER_WINDOW} lookups a window, got ${lookups() - before}`,
      );
      assert.equal(refused.length, 40 - (NOTIFY_LOOKUPS_PER_WINDOW - 1));
      for (const answer of refused) {
        // Not 2xx: were one of them genuine, the gateway would send it again (20 times, three days).
        assert.equal(answer.status, 429);
        assert.equal(answer.headers.get('retry-after'), String(NOTIFY_LOOKUP_WINDOW_MS / 1000));
        assert.equal(((await answer.json()) as { code: string }).code, 'rate_limited');
      }
      // The genuine notification, replayed past the bound, is still answered as handled, for free.
      const calls = lookups();
      const replay = await post('/webhooks/notify', notify(w));
      assert.deepEqual(await replay.json(), { success: true, duplicate: true });
      assert.equal(lookups(), calls);
      assert.equal(deliveries(w), 1);
    });

    it('forged, unsigned and malformed calls get 4xx and never reach merchant code', async () => {
      const before = received.length;
      for (const body of [
        notify('pg-w2', { hash: md5('pg-w2' + 'wrong') }),
        notify('pg-w2', { hash: undefined }),
        '{"paymentReference":',
        '[]',
        notify('', { hash: md5(SECRET) }),
      ]) {
        const response = await post('/webhooks/notify', body);
        assert.ok(response.status === 400 || response.status === 401, String(response.status));
        assert.equal(((await response.json()) as { code: string }).code, 'webhook_invalid');
      }
      assert.equal(received.length, before);
    });

    it('a handler that throws answers 5xx, and the retry gets another chance', async () => {
      failNext = 1;
      const w3 = await paid();
      const body = notify(w3);
      const failed = await post('/webhooks/notify', body);
      assert.equal(failed.status, 500);
      assert.equal(deliveries(w3), 0);
      const retried = await post('/webhooks/notify', body);
      assert.equal(retried.status, 200);
      assert.equal(deliveries(w3), 1);
    });

    it('payout webhooks are verified on payoutId', async () => {
      const payout = {
        payoutDate: '2026-11-23 09:00:00',
        totalAmount: 1000,
        totalFees: 100,
        netTotal: 900,
        payoutId: 77,
        currency: 'ZAR',
        hash: md5('77' + SECRET),
        merchantName: 'Shop',
        merchantId: 5,
        channelId: 1,
        transactions: [],
      };
      assert.equal((await post('/webhooks/payout', payout)).status, 200);
      assert.equal(
        (await post('/webhooks/payout', { ...payout, hash: md5('78' + SECRET) })).status,
        401,
      );
      assert.equal(received.filter((e) => e.type === 'payout').length, 1);
    });

    it('a notification settles our record from a gateway lookup, not from the payload', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003097'));
      const reference = created.body.reference;
      assert.equal((await post('/webhooks/notify', notify(reference))).status, 200);
      const unchanged = app.gateway.calls.filter((c) => c === 'lookup').length;
      assert.ok(unchanged > 0);
      assert.equal(
        (await app.call('GET', `/payments/${reference}`, undefined, { origin: null })).body.status,
        'authenticating',
      );
      app.gateway.txns.get(reference)!.status = 'SETTLED';
      assert.equal(
        (await post('/webhooks/notify', notify(reference, { amount: 12_346 }))).status,
        200,
      );
      const status = await app.call('GET', `/payments/${reference}`, undefined, { origin: null });
      assert.equal(status.body.status, 'approved');
    });
  });

  describe('the order a payment webhook belongs to', () => {
    it('event.orderReference is the order, confirmed with the gateway, never the payload’s word alone', async () => {
      const pay = async (order: string) =>
        (
          await app.call('POST', '/payments', card('4111111111111111'), {
            headers: { 'x-test-order': order },
          })
        ).body.reference as string;
      const orderOf = async (reference: string, merchantReference: string) => {
        const before = received.length;
        const answer = await post('/webhooks/notify', notify(reference, { merchantReference }));
        assert.equal(answer.status, 200);
        const event = received[before];
        assert.equal(event?.type, 'payment');
        return (event as Extract<WebhookEvent, { type: 'payment' }>).orderReference;
      };
      assert.equal(await orderOf(await pay('wh-order-9'), 'wh-order-9-1'), 'wh-order-9');
      // The hash covers only the payment reference: a payload naming another order is not believed.
      assert.equal(
        await orderOf(await pay('wh-order-10'), 'someone-else-1'),
        undefined,
        'the gateway does not know this payment under that merchant reference',
      );
    });
  });
});
