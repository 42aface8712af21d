import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metrics, trace } from '@opentelemetry/api';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { createCheckoutHandler, type CheckoutHandler } from '../src/index.js';
import { createTelemetry, NOOP_TELEMETRY } from '../src/telemetry/index.js';
import { callJson, cardBody, serveHandler } from '@pg-checkout/test-helpers/fetch-server';
import { inMemoryTelemetry, sumOf } from './helpers/telemetry.js';

// The application's own SDK, registered globally (its own process: the registration stays).
describe('telemetry: the application’s global providers', () => {
  let sandbox: Sandbox;
  let served: Awaited<ReturnType<typeof serveHandler>>;
  let handler: CheckoutHandler;
  const sdk = inMemoryTelemetry();
  before(async () => {
    sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
    served = await serveHandler(() => handler);
  });
  after(async () => {
    await served.close();
    await sandbox.close();
    await sdk.shutdown();
  });

  it('with no SDK registered, nothing records and the gateway is not wrapped', () => {
    const telemetry = createTelemetry();
    assert.equal(telemetry.recording, false);
    assert.equal(createTelemetry({ enabled: false }), NOOP_TELEMETRY);
  });

  it('an SDK registered after the checkout was built, before its first request, is used', async () => {
    handler = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: () => ({ amount: 500, currency: 'ZAR', reference: 'global-sdk' }),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    trace.setGlobalTracerProvider(sdk.options.tracerProvider);
    metrics.setGlobalMeterProvider(sdk.options.meterProvider);
    const paid = await callJson(
      served.base,
      'POST',
      '/api/checkout/payments',
      cardBody('4111111111111111'),
    );
    assert.equal(paid.body.status, 'approved');
    const names = sdk.spans().map((s) => s.name);
    assert.ok(names.includes('pg_checkout.card_payment'), names.join());
    assert.ok(names.includes('pg_checkout.gateway payments.create'), names.join());
    const span = sdk.spans().find((s) => s.name === 'pg_checkout.card_payment')!;
    assert.equal(span.instrumentationScope.name, '@pg-checkout/server');
    assert.match(span.instrumentationScope.version ?? '', /^\d+\.\d+\.\d+/);
    assert.equal(
      sumOf(await sdk.metrics(), 'pg_checkout.payment.attempts', {
        'pg_checkout.outcome': 'approved',
      }),
      1,
    );
  });
});
