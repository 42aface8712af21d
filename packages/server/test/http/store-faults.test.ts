import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bankPost, local, payCard } from '@pg-checkout/test-helpers/checkout-app';
import { FlakyStore } from '@pg-checkout/test-helpers/flaky-store';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

// Issue 10, point 4: the store is a cache of the truth. It may fail or forget between any two
// lines; the shopper is told "not charged" only when that is so, and no loss charges twice.
overAdapters((adapter) => {
  const store = new FlakyStore();
  const app = appForSuite(adapter, { store });

  const chargesOf = (order: string) => app.gateway.chargesOf(order).length;
  const creates = () => app.gateway.calls.filter((c) => c === 'create').length;

  describe('store faults', () => {
    it('down before anything was sent: 503, "nothing was charged", and nothing was sent', async () => {
      store.down = true;
      try {
        const before = creates();
        const answer = await payCard(app, '4111111111111111', 'sf-1');
        assert.equal(answer.status, 503);
        assert.equal(answer.body.code, 'store_unavailable');
        assert.match(answer.body.message, /Nothing was charged/);
        assert.equal(creates(), before);
      } finally {
        store.reset();
      }
    });

    it('down while the gateway handles the create: the shopper is told what the gateway said', async () => {
      app.gateway.afterCreate = () => (store.down = true);
      try {
        const answer = await payCard(app, '4111111111111111', 'sf-2');
        assert.equal(answer.status, 200);
        assert.equal(answer.body.status, 'approved');
        assert.doesNotMatch(JSON.stringify(answer.body), /not charged/);
      } finally {
        store.reset();
      }
      // The store came back without what it missed: the retry finds the payment at the gateway.
      const retry = await payCard(app, '4111111111111111', 'sf-2');
      assert.equal(retry.body.status, 'approved');
      assert.equal(chargesOf('sf-2'), 1);
    });

    it('restarted empty after an order was paid: the resubmit answers that payment, charged once', async () => {
      const paid = await payCard(app, '4111111111111111', 'sf-3');
      assert.equal(paid.body.status, 'approved');
      store.wipe();
      const again = await payCard(app, '5555555555554444', 'sf-3');
      assert.equal(again.body.status, 'approved');
      assert.equal(again.body.reference, paid.body.reference);
      assert.equal(chargesOf('sf-3'), 1);
      // The status route needs no store to prove ownership or to answer.
      store.wipe();
      const status = await app.call('GET', `/payments/${paid.body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(status.body.status, 'approved');
    });

    it('restarted empty after a decline: the retry is attempt 2, not a duplicate of attempt 1', async () => {
      const declined = await payCard(app, '4000000000000002', 'sf-4');
      assert.equal(declined.body.status, 'declined');
      store.wipe();
      const paid = await payCard(app, '4111111111111111', 'sf-4');
      assert.equal(paid.body.status, 'approved');
      const refs = [...app.gateway.txns.values()]
        .filter((t) => t.merchantReference.startsWith('sf-4-'))
        .map((t) => t.merchantReference)
        .sort();
      assert.deepEqual(refs, ['sf-4-1', 'sf-4-2']);
    });

    it('down at the 3-D Secure callback: a readable page, the gateway still confirms, and status answers', async () => {
      const created = await payCard(app, '4000000000003097', 'sf-5');
      store.down = true;
      try {
        const page = await bankPost(local(app, created.body.threeDS.termUrl), {
          PaRes: 'good-proof',
          MD: created.body.threeDS.md,
        });
        assert.match(page.html, /<!doctype html>/);
        assert.doesNotMatch(page.html, /"success"/);
        assert.equal(app.gateway.txns.get(created.body.reference)!.status, 'SETTLED');
        const status = await app.call('GET', `/payments/${created.body.reference}`, undefined, {
          origin: null,
        });
        assert.equal(status.status, 200);
        assert.equal(status.body.status, 'approved');
      } finally {
        store.reset();
      }
    });

    it('forgot everything during a challenge: the bank’s post still confirms the right payment once', async () => {
      const created = await payCard(app, '4000000000003055', 'sf-6');
      store.wipe();
      const callback = local(app, String(app.gateway.lastCreate!.callbackUrl));
      const page = await bankPost(callback, {
        cres: 'good-proof',
        threeDSSessionData: created.body.threeDS.threeDSSessionData,
      });
      assert.equal(page.status, 200);
      assert.equal(app.gateway.txns.get(created.body.reference)!.status, 'SETTLED');
      const replay = await bankPost(callback, {
        cres: 'good-proof',
        threeDSSessionData: created.body.threeDS.threeDSSessionData,
      });
      assert.equal(replay.status, 200);
      assert.equal(chargesOf('sf-6'), 1);
    });

    it('forgot a challenge whose order another tab paid: its status says already paid, not "checking"', async () => {
      const tabA = await payCard(app, '4000000000003055', 'sf-8');
      assert.equal(tabA.body.status, 'authenticating');
      const tabB = await payCard(app, '4111111111111111', 'sf-8');
      assert.equal(tabB.body.status, 'approved');
      store.wipe();
      const status = await app.call('GET', `/payments/${tabA.body.reference}`, undefined, {
        origin: null,
      });
      assert.equal(status.status, 409);
      assert.equal(status.body.code, 'already_paid');
      assert.equal(chargesOf('sf-8'), 1);
    });

    it('a store that fails at every point of a payment never yields a 5xx that claims "not charged" after a charge', async () => {
      for (let budget = 0; budget < 12; budget++) {
        const order = `sf-7-${budget}`;
        store.failAfter(budget);
        const answer = await payCard(app, '4111111111111111', order);
        store.reset();
        const charged = chargesOf(order);
        assert.ok(charged <= 1, `budget ${budget}: charged ${charged}`);
        if (charged === 1) {
          assert.equal(
            answer.body.status,
            'approved',
            `budget ${budget}: ${JSON.stringify(answer.body)}`,
          );
        } else {
          assert.notEqual(answer.body.status, 'approved');
        }
        const retry = await payCard(app, '4111111111111111', order);
        assert.equal(retry.body.status, 'approved', `budget ${budget} retry`);
        assert.equal(chargesOf(order), 1, `budget ${budget}: one charge after the retry`);
      }
    });
  });
});
