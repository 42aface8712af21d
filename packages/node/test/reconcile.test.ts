import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { GatewayClient, GatewayConnectionError, GatewayTimeoutError } from '../src/index.js';
import { FakeGateway, SECRET, TOKEN, createRequest, samples } from './support/fake-gateway.js';

const gateway = new FakeGateway();
let client: GatewayClient;
const lookupPath = '/pg/api/v2/payment/lookup/merchantReference/order-1001';

before(async () => {
  await gateway.start();
  client = new GatewayClient({
    token: TOKEN,
    secret: SECRET,
    baseUrl: gateway.url,
    retries: 1,
    retryDelayMs: 1,
  });
});
beforeEach(() => gateway.reset());
after(() => gateway.close());

describe('reconcile after a timeout', () => {
  it('finds the payment the timed-out create made, so it is not paid twice', async () => {
    gateway.on('POST', '/pg/api/v2/payment/create', { hang: true });
    gateway.on('GET', lookupPath, { json: { ...samples.lookup, status: 'AUTHORIZED' } });
    await assert.rejects(
      client.payments.create(createRequest, { timeoutMs: 100 }),
      GatewayTimeoutError,
    );
    const result = await client.reconcile(createRequest.transaction.reference);
    assert.equal(result.found, true);
    if (result.found) assert.equal(result.record.status, 'AUTHORIZED');
  });
  it('reports not found when the gateway has no such reference (safe to try again)', async () => {
    gateway.on('GET', lookupPath, {
      status: 404,
      json: { success: false, message: 'Transaction not found' },
    });
    const result = await client.reconcile('order-1001');
    assert.deepEqual(result, { found: false, message: 'Transaction not found' });
  });
  it('reports not found for a refusal answered with HTTP 200 and fin025, the sandbox\'s "no such record"', async () => {
    gateway.on('GET', lookupPath, {
      json: {
        success: false,
        code: -1,
        originalErrorCode: 'fin025',
        message: 'No transaction with merchant reference order-1001',
      },
    });
    const result = await client.reconcile('order-1001');
    assert.equal(result.found, false);
  });
  it('still throws when the gateway cannot be asked (nobody knows yet)', async () => {
    gateway.on('GET', lookupPath, { status: 503, text: 'busy' });
    await assert.rejects(client.reconcile('order-1001'), GatewayConnectionError);
    assert.equal(gateway.requests.length, 2, 'the lookup is a GET and retries');
  });
});
