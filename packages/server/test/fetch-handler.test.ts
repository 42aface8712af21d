import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { createCheckoutHandler, type CheckoutHandler } from '../src/index.js';
import { completeChallenge, runMethodStep } from '@pg-checkout/test-helpers/bank';
import { cardBody } from '@pg-checkout/test-helpers/cards';
import { callJson, serveHandler } from '@pg-checkout/test-helpers/fetch-server';

describe('createCheckoutHandler: the checkout as one Fetch API function', () => {
  let sandbox: Sandbox;
  let served: Awaited<ReturnType<typeof serveHandler>>;
  let base: string;
  let order = 0;
  const events: string[] = [];
  before(async () => {
    sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
    // Mounted lazily: publicUrl needs the listening port.
    let handler: CheckoutHandler = async () => new Response(null, { status: 503 });
    served = await serveHandler(() => handler);
    base = served.base;
    handler = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: `${base}/api/checkout`,
      resolveOrder: (request) => ({
        amount: 14_900,
        currency: 'ZAR',
        reference: request.headers.get('x-order') ?? `fetch-${++order}`,
      }),
      onPaymentCompleted: (event) => void events.push(`${event.orderReference} approved`),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
  });
  after(async () => {
    await served.close();
    await sandbox.close();
  });

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    callJson(base, method, path, body, headers);

  it('answers the order for display and pays a card', async () => {
    const config = await call('GET', '/api/checkout/config');
    assert.equal(config.status, 200);
    assert.equal(config.body.amount, 14_900);
    assert.equal(config.headers.get('cache-control'), 'no-store');
    const paid = await call('POST', '/api/checkout/payments', cardBody('4111111111111111'), {
      'x-order': 'fetch-card',
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.status, 'approved');
    assert.ok(events.includes('fetch-card approved'));
  });

  it('runs a 3-D Secure v2 challenge: method page, Step 2, the bank’s post, the status', async () => {
    const created = await call('POST', '/api/checkout/payments', cardBody('4000000000003063'));
    assert.equal(created.body.threeDS.step, 'method');
    await runMethodStep(created.body.threeDS.methodUrl);
    const secret = { 'x-pg-client-secret': created.body.clientSecret };
    const step2 = await call('POST', new URL(created.body.threeDS.confirmUrl).pathname, {}, secret);
    assert.equal(step2.body.threeDS.step, 'challenge', JSON.stringify(step2.body));
    const page = await completeChallenge(step2.body.threeDS, '1234');
    assert.equal(page.status, 200);
    assert.match(page.html, /3ds-complete/);
    const status = await call(
      'GET',
      `/api/checkout/payments/${created.body.reference}`,
      undefined,
      secret,
    );
    assert.equal(status.body.status, 'approved');
  });

  it('answers bad input with a clear 4xx, never a 500', async () => {
    const cases: [string, string, unknown, Record<string, string>, number, string][] = [
      ['POST', '/api/checkout/payments', '{"card":', {}, 400, 'invalid_json'],
      ['POST', '/api/checkout/payments', '"text"', {}, 400, 'invalid_json'],
      [
        'POST',
        '/api/checkout/payments',
        'a=1',
        { 'content-type': 'text/plain' },
        415,
        'unsupported_media_type',
      ],
      [
        'POST',
        '/api/checkout/payments',
        { card: 'x'.repeat(20_000) },
        {},
        413,
        'payload_too_large',
      ],
      ['POST', '/api/checkout/payments', { card: { number: 42 } }, {}, 400, 'invalid_request'],
      [
        'POST',
        '/api/checkout/payments',
        cardBody('4111111111111111'),
        { origin: 'https://evil.test' },
        403,
        'forbidden_origin',
      ],
      ['GET', '/api/checkout/payments/SB123', undefined, {}, 404, 'not_found'],
      ['GET', '/api/checkout/nope', undefined, {}, 404, 'not_found'],
      ['GET', '/elsewhere/config', undefined, {}, 404, 'not_found'],
      ['DELETE', '/api/checkout/payments', undefined, {}, 404, 'not_found'],
      [
        'POST',
        '/api/checkout/webhooks/notify',
        '{"paymentReference":"x","hash":"0"}',
        {},
        400,
        'webhook_invalid',
      ],
    ];
    for (const [method, path, body, headers, status, code] of cases) {
      const answer = await call(method, path, body, headers);
      assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, code, `${method} ${path}`);
      assert.equal(answer.body.success, false);
    }
    const page = await fetch(`${base}/api/checkout/3ds/forged/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'cres=abc',
    });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type')!, /text\/html/);
  });

  it('without a client address: 503 misconfigured, nothing sent', async () => {
    const handler = createCheckoutHandler({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: 'http://shop.test/checkout',
      allowedOrigins: ['http://shop.test'],
      resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'no-address' }),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const bare = await serveHandler(() => handler, { clientAddress: false });
    try {
      const url = `${bare.base}/checkout/payments`;
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://shop.test' },
        body: JSON.stringify(cardBody('4111111111111111')),
      });
      assert.equal(answer.status, 503);
      assert.equal(((await answer.json()) as { code: string }).code, 'misconfigured');
      const lookup = await fetch(`${sandbox.url}/_sandbox/transactions?limit=500`);
      const { transactions } = (await lookup.json()) as {
        transactions: { merchantReference: string }[];
      };
      assert.ok(!transactions.some((t) => t.merchantReference.startsWith('no-address-')));
    } finally {
      await bare.close();
    }
  });

  it('names the adapter and the setting in setup errors', () => {
    assert.throws(
      () =>
        createCheckoutHandler({
          gateway: { baseUrl: '', token: 't', secret: 's' },
          publicUrl: 'https://shop.test/checkout',
          resolveOrder: () => ({ amount: 1, currency: 'ZAR', reference: 'r' }),
        }),
      /^TypeError: createCheckoutHandler: missing base URL: `gateway\.baseUrl` is required/,
    );
  });
});
