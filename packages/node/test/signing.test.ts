// Known answers computed once, outside our code, with:
//   printf '%s' "$DATA" | openssl dgst -sha256 -hmac "$SECRET"
// where DATA is the URL, for POST followed by "\n" and the body, trimmed (see fixtures/signatures.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { GatewayClient, InvalidRequestError, serializeBody, signRequest } from '../src/index.js';
import { FakeGateway, SECRET, TOKEN } from './support/fake-gateway.js';

interface Vector {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  secret: string;
  signature: string;
}
const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/signatures.json', import.meta.url), 'utf8'),
) as Vector[];

describe('signRequest known answers (openssl)', () => {
  for (const v of vectors) {
    it(v.name, async () => {
      const signature = await signRequest(v.url, v.body, v.secret);
      assert.equal(signature, v.signature);
      assert.match(signature, /^[0-9a-f]{64}$/);
    });
  }

  it('covers the vectors the spec asks for', () => {
    assert.ok(vectors.some((v) => v.method === 'GET'));
    assert.ok(
      vectors.some(
        (v) => v.method === 'POST' && [...(v.body ?? '')].some((ch) => ch.charCodeAt(0) > 127),
      ),
    );
    assert.ok(vectors.some((v) => v.method === 'POST' && (v.body ?? '').includes('\\/')));
  });

  it('a different secret, URL or body gives a different signature', async () => {
    const v = vectors.find((x) => x.method === 'POST')!;
    assert.notEqual(await signRequest(v.url, v.body, 'other'), v.signature);
    assert.notEqual(await signRequest(`${v.url}?x=1`, v.body, v.secret), v.signature);
    assert.notEqual(
      await signRequest(v.url, `${v.body} `.replace('{', '{ '), v.secret),
      v.signature,
    );
  });

  it('refuses a relative URL or an empty secret', () => {
    assert.throws(() => signRequest('/pg/api/v2/util/validate', undefined, 's'), /absolute/);
    assert.throws(() => signRequest('http://x/pg', undefined, ''), /secret/);
  });

  it('serializeBody is compact and refuses what JSON cannot carry', () => {
    assert.equal(serializeBody({ a: 1, b: 'x / y' }), '{"a":1,"b":"x / y"}');
    assert.throws(() => serializeBody(undefined), InvalidRequestError);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    assert.throws(() => serializeBody(loop), InvalidRequestError);
  });
});

describe('the signed body is the body sent', () => {
  const gateway = new FakeGateway();
  let client: GatewayClient;
  before(async () => {
    await gateway.start();
    client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
    gateway.on('POST', '/pg/api/v2/util/validate', { json: { success: true, merchant: 'Shop' } });
    gateway.on('GET', '/pg/api/v2/util/validate', { json: { success: true, merchant: 'Shop' } });
  });
  after(() => gateway.close());

  it('GET validate passes the server-side signature check', async () => {
    assert.equal((await client.validate()).merchant, 'Shop');
    const r = gateway.requests.at(-1)!;
    assert.equal(r.headers['x-token'], TOKEN);
    assert.match(String(r.headers['x-signature']), /^[0-9a-f]{64}$/);
  });

  for (const v of vectors.filter((x) => x.method === 'POST')) {
    it(`POST validate sends exactly the signed string: ${v.name}`, async () => {
      await client.validatePost(v.body!);
      const r = gateway.requests.at(-1)!;
      assert.equal(r.body, v.body);
      assert.equal(
        r.headers['x-signature'],
        await signRequest(`${gateway.url}/pg/api/v2/util/validate`, v.body, SECRET),
      );
    });
  }

  it('an object body is serialized once, compactly', async () => {
    await client.validatePost({ note: 'Zoë', url: 'https://shop.example/a' });
    assert.equal(gateway.requests.at(-1)!.body, '{"note":"Zoë","url":"https://shop.example/a"}');
  });

  it('a body string that is not JSON is refused before sending', async () => {
    const before = gateway.requests.length;
    await assert.rejects(client.validatePost('{nope'), InvalidRequestError);
    assert.equal(gateway.requests.length, before);
  });

  it('sends X-Forwarded-For only when asked', async () => {
    await client.validate({ forwardedFor: '198.51.100.9' });
    assert.equal(gateway.requests.at(-1)!.headers['x-forwarded-for'], '198.51.100.9');
    await client.validate();
    assert.equal(gateway.requests.at(-1)!.headers['x-forwarded-for'], undefined);
    await assert.rejects(
      client.validate({ forwardedFor: '1.2.3.4\r\nX-Evil: 1' }),
      InvalidRequestError,
    );
  });
});
