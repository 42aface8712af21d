import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  completeChallenge,
  runMethodStep,
  sandboxAppOver,
  type SandboxApp,
} from '@pg-checkout/test-helpers/sandbox-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { cardBody } from '@pg-checkout/test-helpers/cards';

// Once, over the Fetch handler: its subject is the gateway's faults, not HTTP, and it times a window.
overAdapters((adapter) => {
  const startSandboxApp = sandboxAppOver(adapter);
  let app: SandboxApp;
  // A short client timeout against a sandbox that holds answers longer: a real "outcome unknown".
  // "Not found" after a lost create counts as unknown for 300 ms here (60 s by default).
  const GRACE_MS = 300;
  before(async () => {
    app = await startSandboxApp({ reconcileGraceMs: GRACE_MS }, 600);
  });
  after(async () => {
    await app.sandbox('/_sandbox/faults', { rate: 0 });
    await app.close();
  });

  const visa = cardBody('4111111111111111');

  /** Runs `action` while the sandbox injects `faults` into every matching call, then turns them off. */
  async function withFaults<T>(
    faults: { kinds: string[]; paths?: string[]; holdMs?: number },
    action: () => Promise<T>,
  ): Promise<T> {
    await app.sandbox('/_sandbox/faults', { rate: 1, ...faults });
    try {
      return await action();
    } finally {
      await app.sandbox('/_sandbox/faults', { rate: 0 });
    }
  }

  const faultOnce = (kind: string, order: string) =>
    withFaults({ kinds: [kind], paths: ['/pg/api/v2/payment/create'], holdMs: 1_500 }, () =>
      app.post('/payments', visa, { 'x-order': order }),
    );

  describe('gateway faults on create, through the sandbox', () => {
    for (const kind of ['timeout', 'reset', 'malformed']) {
      it(`${kind}: the payment went through; reconcile tells the shopper, a retry does not charge again`, async () => {
        const order = `fault-${kind}-${Date.now()}`;
        const first = await faultOnce(kind, order);
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.status, 'approved');
        const retry = await app.post('/payments', visa, { 'x-order': order });
        assert.equal(retry.body.reference, first.body.reference);
        const attempts = await app.attempts(order);
        assert.equal(attempts.length, 1);
        assert.equal(attempts[0].status, 'SETTLED');
      });
    }

    it('5xx: nothing was processed; the shopper waits out the grace period, then the retry charges once', async () => {
      const order = `fault-5xx-${Date.now()}`;
      const first = await faultOnce('5xx', order);
      assert.equal(first.status, 504);
      assert.equal(first.body.code, 'gateway_timeout');
      assert.equal((await app.attempts(order)).length, 0);
      // A 5xx may come from a proxy after the gateway processed the payment: not yet a new attempt.
      const early = await app.post('/payments', visa, { 'x-order': order });
      assert.equal(early.status, 504);
      assert.equal((await app.attempts(order)).length, 0);
      await new Promise((r) => setTimeout(r, GRACE_MS + 50));
      const retry = await app.post('/payments', visa, { 'x-order': order });
      assert.equal(retry.body.status, 'approved');
      const attempts = await app.attempts(order);
      assert.deepEqual(
        attempts.map((a) => a.status),
        ['SETTLED'],
      );
    });

    it('a fresh order while lookups fail: refused before anything is sent, "nothing was charged"', async () => {
      const order = `fault-fresh-${Date.now()}`;
      await withFaults({ kinds: ['reset'], holdMs: 1_500 }, async () => {
        const first = await app.post('/payments', visa, { 'x-order': order });
        assert.equal(first.status, 503);
        assert.match(first.body.message, /Nothing was charged/);
      });
      assert.deepEqual(await app.attempts(order), []);
    });

    it('lookups failing too: the outcome stays unknown and no second payment is made until it is known', async () => {
      const order = `fault-dark-${Date.now()}`;
      // An abandoned challenge first, so the order's ledger is in the store (a fresh order is read
      // from the gateway first, and with lookups failing it is refused before anything is sent).
      const abandoned = await app.post(
        '/payments',
        { ...visa, card: { ...visa.card, number: '4000000000003055' } },
        { 'x-order': order },
      );
      assert.equal(abandoned.body.status, 'authenticating');
      await withFaults({ kinds: ['reset'], holdMs: 1_500 }, async () => {
        const first = await app.post('/payments', visa, { 'x-order': order });
        assert.equal(first.status, 504);
        const blocked = await app.post('/payments', visa, { 'x-order': order });
        assert.equal(blocked.status, 504);
      });
      const known = await app.post('/payments', visa, { 'x-order': order });
      assert.equal(known.body.status, 'approved');
      assert.deepEqual(
        (await app.attempts(order))
          .map((a) => `${a.merchantReference.slice(order.length)} ${a.status}`)
          .sort(),
        ['-1 THREE_D_SECURE', '-2 SETTLED'],
      );
    });
  });

  describe('gateway faults on 3-D Secure confirm, through the sandbox', () => {
    for (const kind of ['timeout', 'reset', '5xx']) {
      it(`${kind} on the callback's confirm: the page still answers and the payment is not lost`, async () => {
        const created = await app.post('/payments', {
          ...visa,
          card: { ...visa.card, number: '4000000000003055' },
        });
        assert.equal(created.body.threeDS.step, 'challenge');
        const page = await withFaults(
          { kinds: [kind], paths: ['/pg/api/v2/payment/*/confirm'], holdMs: 1_500 },
          () => completeChallenge(created.body.threeDS, '1234'),
        );
        assert.equal(page.status, 200);
        assert.match(page.html, /3ds-complete/);
        // Processed faults are found by the lookup; a 5xx (never processed) is confirmed again from
        // the kept cres, in the background (a status read never sends anything to the gateway):
        // read it as the component does, every few hundred ms, for a few seconds.
        let status = await app.get(`/payments/${created.body.reference}`);
        for (let i = 0; i < 40 && status.body.status === 'authenticating'; i++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          status = await app.get(`/payments/${created.body.reference}`);
        }
        assert.equal(status.body.status, 'approved', JSON.stringify(status.body));
        const record = await app.record(created.body.reference);
        assert.equal(record.status, 'SETTLED');
      });
    }
  });

  describe('gateway faults on Step 2 confirm, through the sandbox', () => {
    const v2 = { ...visa, card: { ...visa.card, number: '4000000000003063' } };

    it('5xx (not processed): the component retries Step 2 and the flow goes on', async () => {
      const created = await app.post('/payments', v2);
      await runMethodStep(created.body.threeDS.methodUrl);
      const first = await withFaults({ kinds: ['5xx'], paths: ['/pg/api/v2/payment/3dsv2'] }, () =>
        app.post(created.body.threeDS.confirmUrl, {}),
      );
      assert.equal(first.status, 504);
      const retry = await app.post(created.body.threeDS.confirmUrl, {});
      assert.equal(retry.body.threeDS.step, 'challenge');
    });

    it('timeout (processed, answer lost): the retry says "not charged, try again", never a false decline', async () => {
      const created = await app.post('/payments', v2);
      await runMethodStep(created.body.threeDS.methodUrl);
      const first = await withFaults(
        { kinds: ['timeout'], paths: ['/pg/api/v2/payment/3dsv2'], holdMs: 1_500 },
        () => app.post(created.body.threeDS.confirmUrl, {}),
      );
      assert.equal(first.status, 504);
      const retry = await app.post(created.body.threeDS.confirmUrl, {});
      assert.equal(retry.status, 504);
      assert.equal(retry.body.status, 'failed');
      assert.match(retry.body.message, /not been charged/);
      assert.notEqual((await app.record(created.body.reference)).status, 'SETTLED');
    });
  });
}, 'fetch');
