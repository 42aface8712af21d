/**
 * The Express side of issue 26: the router carries `reconcile()` and `close()`, validates
 * `reconcileIntervalMs`, and runs the sweep on its own timer, so a charge whose hook never took it
 * on one instance reaches the shop through another without anyone calling reconcile().
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayClient } from '@pg-checkout/node';
import { createCheckout, MemoryStore, type PaymentEvent } from '../src/index.js';
import { startSandboxApp, type SandboxApp } from '@pg-checkout/test-helpers/sandbox-app';
import { cardBody } from '@pg-checkout/test-helpers/cards';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const CARD = cardBody('4111111111111111');

let app: SandboxApp;
let down = true;
before(async () => {
  // Instance A: its order book is down for good, so its hook never takes the charge.
  app = await startSandboxApp({
    store: new MemoryStore(),
    reconcileIntervalMs: false,
    onPaymentCompleted: () => {
      if (down) throw new Error('orders database down');
    },
  });
});
after(async () => {
  down = false;
  await app.close();
});

describe('createCheckout(): the reconciliation sweep beside the router', () => {
  it('checks reconcileIntervalMs at setup', () => {
    const base = {
      gateway: { baseUrl: 'http://127.0.0.1:1', token: 't', secret: 's' },
      publicUrl: 'http://127.0.0.1:1/checkout',
      resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'r' }),
      logger: silent,
    };
    assert.throws(
      () => createCheckout({ ...base, reconcileIntervalMs: 10 }),
      /reconcileIntervalMs/,
    );
    assert.throws(
      () => createCheckout({ ...base, reconcileIntervalMs: true as unknown as false }),
      /reconcileIntervalMs/,
    );
    const router = createCheckout({ ...base, reconcileIntervalMs: false });
    assert.equal(typeof router.reconcile, 'function');
    router.close();
  });

  it('another instance’s timer hands over a charge the first one’s hook never took', async () => {
    const paid = await app.post('/payments', CARD, { 'x-order': `timer-${process.pid}` });
    assert.equal(paid.body.status, 'approved', JSON.stringify(paid.body));
    const reference = paid.body.reference as string;
    const seen: PaymentEvent[] = [];
    // Instance B: a store of its own (the first one's is lost to it), its sweep every second.
    const b = createCheckout({
      gateway: new GatewayClient({
        baseUrl: app.sandboxUrl,
        token: 'sandbox-token',
        secret: app.secret,
      }),
      webhookSecret: app.secret,
      publicUrl: 'http://127.0.0.1:1/checkout',
      resolveOrder: () => ({ amount: 10_000, currency: 'ZAR', reference: 'none' }),
      store: new MemoryStore(),
      reconcileIntervalMs: 1_000,
      onPaymentCompleted: (event) => void seen.push(event),
      logger: silent,
    });
    try {
      const deadline = Date.now() + 10_000;
      while (!seen.some((e) => e.reference === reference) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const mine = seen.filter((e) => e.reference === reference);
      assert.equal(mine.length, 1, 'handed over by the timer, once');
      assert.equal(mine[0]!.amount, 10_000);
      assert.equal(mine[0]!.orderReference, `timer-${process.pid}`);
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(seen.filter((e) => e.reference === reference).length, 1, 'and never again');
      const swept = await b.reconcile();
      assert.equal(swept.delivered, 0, JSON.stringify(swept));
    } finally {
      b.close();
    }
  });
});
