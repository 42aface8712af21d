import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatewayClient, SignatureError } from '@pg-checkout/node';
import { sign, startHarness, type Harness, assertRefused } from './helpers/sandbox.js';

describe('request signatures', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('accepts GET and POST validate signed by the client', async () => {
    assert.deepEqual(await h.client.validate(), { success: true, merchant: 'Sandbox Merchant' });
    assert.equal((await h.client.validatePost({ hello: 'world' })).success, true);
  });

  it('accepts any JSON serializer output signed as sent: escaped slashes, key order, whitespace', async () => {
    for (const body of [
      '{"b":1,"a":"x\\/y"}',
      '{\n  "a" : [ 1, 2 ]\n}\n',
      '"just a string"',
      '42',
    ]) {
      const res = await h.raw('POST', '/pg/api/v2/util/validate', body);
      assert.equal(res.status, 200, body);
      assert.equal(res.json.success, true);
    }
  });

  it('accepts an upper-case hex signature', async () => {
    const url = `${h.sandbox.url}/pg/api/v2/util/validate`;
    const res = await h.raw('GET', '/pg/api/v2/util/validate', undefined, {
      signature: sign(url, undefined, h.sandbox.secret).toUpperCase(),
    });
    assert.equal(res.status, 200);
  });

  it('needs no Content-Type or Accept on GET', async () => {
    const url = `${h.sandbox.url}/pg/api/v2/util/validate`;
    const res = await fetch(url, {
      headers: {
        'x-token': h.sandbox.token,
        'x-signature': sign(url, undefined, h.sandbox.secret),
      },
    });
    assert.equal(res.status, 200);
  });

  it('covers the query string of the URL', async () => {
    const path = '/pg/api/v2/util/validate?x=1';
    assert.equal((await h.raw('GET', path)).status, 200);
    const res = await h.raw('GET', path, undefined, {
      signUrl: `${h.sandbox.url}/pg/api/v2/util/validate?x=2`,
    });
    assert.equal(res.status, 403);
  });

  it('answers 403 to a wrong secret, through the client as SignatureError', async () => {
    const wrong = new GatewayClient({
      token: h.sandbox.token,
      secret: 'not-the-secret',
      baseUrl: h.sandbox.url,
      retries: 0,
    });
    await assert.rejects(
      wrong.validate(),
      (err: unknown) => err instanceof SignatureError && err.statusCode === 403,
    );
  });

  it('answers 403 when the body was reformatted after signing', async () => {
    const res = await h.raw('POST', '/pg/api/v2/util/validate', '{ "a": 1 }', {
      signBody: '{"a":1}',
    });
    assert.equal(res.status, 403);
    assert.match(res.json.message, /X-Signature does not match/);
  });

  it('answers 403 when the signed URL is not the one used (other port, other path)', async () => {
    const other = await h.raw('GET', '/pg/api/v2/util/validate', undefined, {
      signUrl: 'http://127.0.0.1:1/pg/api/v2/util/validate',
    });
    assert.equal(other.status, 403);
    const path = await h.raw('GET', '/pg/api/v2/util/validate', undefined, {
      signUrl: `${h.sandbox.url}/pg/api/v2/payment/list`,
    });
    assert.equal(path.status, 403);
  });

  it('answers 403 to an unknown token, a missing signature and a malformed one', async () => {
    const unknown = await h.raw('GET', '/pg/api/v2/util/validate', undefined, {
      token: 'someone-else',
    });
    assert.equal(unknown.status, 403);
    assert.match(unknown.json.message, /Unknown X-Token/);
    const missing = await h.raw('GET', '/pg/api/v2/util/validate', undefined, { signature: null });
    assert.equal(missing.status, 403);
    const short = await h.raw('GET', '/pg/api/v2/util/validate', undefined, { signature: 'abc' });
    assert.equal(short.status, 403);
    assert.equal(short.json.success, false);
  });

  it('answers invalid JSON that is correctly signed with success false and fin030 (400 with failureStatus 4xx)', async () => {
    const res = await h.raw('POST', '/pg/api/v2/payment/create', '{"transaction":');
    assertRefused(res, 'fin030');
    assert.match(res.json.message, /not valid JSON/);
    const legacy = await startHarness({ failureStatus: '4xx' });
    try {
      const old = await legacy.raw('POST', '/pg/api/v2/payment/create', '{"transaction":');
      assertRefused(old, 'fin030', -1, 400);
    } finally {
      await legacy.close();
    }
  });

  it('answers JSON 404 to an unknown endpoint and 413 to a huge body', async () => {
    const unknown = await h.raw('GET', '/pg/api/v2/nothing/here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.success, false);
    const huge = await h.raw(
      'POST',
      '/pg/api/v2/util/validate',
      JSON.stringify({ a: 'x'.repeat(1_100_000) }),
    );
    assert.equal(huge.status, 413);
    assert.equal(huge.json.success, false);
  });

  it('honours custom credentials', async () => {
    const other = await startHarness({ token: 't2', secret: 's2' });
    try {
      assert.equal(other.sandbox.token, 't2');
      assert.equal((await other.client.validate()).success, true);
      assert.equal(
        (
          await other.raw('GET', '/pg/api/v2/util/validate', undefined, {
            secret: 'sandbox-secret',
          })
        ).status,
        403,
      );
    } finally {
      await other.close();
    }
  });
});
