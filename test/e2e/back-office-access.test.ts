import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  adminSession,
  backOfficePage,
  cookiesOf,
  csrfIn,
  formFields,
  type AdminSession,
} from '@pg-checkout/test-helpers/admin';
import { assertNoCardData } from '../support/card-data.js';
import { authorizedPayment, sandboxStatus } from '../support/gateway.js';
import { startShop, type Shop } from '../support/shop.js';

const PASSWORD = 'e2e back-office password';
let shop: Shop;
let admin: AdminSession;

before(async () => {
  shop = await startShop({ ADMIN_PASSWORD: PASSWORD });
  admin = await adminSession(shop);
});

after(async () => {
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], ['4111111111111111']);
  assert.ok(
    !(shop?.logs ?? []).some((l) => l.includes(PASSWORD) || l.includes('wrong-guess')),
    'no password attempt is logged',
  );
});

const form = (fields: Record<string, string>) => ({
  'content-type': 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});

function post(
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const { body, ...type } = form(fields);
  return fetch(shop.url + path, {
    method: 'POST',
    headers: { ...type, ...headers },
    body,
    redirect: 'manual',
  });
}

/** The Set-Cookie line of the named cookie, attributes included. */
function setCookieLine(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
}

describe('signing in', () => {
  test('the back office asks strangers to sign in and shows them no transaction', async () => {
    await authorizedPayment(shop, 1_000);
    const res = await fetch(`${shop.url}/admin`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/admin/login');
    const login = await fetch(`${shop.url}/admin/login`);
    assert.equal(login.status, 200);
    const html = await login.text();
    assert.match(html, /type="password"/);
    assert.doesNotMatch(html, /Transactions|AUTHORIZED|Execute/);
  });

  test('a wrong password is refused without a session', async () => {
    const res = await post('/admin/login', { password: 'wrong-guess' });
    assert.equal(res.status, 401);
    assert.equal(setCookieLine(res, 'demo_admin'), undefined);
    assert.match(await res.text(), /password is not right/i);
  });

  test('the session cookie is HttpOnly, SameSite=Strict and scoped to the back office', async () => {
    const res = await post('/admin/login', { password: PASSWORD });
    assert.equal(res.status, 303);
    const line = setCookieLine(res, 'demo_admin') ?? '';
    assert.match(line, /; HttpOnly/i);
    assert.match(line, /; SameSite=Strict/i);
    assert.match(line, /; Path=\/admin/i);
    assert.doesNotMatch(line, /; Secure/i, 'plain http from an untrusted hop is not Secure');
  });

  test('wrong passwords from one address are slowed to a stop: 429 even for the right one', async () => {
    // A different client address through the trusted (loopback) proxy, so other tests stay signed in.
    const from = { 'x-forwarded-for': '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await post('/admin/login', { password: `wrong-guess-${i}` }, from)).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    const right = await post('/admin/login', { password: PASSWORD }, from);
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) > 0, 'Retry-After says how long');
    assert.equal(setCookieLine(right, 'demo_admin'), undefined);
    // Another address is not locked out.
    const other = await post(
      '/admin/login',
      { password: PASSWORD },
      { 'x-forwarded-for': '203.0.113.78' },
    );
    assert.equal(other.status, 303);
  });

  test('wrong passwords are counted per IPv6 /64, not per address: a new address in the same network is locked out too', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const from = { 'x-forwarded-for': `2001:db8:77:1:${i.toString(16)}::${i}` };
      statuses.push((await post('/admin/login', { password: `wrong-guess-${i}` }, from)).status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    const sameNetwork = await post(
      '/admin/login',
      { password: PASSWORD },
      { 'x-forwarded-for': '2001:db8:77:1:ffff:ffff:ffff:fffe' },
    );
    assert.equal(sameNetwork.status, 429, 'any address of the /64 waits');
    const otherNetwork = await post(
      '/admin/login',
      { password: PASSWORD },
      { 'x-forwarded-for': '2001:db8:77:2::1' },
    );
    assert.equal(otherNetwork.status, 303, 'the next /64 signs in');
  });

  test('no answer of the back office is kept by the browser: Cache-Control no-store', async () => {
    const answers = [
      await fetch(`${shop.url}/admin`, { redirect: 'manual' }),
      await fetch(`${shop.url}/admin/login`),
      await fetch(`${shop.url}/admin`, { headers: { cookie: admin.cookie } }),
      await post(
        '/admin/login',
        { password: 'wrong-guess-cache' },
        { 'x-forwarded-for': '203.0.113.90' },
      ),
      await post('/admin/payments/SB1/refund', { amount: '1' }),
      await post(
        '/admin/payments/SB1/refund',
        { amount: '1', _csrf: admin.csrf },
        { cookie: admin.cookie },
      ),
    ];
    for (const res of answers) {
      assert.equal(res.headers.get('cache-control'), 'no-store', `${res.url} ${res.status}`);
      await res.arrayBuffer();
    }
  });

  test('signing out ends the session', async () => {
    const mine = await adminSession(shop);
    const out = await post('/admin/logout', { _csrf: mine.csrf }, { cookie: mine.cookie });
    assert.equal(out.status, 303);
    const after = await fetch(`${shop.url}/admin`, {
      headers: { cookie: mine.cookie },
      redirect: 'manual',
    });
    assert.equal(after.status, 303);
  });
});

