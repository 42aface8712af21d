import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { card, startApp, type TestApp } from './helpers/app.js';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const pinned = (order: string) => ({ headers: { 'x-test-order': order } });

describe('gateway faults on payment create', () => {
  it('processed-then-timeout is reconciled: the shopper sees approved, charged once', async () => {
    app.gateway.createFault = 'processed';
    const { status, body } = await app.call(
      'POST',
      '/payments',
      card('4111111111111111'),
      pinned('fault-a'),
    );
    assert.equal(status, 200);
    assert.equal(body.status, 'approved');
    const again = await app.call('POST', '/payments', card('4111111111111111'), pinned('fault-a'));
    assert.equal(again.body.reference, body.reference);
    assert.equal(
      app.gateway.charged().filter((t) => t.merchantReference.startsWith('fault-a-')).length,
      1,
    );
  });

  it('lost before processing: "not found" counts as unknown for the grace period, then the retry pays once', async () => {
    const graced = await startApp({ reconcileGraceMs: 400 });
    try {
      const creates = () => graced.gateway.calls.filter((c) => c === 'create').length;
      graced.gateway.createFault = 'lost';
      const first = await graced.call(
        'POST',
        '/payments',
        card('4111111111111111'),
        pinned('fault-b'),
      );
      assert.equal(first.status, 504);
      assert.equal(first.body.code, 'gateway_timeout');
      assert.match(first.body.message, /wait a moment.*not be charged twice/);
      // The gateway may still be processing the lost create: no second attempt yet.
      const early = await graced.call(
        'POST',
        '/payments',
        card('4111111111111111'),
        pinned('fault-b'),
      );
      assert.equal(early.status, 504);
      assert.equal(creates(), 1);
      await new Promise((r) => setTimeout(r, 450));
      const retry = await graced.call(
        'POST',
        '/payments',
        card('4111111111111111'),
        pinned('fault-b'),
      );
      assert.equal(retry.body.status, 'approved');
      assert.equal(creates(), 2);
      assert.equal(
        graced.gateway.charged().filter((t) => t.merchantReference.startsWith('fault-b-')).length,
        1,
      );
    } finally {
      await graced.close();
    }
  });

  it('with no grace period, a create lost before processing is reported as not charged at once', async () => {
    const eager = await startApp({ reconcileGraceMs: 0 });
    try {
      eager.gateway.createFault = 'lost';
      const first = await eager.call(
        'POST',
        '/payments',
        card('4111111111111111'),
        pinned('fault-e'),
      );
      assert.equal(first.status, 504);
      assert.match(first.body.message, /not charged/);
      const retry = await eager.call(
        'POST',
        '/payments',
        card('4111111111111111'),
        pinned('fault-e'),
      );
      assert.equal(retry.body.status, 'approved');
    } finally {
      await eager.close();
    }
  });

  it('while the outcome stays unknown, a retry does not charge again; once known it answers the result', async () => {
    app.gateway.createFault = 'processed';
    app.gateway.reconcileDown = true;
    const first = await app.call('POST', '/payments', card('4111111111111111'), pinned('fault-c'));
    assert.equal(first.status, 504);
    const creates = app.gateway.calls.filter((c) => c === 'create').length;
    const blocked = await app.call(
      'POST',
      '/payments',
      card('4111111111111111'),
      pinned('fault-c'),
    );
    assert.equal(blocked.status, 504);
    assert.equal(app.gateway.calls.filter((c) => c === 'create').length, creates);
    app.gateway.reconcileDown = false;
    const known = await app.call('POST', '/payments', card('4111111111111111'), pinned('fault-c'));
    assert.equal(known.body.status, 'approved');
    assert.equal(app.gateway.calls.filter((c) => c === 'create').length, creates);
    assert.equal(
      app.gateway.charged().filter((t) => t.merchantReference.startsWith('fault-c-')).length,
      1,
    );
  });

  it('a retry after a decline is a new gateway transaction with a new merchant reference', async () => {
    const declined = await app.call(
      'POST',
      '/payments',
      card('4000000000000002'),
      pinned('fault-d'),
    );
    assert.equal(declined.body.status, 'declined');
    const approved = await app.call(
      'POST',
      '/payments',
      card('4111111111111111'),
      pinned('fault-d'),
    );
    assert.equal(approved.body.status, 'approved');
    const refs = [...app.gateway.txns.values()]
      .filter((t) => t.merchantReference.startsWith('fault-d-'))
      .map((t) => t.merchantReference);
    assert.equal(new Set(refs).size, 2);
  });

  it('concurrent double submits of one order charge once', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        app.call('POST', '/payments', card('4111111111111111'), pinned('fault-e')),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.ok(statuses.includes(200));
    for (const a of answers)
      assert.ok(a.status === 200 || (a.status === 409 && a.body.code === 'conflict'));
    assert.equal(
      app.gateway.charged().filter((t) => t.merchantReference.startsWith('fault-e-')).length,
      1,
    );
  });
});
