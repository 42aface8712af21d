import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { adminSession, type AdminSession } from '@pg-checkout/test-helpers/admin';
import { assertNoCardData } from '../support/card-data.js';
import { startShop, type Shop } from '../support/shop.js';

// Bad input to the demo's own routes (pages, /api, /admin, static files) answers 4xx, never 5xx.
// The middleware's routes under /checkout are another package's and are fuzzed in its own tests.

let shop: Shop;
let admin: AdminSession;

before(async () => {
  shop = await startShop({ ADMIN_PASSWORD: 'e2e inputs password' });
  admin = await adminSession(shop);
});

after(async () => {
  await shop?.stop();
});

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer | undefined;
}

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** One raw HTTP request (no URL normalization, any header), so the fuzz sends what it says. */
function send({ method, path, headers = {}, body }: Sent): Promise<Answer> {
  const { port, hostname } = new URL(shop.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, method, path, headers, agent: false, timeout: 15_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path.slice(0, 60)} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const formType = { 'content-type': 'application/x-www-form-urlencoded' };

const brokenJson = [
  '{"quantity":',
  '{quantity: 2}',
  "{'quantity': 2}",
  '{"quantity": 2,}',
  '"2"',
  'null',
  '[]',
  '[1,2,3]',
  '{"quantity": NaN}',
  '{"quantity": 1e400}',
  '{"quantity": -1}',
  '{"quantity": 2.5}',
  '{"quantity": "2"}',
  '{"quantity": true}',
  '{"quantity": null}',
  '{"quantity": {"$gt": 0}}',
  '{"quantity": [2]}',
  '{"quantity": 99999999999999999999999}',
  '{"__proto__": {"quantity": 2}}',
  '{"constructor": {"prototype": {"quantity": 2}}}',
  '',
  '\u0000\u0001\u0002',
  '{"quantity": 2}'.repeat(200),
];

const oddHeaders: Record<string, string>[] = [
  {},
  { 'x-forwarded-for': '1'.repeat(600) },
  { 'x-forwarded-for': Array.from({ length: 60 }, (_, i) => `10.0.${i}.1`).join(', ') },
  { 'x-forwarded-for': 'not-an-ip, ::::, 999.1.1.1, <script>' },
  { 'x-forwarded-proto': 'gopher' },
  { 'x-forwarded-proto': 'https, http, https' },
  { 'x-forwarded-host': 'x'.repeat(600) },
  { cookie: `demo_cart=${'z'.repeat(4000)}; demo_admin=${'%'.repeat(300)}` },
  { cookie: 'demo_cart=00000000-0000-0000-0000-000000000000; demo_admin=;;;=;' },
  { accept: '*/*;q=abc, text/html;level=99999999999' },
  { 'accept-language': 'x'.repeat(2000) },
  { origin: 'null', referer: 'javascript:alert(1)' },
  { range: 'bytes=999999999999-1' },
  { 'if-none-match': '"'.repeat(500) },
  { 'if-modified-since': 'not a date' },
];

const pages = [
  '/',
  '/index.html',
  '/esm',
  '/esm.html',
  '/result',
  '/result.html?outcome=%E0%A4%A&reference=' + 'A'.repeat(3000),
  '/script-tag.html',
  '/test-cards',
  '/admin',
  '/admin/login',
  '/admin?notice=' + '<b>'.repeat(500),
  '/api/cart',
  '/api/payment-result',
  '/api/payment-result?reference[]=1&reference=2',
  '/shop.css',
  '/favicon.ico',
  '/elements/pg-checkout.js',
  '/assets/%',
  '/assets/..%2f..%2fpackage.json',
  '/elements/%E0%A4%A',
  '/%',
  '/%00',
  '/' + 'a'.repeat(7000),
  '/admin/' + 'b/'.repeat(2000),
  '/api/cart/' + '%41'.repeat(2000),
  '/no-such-page?x=' + '%ZZ'.repeat(100),
];

/** Runs the requests, returning every answer of 500 or above (with what was sent). */
async function fiveHundreds(requests: Sent[]): Promise<string[]> {
  const bad: string[] = [];
  for (const sent of requests) {
    const answer = await send(sent);
    if (answer.status >= 500)
      bad.push(
        `${answer.status} for ${sent.method} ${sent.path.slice(0, 80)} ${JSON.stringify(sent.headers ?? {}).slice(0, 80)} ${String(sent.body ?? '').slice(0, 60)}`,
      );
  }
  return bad;
}

describe('no 5xx from any route of the demo', () => {
  test('pages and static files with odd headers and long or broken paths', async () => {
    const requests: Sent[] = [];
    for (const path of pages)
      for (const headers of oddHeaders) requests.push({ method: 'GET', path, headers });
    for (const path of ['/', '/api/cart', '/admin', '/result']) {
      for (const method of ['POST', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'])
        requests.push({ method, path, headers: json, body: '{' });
    }
    assert.deepEqual(await fiveHundreds(requests), []);
  });

  test('PUT /api/cart: broken JSON, wrong types, huge values, odd encodings', async () => {
    const requests: Sent[] = [];
    for (const body of brokenJson) {
      for (const headers of [
        json,
        { ...json, 'x-forwarded-for': '9'.repeat(600) },
        { 'content-type': 'text/plain' },
        {},
      ])
        requests.push({ method: 'PUT', path: '/api/cart', headers, body });
    }
    requests.push(
      {
        method: 'PUT',
        path: '/api/cart',
        headers: json,
        body: JSON.stringify({ quantity: 2, pad: 'x'.repeat(5000) }),
      },
      {
        method: 'PUT',
        path: '/api/cart',
        headers: { 'content-type': 'application/json; charset=utf-16' },
        body: '{"quantity":2}',
      },
      {
        method: 'PUT',
        path: '/api/cart',
        headers: { 'content-type': 'application/json; charset=klingon' },
        body: '{"quantity":2}',
      },
      {
        method: 'PUT',
        path: '/api/cart',
        headers: { ...json, 'content-encoding': 'gzip' },
        body: 'not gzip at all',
      },
      {
        method: 'PUT',
        path: '/api/cart',
        headers: { ...json, 'content-encoding': 'x-unknown' },
        body: '{"quantity":2}',
      },
      {
        method: 'PUT',
        path: '/api/cart',
        headers: { ...json, 'transfer-encoding': 'chunked' },
        body: '{"q"',
      },
      {
        method: 'PUT',
        path: '/api/cart',
        headers: { 'content-type': 'application/json;;;=' },
        body: '{}',
      },
      { method: 'PUT', path: '/api/cart', headers: { 'content-type': '' }, body: '{}' },
      {
        method: 'PUT',
        path: '/api/cart',
        headers: json,
        body: Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
      },
    );
    assert.deepEqual(await fiveHundreds(requests), []);
  });

  test('back-office posts, signed in and not: non-form bodies, junk amounts, odd references', async () => {
    const references = ['SB1', 'A'.repeat(3000), '%ZZ', '..%2f..', '%E2%80%AE', 'x;y', ''];
    const bodies: Sent[] = [
      { method: 'POST', path: '', headers: json, body: '{"amount": "1.00"}' },
      { method: 'POST', path: '', headers: json, body: '{"amount":' },
      { method: 'POST', path: '', headers: { 'content-type': 'text/plain' }, body: 'amount=1' },
      {
        method: 'POST',
        path: '',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x--',
      },
      { method: 'POST', path: '', headers: {}, body: '' },
      { method: 'POST', path: '', headers: formType, body: 'amount=1e9&amount=2&currency[]=ZAR' },
      { method: 'POST', path: '', headers: formType, body: `amount=${'9'.repeat(3000)}` },
      { method: 'POST', path: '', headers: formType, body: `amount=${'1&'.repeat(3000)}` },
      { method: 'POST', path: '', headers: formType, body: 'amount=-5&currency=ZAR' },
      { method: 'POST', path: '', headers: formType, body: 'amount=%ZZ&currency=%00' },
      {
        method: 'POST',
        path: '',
        headers: { ...formType, 'content-encoding': 'deflate' },
        body: 'zzz',
      },
    ];
    const requests: Sent[] = [];
    for (const signedIn of [false, true]) {
      for (const reference of references) {
        for (const action of ['execute', 'refund']) {
          for (const b of bodies) {
            const csrf =
              signedIn && b.headers === formType ? `&_csrf=${encodeURIComponent(admin.csrf)}` : '';
            requests.push({
              method: 'POST',
              path: `/admin/payments/${reference}/${action}`,
              headers: {
                ...b.headers,
                ...(signedIn ? { cookie: admin.cookie, 'x-csrf-token': admin.csrf } : {}),
              },
              body: typeof b.body === 'string' ? b.body + csrf : b.body,
            });
          }
        }
      }
    }
    for (const body of [
      'password=',
      'password[]=x',
      'password=a&password=b',
      `password=${'p'.repeat(5000)}`,
      '%%%',
      '{"password":"x"}',
    ]) {
      for (const headers of [formType, json, {}])
        requests.push({
          method: 'POST',
          path: '/admin/login',
          headers: { ...headers, 'x-forwarded-for': '198.51.100.9' },
          body,
        });
    }
    requests.push({ method: 'POST', path: '/admin/logout', headers: json, body: '{' });
    assert.deepEqual(await fiveHundreds(requests), []);
  });
});

describe('bad input gets a clear 4xx', () => {
  test('PUT /api/cart with broken JSON: 400 in JSON that says the body is not JSON', async () => {
    const answer = await send({
      method: 'PUT',
      path: '/api/cart',
      headers: json,
      body: '{"quantity":',
    });
    assert.equal(answer.status, 400);
    assert.match(answer.type, /application\/json/);
    const body = JSON.parse(answer.text) as { success: boolean; message: string };
    assert.equal(body.success, false);
    assert.match(body.message, /not valid JSON/i);
  });

  test('PUT /api/cart too large: 413', async () => {
    const answer = await send({
      method: 'PUT',
      path: '/api/cart',
      headers: json,
      body: JSON.stringify({ quantity: 1, pad: 'x'.repeat(5000) }),
    });
    assert.equal(answer.status, 413);
    assert.match(JSON.parse(answer.text).message, /too large/i);
  });

  test('a signed-in refund with a non-form body: 415, asks for the form', async () => {
    const answer = await send({
      method: 'POST',
      path: '/admin/payments/SB1/refund',
      headers: { ...json, cookie: admin.cookie },
      body: '{"amount":"1.00"}',
    });
    assert.equal(answer.status, 415);
    assert.match(answer.text, /form/i);
  });
});

describe('request bodies are never logged', () => {
  test('broken JSON holding a card number, sent to /api/cart, the back office and the middleware', async () => {
    // A JSON parser's error message quotes short bodies in full, and a longer one around the fault.
    const bodies = [
      "'4111111111111111'",
      `{"number":'4111111111111111'}`,
      '{"card":{"number":"4111111111111111","cvv":"123"},"quantity":',
    ];
    const before = shop.logs.length;
    for (const body of bodies) {
      await send({ method: 'PUT', path: '/api/cart', headers: json, body });
      await send({
        method: 'PUT',
        path: '/api/cart',
        headers: { ...json, 'content-encoding': 'gzip' },
        body,
      });
      await send({ method: 'POST', path: '/admin/login', headers: json, body });
      // The middleware's routes log through the demo's logger too.
      await send({
        method: 'POST',
        path: '/checkout/payments',
        headers: { ...json, origin: shop.url },
        body,
      });
    }
    await send({
      method: 'POST',
      path: '/admin/payments/SB1/refund',
      headers: { ...formType, cookie: admin.cookie },
      body: `amount=4111111111111111&_csrf=${encodeURIComponent(admin.csrf)}`,
    });
    await send({ method: 'GET', path: '/4111111111111111?cvv=123' });
    // Give the shop's output a moment to reach the pipe.
    await new Promise((r) => setTimeout(r, 300));
    const lines = shop.logs.slice(before);
    assert.ok(!lines.some((l) => l.includes('4111111111111111')), lines.join('\n'));
    assertNoCardData(shop.logs, ['4111111111111111']);
  });
});
