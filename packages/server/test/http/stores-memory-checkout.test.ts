import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../src/index.js';
import { bankAnswer, runMethodStep } from '@pg-checkout/test-helpers/sandbox-app';
import { readPayment } from './helpers/checkout-flows.js';
import { sandboxShop, UNDER_LOAD } from './helpers/sandbox-shop.js';
import { assertPaidOnce, payAndAudit } from './helpers/paid-once.js';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { cardBody } from '@pg-checkout/test-helpers/cards';

// Small enough that a second of payments fills it; headroom for the 10 payments in flight.
overAdapters((adapter) => {
  const store = new MemoryStore({ maxEntries: 40, headroom: 30 });
  // An approved frictionless payment leaves no record or ledger behind (the gateway's lookup has
  // it); the shop's onPaymentCompleted hook's once-only claim is what each one keeps, so the load
  // fills the store.
  const shop = sandboxShop({ adapters: [adapter], store: () => store });

  describe('a full MemoryStore behind the middleware', UNDER_LOAD, () => {
    it('refuses new payments with an honest 503 and still completes the ones under way', async () => {
      // A v2 challenge opened while there is room, finished once the store is full.
      const app = shop.apps[0]!;
      const created = await app.post('/payments', cardBody('4000000000003063'), {
        'x-order': `full-v2-${Date.now()}`,
      });
      const { reference, clientSecret, threeDS } = created.body;
      assert.equal(threeDS.step, 'method');
      await runMethodStep(threeDS.methodUrl);
      const step2 = await app.post(threeDS.confirmUrl, {}, { 'x-pg-client-secret': clientSecret });
      assert.equal(step2.body.threeDS.step, 'challenge');

      let full: () => void;
      const filled = new Promise<void>((r) => (full = r));
      const watch = setInterval(() => store.size >= 40 && full(), 20);
      const report = await payAndAudit(shop, {
        connections: 10,
        // Keep paying for half a second after the store first filled, so refusals happen.
        stop: filled.then(() => new Promise((r) => setTimeout(r, 500))),
        prefix: `full-${Date.now()}`,
      });
      clearInterval(watch);
      assert.ok((report.answers['503 service_busy'] ?? 0) > 0, JSON.stringify(report.answers));
      assertPaidOnce(report, {
        paid: 5,
        answers: /^(200 approved|503 service_busy)$/,
        settled: false,
      });

      // The load's order locks are released by now; fill their room so the bank posts into a full store.
      for (let i = 0; store.size < 40; i++) await store.set(`filler:${i}`, '1', 60_000);
      assert.ok(store.size >= 40, 'full again');
      const hop = await bankAnswer(step2.body.threeDS, '1234');
      const page = await fetch(hop.action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(hop.fields).toString(),
      });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /3ds-complete/);
      assert.equal((await readPayment(app, reference, clientSecret)).body.status, 'approved');
      assert.equal((await app.record(reference)).status, 'SETTLED');
    });
  });
}, 'fetch');
