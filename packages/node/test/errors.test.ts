import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  CardDeclinedError,
  DuplicateReferenceError,
  GatewayClient,
  GatewayConnectionError,
  GatewayError,
  GatewayTimeoutError,
  InvalidRequestError,
  RequestRejectedError,
  SignatureError,
  ThreeDSecureFailedError,
  UnexpectedResponseError,
} from '../src/index.js';
import { FakeGateway, SECRET, TOKEN, createRequest, samples } from './support/fake-gateway.js';

const gateway = new FakeGateway();
let client: GatewayClient;
const v2 = '/pg/api/v2';

before(async () => {
  await gateway.start();
  client = new GatewayClient({
    token: TOKEN,
    secret: SECRET,
    baseUrl: gateway.url,
    retries: 2,
    retryDelayMs: 1,
    timeoutMs: 2_000,
  });
});
beforeEach(() => gateway.reset());
after(() => gateway.close());

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function assertNoCardData(value: unknown): void {
  const text =
    typeof value === 'string'
      ? value
      : JSON.stringify(value) + String((value as Error)?.message ?? '');
  assert.doesNotMatch(text, /4111111111111111/);
  assert.doesNotMatch(text, /"cvv":"123"/);
}

describe('business failures are typed', () => {
  it('code -1 on a payment is CardDeclinedError with originalErrorCode', async () => {
    gateway.on('POST', `${v2}/payment/create`, { json: samples.declined });
    const err = await client.payments.create(createRequest).catch((e: unknown) => e);
    assert.ok(err instanceof CardDeclinedError);
    assert.ok(err instanceof GatewayError);
    assert.equal(err.code, -1);
    assert.equal(err.originalErrorCode, 'fin051');
    assert.equal(err.message, 'Insufficient funds');
    assert.equal(err.reference, 'PG-1');
  });
  it('code 3 is ThreeDSecureFailedError, including the V2 confirm variant with a nested error', async () => {
    gateway.on('POST', `${v2}/payment/create`, { json: samples.threeDsFailed });
    await assert.rejects(client.payments.create(createRequest), ThreeDSecureFailedError);
    gateway.on('POST', `${v2}/payment/PG-1/confirm`, {
      json: {
        success: false,
        message: 'Authentication failed',
        originalErrorCode: 'fin006',
        error: { code: 3, message: 'failed' },
      },
    });
    const err = await client.payments.confirm3dsV2('PG-1', 'cres').catch((e: unknown) => e);
    assert.ok(err instanceof ThreeDSecureFailedError);
    assert.equal(err.reference, 'PG-1');
  });
  it('code 1 with success false (v3 edit on or after the execution day) is RequestRejectedError', async () => {
    gateway.on('POST', '/pg/api/v3/payment/PG-1/edit', {
      json: {
        success: false,
        reference: 'PG-1',
        code: 1,
        message: 'Changes are not allowed on or after the execution day',
      },
    });
    const err = await client.foreign.edit('PG-1', { pax: 2 }).catch((e: unknown) => e);
    assert.ok(err instanceof RequestRejectedError);
    assert.equal(err.name, 'RequestRejectedError');
    assert.equal(err.code, 1);
    assert.match(err.message, /execution day/);
  });
  it('a refusal of the request on a card call is RequestRejectedError, never a decline', async () => {
    for (const original of ['fin030', 'fin025', 'fin058']) {
      gateway.on('POST', `${v2}/payment/create`, {
        json: { success: false, code: -1, originalErrorCode: original, message: 'Refused' },
      });
      const err = await client.payments.create(createRequest).catch((e: unknown) => e);
      assert.ok(err instanceof RequestRejectedError, original);
      assert.ok(!(err instanceof CardDeclinedError), original);
      assert.ok(!(err instanceof DuplicateReferenceError), original);
      assert.equal(err.originalErrorCode, original);
      gateway.on('POST', `${v2}/payment/PG-1/confirm`, {
        json: { success: false, code: -1, originalErrorCode: original, message: 'Refused' },
      });
      await assert.rejects(
        client.payments.confirm3dsV2('PG-1', 'junk'),
        (e: unknown) => e instanceof RequestRejectedError && !(e instanceof CardDeclinedError),
      );
    }
  });
  it('fin094 (a merchant reference used before) is DuplicateReferenceError naming the earlier payment', async () => {
    gateway.on('POST', `${v2}/payment/create`, {
      json: {
        success: false,
        code: -1,
        originalErrorCode: 'fin094',
        reference: 'PG-0',
        message: 'transaction.reference order-1001 was already used by payment PG-0',
      },
    });
    const err = await client.payments.create(createRequest).catch((e: unknown) => e);
    assert.ok(err instanceof DuplicateReferenceError);
    assert.ok(err instanceof RequestRejectedError);
    assert.ok(err instanceof GatewayError);
    assert.equal(err.name, 'DuplicateReferenceError');
    assert.equal(err.reference, 'PG-0');
  });
  it('maps by code and originalErrorCode, not by HTTP status: a 4xx carrying the envelope reads like a 200', async () => {
    const cases: [number, Record<string, unknown>, new (...a: never[]) => GatewayError][] = [
      [400, { code: -1, originalErrorCode: 'fin030' }, RequestRejectedError],
      [404, { code: -1, originalErrorCode: 'fin025' }, RequestRejectedError],
      [409, { code: -1, originalErrorCode: 'fin058' }, RequestRejectedError],
      [409, { code: -1, originalErrorCode: 'fin094' }, DuplicateReferenceError],
      [402, { code: -1, originalErrorCode: 'fin051' }, CardDeclinedError],
      [400, { code: 3, originalErrorCode: 'fin006' }, ThreeDSecureFailedError],
      [200, { code: -1, originalErrorCode: 'fin051' }, CardDeclinedError],
    ];
    for (const [status, fields, type] of cases) {
      gateway.on('POST', `${v2}/payment/create`, {
        status,
        json: { success: false, message: 'No', ...fields },
      });
      const err = await client.payments.create(createRequest).catch((e: unknown) => e);
      assert.ok(err instanceof type, `${status} ${JSON.stringify(fields)} -> ${String(err)}`);
      assert.equal((err as GatewayError).statusCode, status);
    }
  });
  it('code 3 outside card calls (v3 create without urls) is RequestRejectedError; code 19 stays GatewayError', async () => {
    const request = {
      transaction: { reference: 'trip-1', currency: 'USD', amount: 100 },
      urls: {
        success: 'https://shop.example/ok',
        cancel: 'https://shop.example/cancel',
        error: 'https://shop.example/err',
      },
    };
    gateway.on('POST', '/pg/api/v3/payment/create', {
      json: { success: false, code: 3, originalErrorCode: '', message: 'urls are required' },
    });
    const missing = await client.foreign.create(request).catch((e: unknown) => e);
    assert.ok(missing instanceof RequestRejectedError);
    assert.ok(!(missing instanceof ThreeDSecureFailedError));
    gateway.on('POST', '/pg/api/v3/payment/create', {
      status: 404,
      json: { success: false, code: 19, originalErrorCode: '', message: 'No payment page' },
    });
    const noPage = await client.foreign.create(request).catch((e: unknown) => e);
    assert.ok(noPage instanceof GatewayError && noPage.constructor === GatewayError);
    assert.equal(noPage.code, 19);
  });
  it('a 5xx is a connection failure whether or not it carries JSON (outcome unknown, never a decline)', async () => {
    for (const reply of [
      { status: 500, text: '<html>Internal Server Error</html>' },
      { status: 503, json: { success: false, code: -1, message: 'Service unavailable' } },
    ]) {
      gateway.on('POST', `${v2}/payment/create`, reply);
      const err = await client.payments.create(createRequest).catch((e: unknown) => e);
      assert.ok(err instanceof GatewayConnectionError, String(err));
      assert.equal(err.statusCode, reply.status);
      assert.match(err.message, /reconcile/);
    }
  });
  it('a refund failure other than code 7 throws', async () => {
    gateway.on('GET', `${v2}/payment/PG-1/refund`, {
      json: { success: false, code: -1, originalErrorCode: 'fin020', message: 'Nothing to refund' },
    });
    await assert.rejects(
      client.payments.refund('PG-1'),
      (e: unknown) => e instanceof GatewayError && e.code === -1,
    );
  });
  it('multiple refund without transactions answers code -1 as an error', async () => {
    gateway.on('POST', `${v2}/payment/refund/multiple`, {
      json: { success: false, code: -1, message: 'No transactions given' },
    });
    const req = {
      synchronous: true,
      transactions: [{ serviceReference: 'PG-1', currency: 'ZAR', amount: 1 }],
    };
    await assert.rejects(client.payments.refundMultiple(req), /No transactions given/);
  });
});

