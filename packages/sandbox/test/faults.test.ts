import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  GatewayClient,
  GatewayConnectionError,
  GatewayError,
  GatewayTimeoutError,
  UnexpectedResponseError,
} from '@pg-checkout/node';
import { createBody, startHarness, type Harness } from './helpers/sandbox.js';

describe('fault injection', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const setFaults = (faults: Record<string, unknown>) => h.inspect('/_sandbox/faults', faults);

  async function processedAfter(
    kind: string,
    isError: (err: unknown) => boolean,
    timeoutMs = 2_000,
  ): Promise<void> {
    await setFaults({
      rate: 1,
      kinds: [kind],
      paths: ['/pg/api/v2/payment/create'],
      holdMs: 5_000,
    });
    const client = new GatewayClient({
      token: h.sandbox.token,
      secret: h.sandbox.secret,
      baseUrl: h.sandbox.url,
      timeoutMs,
      retries: 0,
    });
    const body = createBody('4111111111111111');
    try {
      await assert.rejects(client.payments.create(body as never), (err: unknown) => isError(err));
    } finally {
      await setFaults({ rate: 0 });
    }
    // The request was processed before the answer was lost: reconcile finds it, exactly once.
    const found = await h.client.reconcile(body.transaction.reference);
    assert.equal(found.found, true);
  }

  it('reset: processed, then the socket is destroyed', () =>
    processedAfter(
      'reset',
      (err) => err instanceof GatewayConnectionError || err instanceof GatewayError,
    ));

  it('malformed: processed, then truncated JSON', () =>
    processedAfter('malformed', (err) => err instanceof UnexpectedResponseError));

  it('timeout: processed, the answer held past the client timeout', () =>
    processedAfter('timeout', (err) => err instanceof GatewayTimeoutError, 300));

  it('5xx: answered 503 without processing', async () => {
    await setFaults({ rate: 1, kinds: ['5xx'] });
    const body = createBody('4111111111111111');
    try {
      const res = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(body));
      assert.equal(res.status, 503);
    } finally {
      await setFaults({ rate: 0 });
    }
    assert.equal((await h.client.reconcile(body.transaction.reference)).found, false);
  });

  it('path filters leave other endpoints alone; bad settings are refused', async () => {
    await setFaults({ rate: 1, kinds: ['5xx'], paths: ['/pg/api/v2/payment/*/execute'] });
    try {
      assert.equal((await h.client.validate()).success, true);
      const out = await h.client.payments.create(createBody('4111111111111111') as never);
      assert.equal((await h.raw('GET', `/pg/api/v2/payment/${out.reference}/execute`)).status, 503);
    } finally {
      await setFaults({ rate: 0 });
    }
    const bad = await setFaults({ rate: 2, kinds: ['nope'] });
    assert.equal(bad.status, 400);
  });

  it('can be configured at start', async () => {
    const other = await startHarness({ faults: { rate: 1, kinds: ['5xx'] } });
    try {
      assert.equal((await other.raw('GET', '/pg/api/v2/util/validate')).status, 503);
      assert.equal((await other.inspect('/_sandbox/faults')).counts['5xx'], 1);
    } finally {
      await other.close();
    }
  });
});
