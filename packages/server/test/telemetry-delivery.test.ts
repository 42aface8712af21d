import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { createCheckoutHandler } from '../src/index.js';
import { callJson, cardBody, serveHandler } from '@pg-checkout/test-helpers/fetch-server';
import { inMemoryTelemetry, sumOf } from './helpers/telemetry.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Hook delivery as an on-call engineer reads it: a hook that threw is a failed delivery and waits
 * (the gauge), the sweep that hands it over is a span of its own, and the gauge drops back to 0.
 */
describe('telemetry: hook deliveries that wait, and the sweep that delivers them', () => {
  let sandbox: Sandbox;
  let handler: ReturnType<typeof createCheckoutHandler>;
  let served: Awaited<ReturnType<typeof serveHandler>>;
  const telemetry = inMemoryTelemetry();
  /** The shop's database: down until the test brings it back. */
  let shopDown = true;
  const taken: string[] = [];

  before(async () => {
    sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
    served = await serveHandler(() => handler);
    handler = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: () => ({ amount: 14_900, currency: 'ZAR', reference: 'tel-delivery-1' }),
      onPaymentCompleted: (event) => {
        if (shopDown) throw new Error('shop database down');
        taken.push(event.reference);
      },
      logger: quiet,
      telemetry: telemetry.options,
    });
  });
  after(async () => {
    handler.close();
    await served.close();
    await sandbox.close();
    await telemetry.shutdown();
  });

  it('a thrown hook waits (gauge 1), the sweep delivers it in a reconcile span, the gauge is back to 0', async () => {
    const paid = await callJson(
      served.base,
      'POST',
      '/api/checkout/payments',
      cardBody('4111111111111111'),
    );
    assert.equal(paid.body.status, 'approved', JSON.stringify(paid.body));

    let m = await telemetry.metrics();
    const completed = { 'pg_checkout.hook': 'payment_completed' };
    assert.equal(
      sumOf(m, 'pg_checkout.hook.deliveries', { ...completed, 'pg_checkout.outcome': 'failed' }),
      1,
    );
    assert.equal(sumOf(m, 'pg_checkout.hook.deliveries.waiting'), 1);

    shopDown = false;
    telemetry.reset();
    const summary = await handler.reconcile();
    assert.equal(summary.delivered, 1, JSON.stringify(summary));
    assert.deepEqual(taken, [paid.body.reference]);

    m = await telemetry.metrics();
    assert.equal(
      sumOf(m, 'pg_checkout.hook.deliveries', { ...completed, 'pg_checkout.outcome': 'delivered' }),
      1,
    );
    assert.equal(sumOf(m, 'pg_checkout.hook.deliveries.waiting'), 0);
    const sweep = telemetry.spans().filter((s) => s.name === 'pg_checkout.reconcile');
    assert.equal(
      sweep.length,
      1,
      telemetry
        .spans()
        .map((s) => s.name)
        .join(', '),
    );
    // The sweep's gateway lookups nest under it.
    const under = telemetry
      .spans()
      .filter((s) => s.parentSpanContext?.spanId === sweep[0]!.spanContext().spanId);
    assert.ok(under.length > 0, 'gateway calls under the reconcile span');
  });
});
