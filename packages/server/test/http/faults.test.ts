import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { payCard, startAppOver, type TestApp } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  const app = appForSuite(adapter);

  /** The shopper pays the pinned order with the approving visa. */
  const payVisa = (target: TestApp, order: string) => payCard(target, '4111111111111111', order);
  /** Create calls the gateway has received. */
  const creates = (target: TestApp) => target.gateway.calls.filter((c) => c === 'create').length;
  /** Charged gateway transactions of one order. */
  const chargesOf = (target: TestApp, order: string) => target.gateway.chargesOf(order).length;

  describe('gateway faults on payment create', () => {
    it('processed-then-timeout is reconciled: the shopper sees approved, charged once', async () => {
      app.gateway.createFault = 'processed';
      const { status, body } = await payVisa(app, 'fault-a');
      assert.equal(status, 200);
      assert.equal(body.status, 'approved');
      const again = await payVisa(app, 'fault-a');
      assert.equal(again.body.reference, body.reference);
      assert.equal(chargesOf(app, 'fault-a'), 1);
    });

    it('lost before processing: "not found" counts as unknown for the grace period, then the retry pays once', async () => {
      const graced = await startApp({ reconcileGraceMs: 400 });
      try {
        graced.gateway.createFault = 'lost';
        const first = await payVisa(graced, 'fault-b');
        assert.equal(first.status, 504);
        assert.equal(first.body.code, 'gateway_timeout');
        assert.match(first.body.message, /wait a moment.*not be charged twice/);
        // The gateway may still be processing the lost create: no second attempt yet.
        const early = await payVisa(graced, 'fault-b');
        assert.equal(early.status, 504);
        assert.equal(creates(graced), 1);
        await new Promise((r) => setTimeout(r, 450));
        const retry = await payVisa(graced, 'fault-b');
        assert.equal(retry.body.status, 'approved');
        assert.equal(creates(graced), 2);
        assert.equal(chargesOf(graced, 'fault-b'), 1);
      } finally {
        await graced.close();
      }
    });

    it('with no grace period, a create lost before processing is reported as not charged at once', async () => {
      const eager = await startApp({ reconcileGraceMs: 0 });
      try {
        eager.gateway.createFault = 'lost';
        const first = await payVisa(eager, 'fault-f');
        assert.equal(first.status, 504);
        assert.match(first.body.message, /not charged/);
        const retry = await payVisa(eager, 'fault-f');
        assert.equal(retry.body.status, 'approved');
      } finally {
        await eager.close();
      }
    });

    it('while the outcome stays unknown, a retry does not charge again; once known it answers the result', async () => {
      app.gateway.createFault = 'processed';
      // Down from the moment the create reached it: the order's first lookup still went through.
      app.gateway.afterCreate = () => (app.gateway.reconcileDown = true);
      const first = await payVisa(app, 'fault-c');
      assert.equal(first.status, 504);
      const before = creates(app);
      const blocked = await payVisa(app, 'fault-c');
      assert.equal(blocked.status, 504);
      assert.equal(creates(app), before);
      app.gateway.reconcileDown = false;
      const known = await payVisa(app, 'fault-c');
      assert.equal(known.body.status, 'approved');
      assert.equal(creates(app), before);
      assert.equal(chargesOf(app, 'fault-c'), 1);
    });

    it('a retry after a decline is a new gateway transaction with a new merchant reference', async () => {
      const declined = await payCard(app, '4000000000000002', 'fault-d');
      assert.equal(declined.body.status, 'declined');
      const approved = await payVisa(app, 'fault-d');
      assert.equal(approved.body.status, 'approved');
      const refs = [...app.gateway.txns.values()]
        .filter((t) => t.merchantReference.startsWith('fault-d-'))
        .map((t) => t.merchantReference);
      assert.equal(new Set(refs).size, 2);
    });

    it('concurrent double submits of one order charge once', async () => {
      const answers = await Promise.all([1, 2, 3].map(() => payVisa(app, 'fault-e')));
      const statuses = answers.map((a) => a.status).sort();
      assert.ok(statuses.includes(200));
      for (const a of answers)
        assert.ok(a.status === 200 || (a.status === 409 && a.body.code === 'conflict'));
      assert.equal(chargesOf(app, 'fault-e'), 1);
    });
  });
});