describe('state-changing posts need the session and its CSRF token', () => {
  test('a cross-site form post with no credentials executes and refunds nothing', async () => {
    const reference = await authorizedPayment(shop, 2_000);
    const site = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    for (const action of ['execute', 'refund']) {
      const res = await post(`/admin/payments/${reference}/${action}`, { amount: '' }, site);
      assert.equal(res.status, 403, `${action} without a session`);
    }
    assert.equal(await sandboxStatus(shop, reference), 'AUTHORIZED');
  });

  test('signed in, a missing or wrong token is 403 and changes nothing', async () => {
    const reference = await authorizedPayment(shop, 3_000);
    const missing = await post(
      `/admin/payments/${reference}/execute`,
      {},
      { cookie: admin.cookie },
    );
    assert.equal(missing.status, 403);
    const wrong = await post(
      `/admin/payments/${reference}/execute`,
      { _csrf: admin.csrf.slice(0, -2) + 'xx' },
      { cookie: admin.cookie },
    );
    assert.equal(wrong.status, 403);
    assert.match(await wrong.text(), /reload the back office/i);
    assert.equal(await sandboxStatus(shop, reference), 'AUTHORIZED');

    // Another session's token does not fit this session.
    const other = await adminSession(shop);
    const foreign = await post(
      `/admin/payments/${reference}/execute`,
      { _csrf: other.csrf },
      { cookie: admin.cookie },
    );
    assert.equal(foreign.status, 403);
    assert.equal(await sandboxStatus(shop, reference), 'AUTHORIZED');
  });

  test('with the token, execute and a partial refund go through', async () => {
    const reference = await authorizedPayment(shop, 4_000);
    const executed = await post(
      `/admin/payments/${reference}/execute`,
      formFields(await backOfficePage(shop.url, admin), reference, 'execute'),
      { cookie: admin.cookie },
    );
    assert.equal(executed.status, 303);
    assert.equal(await sandboxStatus(shop, reference), 'SETTLED');
    const refunded = await post(
      `/admin/payments/${reference}/refund`,
      {
        ...formFields(await backOfficePage(shop.url, admin), reference, 'refund'),
        amount: '10.00',
      },
      { cookie: admin.cookie },
    );
    assert.equal(refunded.status, 303);
    const page = await (
      await fetch(`${shop.url}/admin`, { headers: { cookie: admin.cookie } })
    ).text();
    assert.match(page, new RegExp(`Refund of ${reference} done`));
    assert.equal(csrfIn(page), admin.csrf, 'the token stays for the session');
  });
});

describe('cookies over https through a trusted proxy are Secure, with the __Host- prefix', () => {
  const https = { 'x-forwarded-proto': 'https' };

  test("the shopper's session (cart) cookie", async () => {
    const secure = await fetch(`${shop.url}/`, { headers: https });
    const line = setCookieLine(secure, '__Host-demo_cart') ?? '';
    assert.match(line, /; Secure/i);
    assert.match(line, /; Path=\/(;|$)/i);
    assert.doesNotMatch(line, /; Domain=/i);
    assert.equal(setCookieLine(secure, 'demo_cart'), undefined);
    const plain = await fetch(`${shop.url}/`);
    assert.doesNotMatch(setCookieLine(plain, 'demo_cart') ?? 'missing', /; Secure/i);
    assert.equal(setCookieLine(plain, '__Host-demo_cart'), undefined);
  });

  test('the back-office session cookie', async () => {
    const res = await post('/admin/login', { password: PASSWORD }, https);
    assert.equal(res.status, 303);
    const line = setCookieLine(res, '__Host-demo_admin') ?? '';
    assert.match(line, /; Secure/i);
    assert.match(line, /; Path=\/(;|$)/i);
    assert.match(line, /; HttpOnly/i);
    assert.match(line, /; SameSite=Strict/i);
    // The cookie works over https, and only under its prefixed name.
    const cookie = line.split(';')[0]!;
    const page = await fetch(`${shop.url}/admin`, {
      headers: { ...https, cookie },
      redirect: 'manual',
    });
    assert.equal(page.status, 200);
    const unprefixed = cookie.replace('__Host-', '');
    const refused = await fetch(`${shop.url}/admin`, {
      headers: { ...https, cookie: unprefixed },
      redirect: 'manual',
    });
    assert.equal(refused.status, 303, 'an unprefixed cookie over https is no session');
  });

  test('TRUST_PROXY=off: the same header from 127.0.0.1 is not believed', async () => {
    const untrusting = await startShop({ ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'off' });
    try {
      const cart = await fetch(`${untrusting.url}/`, { headers: https });
      assert.ok(cookiesOf(cart).has('demo_cart'));
      assert.doesNotMatch(setCookieLine(cart, 'demo_cart') ?? '', /; Secure/i);
      const login = await fetch(`${untrusting.url}/admin/login`, {
        method: 'POST',
        headers: { ...https, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password: PASSWORD }),
        redirect: 'manual',
      });
      assert.equal(login.status, 303);
      assert.doesNotMatch(setCookieLine(login, 'demo_admin') ?? '', /; Secure/i);
    } finally {
      await untrusting.stop();
    }
  });
});