describe('our own bad requests are refused before sending', () => {
  it('InvalidRequestError names the field path and masks card data', async () => {
    const bad = {
      ...createRequest,
      creditCard: { ...createRequest.creditCard, cvv: 123 as unknown as string, expiryMonth: 13 },
    };
    const err = await client.payments.create(bad).catch((e: unknown) => e);
    assert.ok(err instanceof InvalidRequestError);
    assert.ok(err.issues.some((i) => i.path === 'creditCard.cvv'));
    assert.ok(err.issues.some((i) => i.path === 'creditCard.expiryMonth'));
    assert.match(err.message, /creditCard\.cvv/);
    assertNoCardData(err);
    assert.equal(gateway.requests.length, 0);
  });
  it('unknown fields and empty path parameters', async () => {
    await assert.rejects(
      client.payments.create({ ...createRequest, colour: 'red' } as never),
      /unknown field `colour`/,
    );
    await assert.rejects(client.lookups.payment(''), InvalidRequestError);
    await assert.rejects(
      client.payments.execute('PG-1', { currency: 'ZAR', amount: 1.5 }),
      /integer number of cents/,
    );
    assert.equal(gateway.requests.length, 0);
  });
});

describe('transport failures', () => {
  it('HTTP 403 is SignatureError naming the likely causes', async () => {
    const wrong = new GatewayClient({ token: TOKEN, secret: 'other-secret', baseUrl: gateway.url });
    const err = await wrong.validate().catch((e: unknown) => e);
    assert.ok(err instanceof SignatureError);
    assert.equal(err.statusCode, 403);
    assert.match(err.message, /other environment/);
    assert.match(err.message, /reformatted after signing/);
  });
  it('the 403 message names the configured environment', async () => {
    const prod = new GatewayClient({
      token: 'dev-token',
      secret: SECRET,
      environment: 'production',
      baseUrls: { production: gateway.url },
    });
    await assert.rejects(prod.validate(), /set up for the production environment/);
  });
  it('connection refused is GatewayConnectionError, after the GET retries', async () => {
    const port = await closedPort();
    const offline = new GatewayClient({
      token: TOKEN,
      secret: SECRET,
      baseUrl: `http://127.0.0.1:${port}`,
      retries: 1,
      retryDelayMs: 1,
    });
    const err = await offline.lookups.payment('PG-1').catch((e: unknown) => e);
    assert.ok(err instanceof GatewayConnectionError);
    assert.match(err.message, /ECONNREFUSED/);
    const post = await offline.payments.create(createRequest).catch((e: unknown) => e);
    assert.ok(post instanceof GatewayConnectionError);
    assert.match(post.message, /reconcile/);
  });
  it('no answer in time is GatewayTimeoutError; on a POST it says to reconcile', async () => {
    gateway.on('POST', `${v2}/payment/create`, { hang: true });
    const started = Date.now();
    const err = await client.payments
      .create(createRequest, { timeoutMs: 150 })
      .catch((e: unknown) => e);
    assert.ok(err instanceof GatewayTimeoutError);
    assert.match(err.message, /outcome is unknown: reconcile/);
    assert.ok(Date.now() - started < 1_500);
    assert.equal(gateway.requests.length, 1, 'a timed-out POST is not retried');
  });
  it('a caller abort rejects with the abort reason', async () => {
    gateway.on('GET', `${v2}/payment/PG-1`, { hang: true });
    const controller = new AbortController();
    const pending = client.lookups.payment('PG-1', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shopper left')), 50);
    await assert.rejects(pending, /shopper left/);
  });
  it('an answer that is not JSON is UnexpectedResponseError with the text masked', async () => {
    gateway.on('POST', `${v2}/payment/create`, {
      text: '{"success":true,"creditCard":{"number":"4111111111111111","cvv":"123"',
    });
    const err = await client.payments.create(createRequest).catch((e: unknown) => e);
    assert.ok(err instanceof UnexpectedResponseError);
    assert.match(err.message, /not JSON/);
    assert.equal(typeof err.raw, 'string');
    assert.match(String(err.raw), /411111XXXXXX1111/);
    assertNoCardData(err.raw);
  });
  it('an answer that breaks its schema is UnexpectedResponseError with card data masked', async () => {
    gateway.on('POST', `${v2}/payment/create`, {
      json: {
        ...samples.v1,
        threeDSecure: { acsUrl: 'https://acs', transactionId: 5, paReq: 'x' },
        echo: { number: '4111111111111111', cvv: '123' },
      },
    });
    const err = await client.payments.create(createRequest).catch((e: unknown) => e);
    assert.ok(err instanceof UnexpectedResponseError);
    assert.ok(err.issues.some((i) => i.path === 'threeDSecure.transactionId'));
    assertNoCardData(err.raw);
    assertNoCardData(JSON.stringify(err));
  });
  it('an answer without a boolean success is UnexpectedResponseError', async () => {
    gateway.on('GET', `${v2}/payment/PG-1`, { json: { ok: true } });
    await assert.rejects(client.lookups.payment('PG-1'), /no boolean `success`/);
  });
  it('code 2 without a 3D Secure object is UnexpectedResponseError', async () => {
    gateway.on('POST', `${v2}/payment/create`, {
      json: { success: true, code: 2, reference: 'PG-1' },
    });
    await assert.rejects(client.payments.create(createRequest), UnexpectedResponseError);
  });
});

describe('retries', () => {
  it('a GET lookup retries 5xx and connection resets, then succeeds', async () => {
    gateway.on('GET', `${v2}/payment/PG-1`, [
      { status: 503, text: 'busy' },
      { destroy: true },
      { json: samples.lookup },
    ]);
    const record = await client.lookups.payment('PG-1');
    assert.equal(record.reference, 'PG-1');
    assert.equal(gateway.requests.length, 3);
  });
  it('gives up after `retries` extra attempts', async () => {
    gateway.on('GET', `${v2}/payment/PG-1`, { status: 502, text: 'bad gateway' });
    const err = await client.lookups.payment('PG-1').catch((e: unknown) => e);
    assert.ok(err instanceof GatewayConnectionError);
    assert.equal(err.statusCode, 502);
    assert.equal(gateway.requests.length, 3);
  });
  it('never retries a POST that moves money', async () => {
    gateway.on('POST', `${v2}/payment/create`, [
      { status: 503, text: 'busy' },
      { json: samples.approved },
    ]);
    await assert.rejects(client.payments.create(createRequest), /HTTP 503.*reconcile/);
    assert.equal(gateway.requests.length, 1);
  });
  it('never retries the GETs that move money (execute, refund, cancel transfer)', async () => {
    gateway.on('GET', `${v2}/payment/PG-1/execute`, { status: 503, text: 'busy' });
    gateway.on('GET', `${v2}/payment/PG-1/refund`, { status: 503, text: 'busy' });
    gateway.on('GET', '/pg/api/v3/payment/PG-1/transfer/cancel', { status: 503, text: 'busy' });
    await assert.rejects(client.payments.execute('PG-1'), GatewayConnectionError);
    await assert.rejects(client.payments.refund('PG-1'), GatewayConnectionError);
    await assert.rejects(client.foreign.cancelTransfer('PG-1'), GatewayConnectionError);
    assert.equal(gateway.requests.length, 3);
    gateway.on('GET', `${v2}/payment/PG-1/execute`, { hang: true });
    await assert.rejects(
      client.payments.execute('PG-1', undefined, { timeoutMs: 100 }),
      /outcome is unknown/,
    );
  });
  it('a read that times out does not ask for reconciliation', async () => {
    gateway.on('POST', `${v2}/payment/list`, { hang: true });
    const err = await client.lookups.list({}, { timeoutMs: 100 }).catch((e: unknown) => e);
    assert.ok(err instanceof GatewayTimeoutError);
    assert.doesNotMatch(err.message, /reconcile/);
  });
  it('does not retry a business failure', async () => {
    gateway.on('GET', `${v2}/payment/PG-1`, {
      status: 404,
      json: { success: false, message: 'Not found' },
    });
    await assert.rejects(client.lookups.payment('PG-1'), /Not found/);
    assert.equal(gateway.requests.length, 1);
  });
});
