import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { createCheckoutHandler, type CheckoutHandler } from '../src/index.js';
import { completeChallenge, runMethodStep } from '@pg-checkout/test-helpers/bank';
import { callJson, cardBody, serveHandler } from '@pg-checkout/test-helpers/fetch-server';
import { holdClock } from '@pg-checkout/test-helpers/clock';
import { inMemoryTelemetry, sumOf } from './helpers/telemetry.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const CVV = '987';

/** A free loopback port with nothing listening on it: a gateway that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = byName(spans, name);
  assert.equal(found.length, 1, `one ${name} in ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
/** The gateway client spans under a use case span. */
const gatewayCalls = (spans: ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((s) => s.kind === SpanKind.CLIENT && parentOf(s) === parent.spanContext().spanId);

describe('telemetry: spans and metrics through OpenTelemetry', () => {
  let sandbox: Sandbox;
  const telemetry = inMemoryTelemetry();
  let handler: CheckoutHandler;
  let served: Awaited<ReturnType<typeof serveHandler>>;
  let order = 0;
  /** Everything the tests sent that must never reach telemetry. */
  const secrets = new Set<string>();
  const failedHooks: string[] = [];

  before(async () => {
    sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
    served = await serveHandler(() => handler);
    handler = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: (request) => {
        const reference = request.headers.get('x-order') ?? `tel-order-${++order}`;
        secrets.add(reference);
        return { amount: 14_900, currency: 'ZAR', reference };
      },
      // A shop whose failure hook is broken: counted as a failed delivery.
      onPaymentFailed: (event) => {
        failedHooks.push(event.reference);
        throw new Error(`shop database down for ${event.reference}`);
      },
      onPaymentCompleted: () => undefined,
      logger: quiet,
      telemetry: telemetry.options,
    });
  });
  after(async () => {
    await served.close();
    await sandbox.close();
    await telemetry.shutdown();
  });
  beforeEach(() => telemetry.reset());

  const pay = async (number: string, headers: Record<string, string> = {}) => {
    secrets.add(number);
    const answer = await callJson(
      served.base,
      'POST',
      '/api/checkout/payments',
      cardBody(number, { cvv: CVV }),
      headers,
    );
    if (answer.body?.reference) secrets.add(answer.body.reference);
    return answer;
  };

  /** A v2 card through the method step, Step 2 and the challenge, as the browser and the bank drive it. */
  const challenge = async (number: string, otp = '1234') => {
    const created = await pay(number);
    assert.equal(created.body.threeDS.step, 'method', JSON.stringify(created.body));
    await runMethodStep(created.body.threeDS.methodUrl);
    const secret = { 'x-pg-client-secret': created.body.clientSecret };
    const step2 = await callJson(
      served.base,
      'POST',
      new URL(created.body.threeDS.confirmUrl).pathname,
      {},
      secret,
    );
    assert.equal(step2.body.threeDS.step, 'challenge', JSON.stringify(step2.body));
    const page = await completeChallenge(step2.body.threeDS, otp);
    assert.equal(page.status, 200);
    const status = await callJson(
      served.base,
      'GET',
      `/api/checkout/payments/${created.body.reference}`,
      undefined,
      secret,
    );
    return status.body;
  };

  it('a plain card: one card_payment span, the gateway calls as client spans under it', async () => {
    const answer = await pay('4111111111111111');
    assert.equal(answer.body.status, 'approved');
    const spans = telemetry.spans();
    const payment = one(spans, 'pg_checkout.card_payment');
    assert.equal(payment.kind, SpanKind.INTERNAL);
    assert.equal(parentOf(payment), undefined);
    assert.equal(payment.attributes['pg_checkout.outcome'], 'approved');
    assert.equal(payment.attributes['pg_checkout.method'], 'card');
    assert.equal(payment.attributes['pg_checkout.three_ds.version'], 'none');
    assert.equal(payment.attributes['http.response.status_code'], 200);
    assert.equal(payment.status.code, SpanStatusCode.UNSET);
    const calls = gatewayCalls(spans, payment);
    const create = calls.find((s) => s.name === 'pg_checkout.gateway payments.create');
    assert.ok(create, `a create span among ${calls.map((s) => s.name).join(', ')}`);
    assert.equal(create.attributes['pg_checkout.gateway.operation'], 'payments.create');
    assert.equal(create.status.code, SpanStatusCode.UNSET);
    // Every client span belongs to the use case: nothing loose.
    assert.equal(spans.filter((s) => s.kind === SpanKind.CLIENT).length, calls.length);
  });

  it('gateway client spans carry OpenTelemetry’s HTTP client attributes, credentials or a GatewayClient', async () => {
    const port = Number(new URL(sandbox.url).port);
    const expectHttp = (spans: ReadableSpan[], form: string) => {
      const create = one(spans, 'pg_checkout.gateway payments.create');
      assert.equal(create.attributes['server.address'], '127.0.0.1', form);
      assert.equal(create.attributes['server.port'], port, form);
      assert.equal(create.attributes['http.request.method'], 'POST', form);
      assert.equal(create.attributes['http.response.status_code'], 200, form);
      const lookup = spans.find((s) => s.name === 'pg_checkout.gateway reconcile');
      assert.ok(lookup, `${form}: the order's first lookup`);
      assert.equal(lookup.attributes['http.request.method'], 'GET', form);
      assert.equal(typeof lookup.attributes['http.response.status_code'], 'number', form);
      assert.equal(lookup.attributes['server.port'], port, form);
    };
    assert.equal((await pay('4111111111111111')).body.status, 'approved');
    expectHttp(telemetry.spans(), 'credentials');

    const own = inMemoryTelemetry();
    const previous = handler;
    handler = createCheckoutHandler({
      gateway: new GatewayClient({
        baseUrl: sandbox.url,
        token: sandbox.token,
        secret: sandbox.secret,
      }),
      webhookSecret: sandbox.secret,
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: `tel-client-${++order}` }),
      logger: quiet,
      telemetry: own.options,
    });
    try {
      assert.equal((await pay('4111111111111111')).body.status, 'approved');
    } finally {
      handler = previous;
    }
    expectHttp(own.spans(), 'a GatewayClient');
    await own.shutdown();
  });

  it('a decline is an outcome on the span, not an error', async () => {
    const answer = await pay('4000000000000002');
    assert.equal(answer.status, 402);
    const spans = telemetry.spans();
    const payment = one(spans, 'pg_checkout.card_payment');
    assert.equal(payment.attributes['pg_checkout.outcome'], 'declined');
    assert.equal(payment.attributes['pg_checkout.decline.category'], 'do_not_honour');
    assert.equal(payment.status.code, SpanStatusCode.UNSET);
    const create = one(spans, 'pg_checkout.gateway payments.create');
    assert.equal(parentOf(create), payment.spanContext().spanId);
    assert.equal(create.attributes['pg_checkout.outcome'], 'declined');
    assert.equal(create.status.code, SpanStatusCode.UNSET);
  });

  it('a v2 challenge: Step 2 and the bank’s proof are their own spans, linked to the payment’s trace', async () => {
    const final = await challenge('4000000000003063');
    assert.equal(final.status, 'approved');
    const spans = telemetry.spans();
    const payment = one(spans, 'pg_checkout.card_payment');
    assert.equal(payment.attributes['pg_checkout.outcome'], 'authenticating');
    one(spans, 'pg_checkout.three_ds_method');
    const step2 = one(spans, 'pg_checkout.step2_confirm');
    assert.ok(
      gatewayCalls(spans, step2).some(
        (s) => s.name === 'pg_checkout.gateway payments.confirmStep2',
      ),
    );
    const proof = one(spans, 'pg_checkout.three_ds_proof');
    assert.equal(proof.attributes['pg_checkout.three_ds.version'], '2');
    assert.equal(proof.attributes['pg_checkout.outcome'], 'approved');
    assert.equal(proof.attributes['pg_checkout.three_ds.flow'], 'challenge');
    assert.ok(
      gatewayCalls(spans, proof).some(
        (s) => s.name === 'pg_checkout.gateway payments.confirm3dsV2',
      ),
    );
    const origin = payment.spanContext();
    for (const later of [step2, proof]) {
      assert.notEqual(later.spanContext().traceId, origin.traceId);
      assert.ok(
        later.links.some(
          (l) => l.context.traceId === origin.traceId && l.context.spanId === origin.spanId,
        ),
        `${later.name} links to the card payment's span`,
      );
    }
    one(spans, 'pg_checkout.payment_status');
  });

  it('a webhook for a payment links to the trace where the payment began', async () => {
    const created = await pay('4000000000003055'); // a challenge at once: its record is kept
    assert.equal(created.body.status, 'authenticating', JSON.stringify(created.body));
    const reference: string = created.body.reference;
    const answer = await callJson(served.base, 'POST', '/api/checkout/webhooks/notify', {
      success: true,
      amount: 14_900,
      currency: 'ZAR',
      paymentReference: reference,
      status: 'THREE_D_SECURE',
      hash: createHash('md5')
        .update(reference + sandbox.secret)
        .digest('hex'),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const spans = telemetry.spans();
    const payment = one(spans, 'pg_checkout.card_payment');
    const webhook = one(spans, 'pg_checkout.webhook');
    assert.equal(webhook.attributes['pg_checkout.webhook.type'], 'payment');
    assert.ok(
      webhook.links.some((l) => l.context.spanId === payment.spanContext().spanId),
      'the webhook span links to the card payment span',
    );
    assert.ok(
      gatewayCalls(spans, webhook).some((s) => s.name === 'pg_checkout.gateway lookups.payment'),
    );
  });

  it('a gateway that is down: the use case and its gateway calls are errors', async () => {
    const down = inMemoryTelemetry();
    const port = await closedPort();
    const outage = createCheckoutHandler({
      gateway: { baseUrl: `http://127.0.0.1:${port}`, token: 't', secret: 's', timeoutMs: 2_000 },
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'tel-outage' }),
      logger: quiet,
      telemetry: down.options,
    });
    const previous = handler;
    handler = outage;
    let answer;
    try {
      answer = await pay('4111111111111111');
      assert.ok(answer.status >= 500, JSON.stringify(answer.body));
    } finally {
      handler = previous;
    }
    const spans = down.spans();
    const payment = one(spans, 'pg_checkout.card_payment');
    assert.equal(payment.status.code, SpanStatusCode.ERROR);
    assert.equal(payment.status.message, undefined);
    const calls = gatewayCalls(spans, payment);
    assert.ok(calls.length >= 1);
    for (const call of calls) {
      assert.equal(call.status.code, SpanStatusCode.ERROR, call.name);
      assert.equal(call.attributes['error.type'], 'outcome_unknown');
    }
    for (const call of calls) {
      // No answer came: the method and the address, no status.
      assert.equal(call.attributes['server.port'], port, call.name);
      assert.ok(call.attributes['http.request.method'], call.name);
      assert.equal(call.attributes['http.response.status_code'], undefined, call.name);
    }
    const metrics = await down.metrics();
    // The payment that ended in the outage is an attempt too, with its outcome.
    assert.equal(sumOf(metrics, 'pg_checkout.payment.attempts'), 1);
    assert.equal(
      sumOf(metrics, 'pg_checkout.payment.attempts', {
        'pg_checkout.outcome': 'error',
        'pg_checkout.method': 'card',
        'pg_checkout.failure': String(answer.body.code),
      }),
      1,
      JSON.stringify(answer.body),
    );
    const duration = metrics.find((m) => m.descriptor.name === 'pg_checkout.gateway.call.duration');
    assert.ok(duration);
    assert.equal(duration.descriptor.unit, 's');
    assert.ok(duration.dataPoints.every((p) => p.attributes['error.type'] === 'outcome_unknown'));
    await down.shutdown();
  });

  it('a setup fault (a wrong secret) is an attempt too: outcome error, failure misconfigured', async () => {
    const faulty = inMemoryTelemetry();
    const previous = handler;
    handler = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: 'not-the-secret' },
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: `tel-fault-${++order}` }),
      logger: quiet,
      telemetry: faulty.options,
    });
    try {
      const answer = await pay('4111111111111111');
      assert.equal(answer.status, 503);
      assert.equal(answer.body.code, 'misconfigured');
    } finally {
      handler = previous;
    }
    const metrics = await faulty.metrics();
    assert.equal(
      sumOf(metrics, 'pg_checkout.payment.attempts', {
        'pg_checkout.outcome': 'error',
        'pg_checkout.failure': 'misconfigured',
      }),
      1,
    );
    const call = faulty.spans().find((s) => s.kind === SpanKind.CLIENT);
    assert.equal(call?.attributes['http.response.status_code'], 403, 'the gateway’s refusal');
    await faulty.shutdown();
  });

  it('gatewaySpans auto: when fetch is traced already (undici instrumentation), no second client span', async () => {
    const listener = () => undefined;
    subscribe('undici:request:create', listener);
    try {
      await pay('5555555555554444');
    } finally {
      unsubscribe('undici:request:create', listener);
    }
    const spans = telemetry.spans();
    one(spans, 'pg_checkout.card_payment');
    assert.equal(spans.filter((s) => s.kind === SpanKind.CLIENT).length, 0);
    // The duration is still measured.
    const metrics = await telemetry.metrics();
    assert.ok(
      sumOf(metrics, 'pg_checkout.gateway.call.duration') === 0 &&
        metrics.some((m) => m.descriptor.name === 'pg_checkout.gateway.call.duration'),
    );
  });

  it('metrics after a known set of payments', async (t) => {
    // Its 13 payment starts must fall in one window of `perIp` (60 s, of the wall clock).
    holdClock(t.mock);
    const counted = inMemoryTelemetry();
    // A hook that threw is called again a second later (delivery.ts): each call is one failed delivery.
    let failedCalls = 0;
    const measured = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: (request) => ({
        amount: 14_900,
        currency: 'ZAR',
        reference: request.headers.get('x-order') ?? `tel-metric-${++order}`,
      }),
      onPaymentFailed: () => {
        failedCalls++;
        throw new Error('hook down');
      },
      onPaymentCompleted: () => undefined,
      rateLimit: { perIp: 12 },
      logger: quiet,
      telemetry: counted.options,
    });
    const previous = handler;
    handler = measured;
    try {
      for (const number of ['4111111111111111', '5555555555554444', '5471209024048015'])
        assert.equal((await pay(number)).body.status, 'approved');
      assert.equal((await pay('4000000000000002')).status, 402);
      assert.equal((await pay('4000000000009995')).status, 402);
      assert.equal((await challenge('4000000000003063')).status, 'approved');
      assert.equal((await challenge('4000000000003063', '0000')).status, 'declined');
      // 9 payment starts so far (7 creates, 2 Step 2): the 13th start of this client is refused.
      let refused = 0;
      for (let i = 0; i < 4; i++) if ((await pay('4111111111111111')).status === 429) refused++;
      assert.equal(refused, 1);
    } finally {
      handler = previous;
    }
    measured.close(); // no hook retry between the collection and the count
    const m = await counted.metrics();
    const attempts = 'pg_checkout.payment.attempts';
    assert.equal(sumOf(m, attempts, { 'pg_checkout.outcome': 'approved' }), 3 + 1 + 3);
    assert.equal(sumOf(m, attempts, { 'pg_checkout.outcome': 'declined' }), 3);
    assert.equal(
      sumOf(m, attempts, {
        'pg_checkout.outcome': 'declined',
        'pg_checkout.decline.category': 'do_not_honour',
      }),
      1,
    );
    assert.equal(
      sumOf(m, attempts, {
        'pg_checkout.outcome': 'declined',
        'pg_checkout.decline.category': 'insufficient_funds',
      }),
      1,
    );
    assert.equal(
      sumOf(m, attempts, {
        'pg_checkout.three_ds.flow': 'challenge',
        'pg_checkout.outcome': 'approved',
      }),
      1,
    );
    assert.equal(sumOf(m, 'pg_checkout.orders.paid'), 7);
    assert.equal(
      sumOf(m, 'pg_checkout.three_ds.challenges.started', { 'pg_checkout.three_ds.version': '2' }),
      2,
    );
    assert.equal(
      sumOf(m, 'pg_checkout.three_ds.challenges.completed', { 'pg_checkout.outcome': 'approved' }),
      1,
    );
    assert.equal(
      sumOf(m, 'pg_checkout.three_ds.challenges.completed', { 'pg_checkout.outcome': 'declined' }),
      1,
    );
    assert.equal(
      sumOf(m, 'pg_checkout.hook.deliveries', {
        'pg_checkout.hook': 'payment_completed',
        'pg_checkout.outcome': 'delivered',
      }),
      7,
    );
    assert.equal(
      sumOf(m, 'pg_checkout.hook.deliveries', {
        'pg_checkout.hook': 'payment_failed',
        'pg_checkout.outcome': 'failed',
      }),
      failedCalls,
    );
    assert.ok(failedCalls >= 3, `the three declines' hooks ran (${failedCalls} calls)`);
    assert.equal(
      sumOf(m, 'pg_checkout.limits.hit', {
        'pg_checkout.limit': 'pay',
        'pg_checkout.limit.scope': 'client',
      }),
      1,
    );
    const duration = m.find((x) => x.descriptor.name === 'pg_checkout.gateway.call.duration')!;
    const creates = duration.dataPoints.filter(
      (p) => p.attributes['pg_checkout.gateway.operation'] === 'payments.create',
    );
    assert.equal(
      creates.reduce((n, p) => n + (p.value as { count: number }).count, 0),
      10,
    );
    await counted.shutdown();
  });

  it('a card tester: suspected once, then refused by the declines limit', async (t) => {
    holdClock(t.mock);
    const counted = inMemoryTelemetry();
    const previous = handler;
    handler = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: `${served.base}/api/checkout`,
      resolveOrder: () => ({ amount: 14_900, currency: 'ZAR', reference: 'tel-card-tester' }),
      rateLimit: { declines: { perOrder: 2 } },
      logger: quiet,
      telemetry: counted.options,
    });
    try {
      assert.equal((await pay('4000000000000002')).status, 402);
      assert.equal((await pay('4000000000009995')).status, 402);
      const refused = await pay('4000000000000002');
      assert.equal(refused.body.code, 'too_many_declines', JSON.stringify(refused.body));
    } finally {
      handler = previous;
    }
    const m = await counted.metrics();
    assert.equal(
      sumOf(m, 'pg_checkout.card_testing.suspected', { 'pg_checkout.limit.scope': 'order' }),
      1,
    );
    assert.equal(
      sumOf(m, 'pg_checkout.limits.hit', {
        'pg_checkout.limit': 'declines',
        'pg_checkout.limit.scope': 'order',
      }),
      1,
    );
    await counted.shutdown();
  });

  it('no attribute, event, link or metric label holds a card number, CVV, client address or reference', async () => {
    await pay('4111111111111111');
    await pay('4000000000000002');
    await challenge('4000000000003063');
    const spans = telemetry.spans();
    assert.ok(spans.length > 5);
    const metrics = await telemetry.metrics();
    const texts: string[] = [];
    for (const span of spans) {
      texts.push(span.name, span.status.message ?? '');
      for (const [key, value] of Object.entries(span.attributes)) {
        // The gateway's own host (the sandbox's loopback here, like the shopper's): the merchant's setting.
        if (key === 'server.address') assert.equal(value, new URL(sandbox.url).hostname);
        else texts.push(String(value));
      }
      for (const event of span.events) {
        texts.push(event.name);
        for (const value of Object.values(event.attributes ?? {})) texts.push(String(value));
      }
      for (const link of span.links)
        for (const value of Object.values(link.attributes ?? {})) texts.push(String(value));
    }
    for (const metric of metrics)
      for (const point of metric.dataPoints)
        for (const [key, value] of Object.entries(point.attributes)) texts.push(key, String(value));
    assert.ok(secrets.size > 5);
    const forbidden = [...secrets, CVV, '127.0.0.1', '::ffff:127.0.0.1', sandbox.token];
    for (const text of texts)
      for (const secret of forbidden)
        assert.ok(!text.includes(secret), `telemetry holds ${secret}: ${text}`);
    assert.ok(failedHooks.length > 0);
  });
});
