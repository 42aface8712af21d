import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RedisStore } from '../../src/index.js';
import { bankPost, card, startAppOver } from '@pg-checkout/test-helpers/checkout-app';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { startRedis, type TestRedis } from '@pg-checkout/test-helpers/redis-server';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { forSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  let redis: TestRedis;
  const completed: string[] = [];
  // Hooks run in the order they are registered: Redis starts before the instances, stops after them.
  before(async () => {
    redis = await startRedis();
  });
  const gateway = new FakeGateway();
  const instance = () =>
    startApp(
      {
        onPaymentCompleted: (e: { reference: string }) => void completed.push(e.reference),
        store: new RedisStore({ client: redis.client() }),
      },
      gateway,
    );
  const one = forSuite(instance);
  const two = forSuite(instance);
  after(() => redis.stop());

  describe('two instances sharing Redis', () => {
    it('a v2 flow started on one completes through the other, confirming once under concurrent posts', async () => {
      const created = await one.call('POST', '/payments', card('4000000000003063'));
      const action = created.body.threeDS;
      const method = await fetch(action.methodUrl.replace('https://shop.test/checkout', two.url));
      assert.equal(await method.text(), action.tdsMethodContent);
      // The browser carries its secret to whichever instance answers: both hold the same key.
      const step2 = await two.call(
        'POST',
        `/payments/${created.body.reference}/3dsv2/confirm`,
        {},
        {
          secret: created.body.clientSecret,
        },
      );
      assert.equal(step2.body.threeDS.step, 'challenge');
      const callback = action.methodUrl.replace(/method$/, 'callback');
      const form = {
        cres: 'good-proof',
        threeDSSessionData: step2.body.threeDS.threeDSSessionData,
      };
      const pages = await Promise.all([
        bankPost(callback.replace('https://shop.test/checkout', one.url), form),
        bankPost(callback.replace('https://shop.test/checkout', two.url), form),
        bankPost(callback.replace('https://shop.test/checkout', two.url), form),
      ]);
      for (const page of pages) assert.equal(page.status, 200);
      assert.equal(one.gateway.calls.filter((c) => c === 'confirm3dsV2').length, 1);
      // Every "done" page, winner's or not, answers only once the payment is settled.
      const lookupsBefore = one.gateway.calls.filter((c) => c === 'lookup').length;
      const status = await one.call('GET', `/payments/${created.body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(status.body.status, 'approved');
      assert.equal(one.gateway.calls.filter((c) => c === 'lookup').length, lookupsBefore);
      assert.deepEqual(
        completed.filter((r) => r === created.body.reference),
        [created.body.reference],
      );
    });

    it('a v1 flow started on two completes through one', async () => {
      const created = await two.call('POST', '/payments', card('4000000000003097'));
      const term = created.body.threeDS.termUrl.replace('https://shop.test/checkout', one.url);
      const page = await bankPost(term, { PaRes: 'good-proof', MD: created.body.threeDS.md });
      assert.match(page.html, /3ds-complete/);
      assert.equal(
        (await two.call('GET', `/payments/${created.body.reference}`, undefined, { origin: null }))
          .body.status,
        'approved',
      );
    });
  });
});
