/**
 * A card payment with no script, as plain HTTP (docs/contracts.md, issue 36): the shop's page gets a form
 * token from `checkout.formToken(req, res)`, the form posts to `{mount}/form/pay`, and every answer is a
 * page or a 303. The bank's steps are the sandbox's, as in the JSON flows.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { createCheckout, type CheckoutRouter } from '@pg-checkout/express';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { formNotice } from '../../src/index.js';

// The sandbox's answers are read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SUCCESS = '/result?outcome=success';

let sandbox: Sandbox;
let server: Server;
let checkout: CheckoutRouter;
let origin: string;
let orders = 0;

before(async () => {
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const app = express();
  const mounted: { router?: CheckoutRouter } = {};
  app.use('/checkout', (req, res, next) => mounted.router!(req, res, next));
  // The shop's checkout page: where the form's token and cookie come from.
  app.get('/pay', async (req, res) => {
    res.json(await mounted.router!.formToken(req, res));
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  checkout = createCheckout({
    gateway: new GatewayClient({
      baseUrl: sandbox.url,
      token: sandbox.token,
      secret: sandbox.secret,
    }),
    webhookSecret: sandbox.secret,
    publicUrl: `${origin}/checkout`,
    rateLimit: false,
    reconcileIntervalMs: false,
    redirectUrls: {
      success: `${origin}${SUCCESS}`,
      cancel: `${origin}/result?outcome=cancel`,
      error: `${origin}/result?outcome=error`,
    },
    // A form post sets no header of ours: the test names its order in one, as a session would.
    resolveOrder: (req) => ({
      amount: 14_900,
      currency: 'ZAR',
      reference: String((req as express.Request).headers['x-order'] ?? 'order-preview'),
    }),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  mounted.router = checkout;
});

after(async () => {
  checkout.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await sandbox.close();
});

/** One shopper's browser: its cookie and the token its checkout page was rendered with. */
async function browser(): Promise<{ cookie: string; token: string; action: string }> {
  const page = await fetch(`${origin}/pay`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const { token, action, field } = (await page.json()) as Answer;
  assert.equal(field, 'pg_form');
  return { cookie, token, action };
}

const card = (number: string) => ({
  number: number.replace(/(\d{4})(?=\d)/g, '$1 '),
  holder: 'Thandi Nkosi',
  expiry: '12/30',
  cvv: number.startsWith('3') && number.length === 15 ? '1234' : '123',
});

async function postForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...FORM, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The shopper presses Pay on the form (`order` names the session's order). */
async function pay(
  who: { cookie: string; token: string; action: string },
  number: string,
  order: string,
  extra: { token?: string | undefined; origin?: string } = {},
): Promise<Response> {
  const fields: Record<string, string> = { ...card(number) };
  const token = 'token' in extra ? extra.token : who.token;
  if (token !== undefined) fields.pg_form = token;
  return postForm(who.action, fields, {
    origin: extra.origin ?? origin,
    referer: `${origin}/checkout-page?step=pay`,
    cookie: who.cookie,
    'x-order': order,
  });
}

const attempts = async (order: string): Promise<Answer[]> => {
  const list = (await (
    await fetch(`${sandbox.url}/_sandbox/transactions?limit=500`)
  ).json()) as Answer;
  return list.transactions.filter((t: Answer) =>
    String(t.merchantReference).startsWith(`${order}-`),
  );
};

const unescape = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields and action of the page's "Continue to your bank" form. */
function bankForm(html: string): { action: string; fields: Record<string, string> } {
  assert.match(html, /<button type="submit">Continue to your bank<\/button>/);
  const action = unescape(/<form method="post" action="([^"]+)"/.exec(html)![1]!);
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1]!] = unescape(m[2]!);
  return { action, fields };
}

/** The shopper at the bank's page: the code, and the bank's post back (cross-site: no cookie of ours). */
async function atTheBank(
  form: { action: string; fields: Record<string, string> },
  otp: string,
): Promise<Response> {
  await (await postForm(form.action, form.fields)).arrayBuffer();
  const v1 = 'PaReq' in form.fields;
  const hop = (await (
    await fetch(`${form.action}/answer`, {
      method: 'POST',
      headers: { ...FORM, accept: 'application/json' },
      body: new URLSearchParams(
        v1
          ? { MD: form.fields.MD!, TermUrl: form.fields.TermUrl!, otp, action: 'submit' }
          : {
              acsTransID: JSON.parse(Buffer.from(form.fields.creq!, 'base64url').toString() || '{}')
                .acsTransID as string,
              threeDSSessionData: form.fields.threeDSSessionData!,
              otp,
              action: 'submit',
            },
      ).toString(),
    })
  ).json()) as { action: string; fields: Record<string, string> };
  return postForm(hop.action, hop.fields);
}

describe('a card payment with no script', () => {
  test('approved: 303 to the shop’s result page, one charge', async () => {
    const order = `form-${++orders}`;
    const res = await pay(await browser(), '4111111111111111', order);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${origin}${SUCCESS}`);
    const made = await attempts(order);
    assert.equal(made.length, 1);
    assert.equal(made[0].amount, 14_900);
  });

  test('declined: back to the form with the reason’s code; its sentence is fixed', async () => {
    const order = `form-${++orders}`;
    const res = await pay(await browser(), '4000000000000002', order);
    assert.equal(res.status, 303);
    const back = new URL(res.headers.get('location')!);
    assert.equal(back.pathname, '/checkout-page');
    assert.equal(back.searchParams.get('step'), 'pay');
    assert.equal(back.searchParams.get('pg_declined'), 'card_declined');
    assert.match(formNotice('card_declined')!, /declined and nothing was charged/);
    assert.doesNotMatch(formNotice('<b>free money</b>')!, /free money/);
  });

  test('3-D Secure v2: the method content as returned, a refresh to Step 2, the bank behind a button, back to the result', async () => {
    const order = `form-${++orders}`;
    const who = await browser();
    const res = await pay(who, '4000000000003063', order);
    assert.equal(res.status, 200);
    const html = await res.text();
    const srcdoc = unescape(/<iframe[^>]* srcdoc="([^"]*)"/.exec(html)![1]!);
    const next = unescape(/<meta http-equiv="refresh" content="3;url=([^"]+)">/.exec(html)![1]!);
    // The gateway's tdsMethodContent, as the method route serves it to the drop-in's frame.
    const session = /\/form\/([^/]+)\/continue$/.exec(next)![1]!;
    const method = await (await fetch(`${origin}/checkout/3ds/${session}/method`)).text();
    assert.match(srcdoc, /<form/);
    assert.equal(srcdoc, method, 'the iframe holds tdsMethodContent byte for byte');
    assert.doesNotMatch(html.replace(srcdoc, ''), /<script/, 'the page itself runs no script');
    assert.match(res.headers.get('content-security-policy')!, /script-src 'sha256-/);

    // Another browser (no form cookie) cannot move it on.
    assert.equal((await fetch(next, { redirect: 'manual' })).status, 403);
    const challenge = await fetch(next, { redirect: 'manual', headers: { cookie: who.cookie } });
    assert.equal(challenge.status, 200);
    const done = await atTheBank(bankForm(await challenge.text()), '1234');
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `${origin}${SUCCESS}`);
    const made = await attempts(order);
    assert.equal(made.length, 1);
    assert.ok(['AUTHORIZED', 'SETTLED'].includes(made[0].status), made[0].status);
  });

  test('3-D Secure v1: the bank behind a button, its TermUrl answers the result page', async () => {
    const order = `form-${++orders}`;
    const res = await pay(await browser(), '4000000000003097', order);
    assert.equal(res.status, 200);
    const form = bankForm(await res.text());
    assert.ok(form.fields.PaReq && form.fields.MD && form.fields.TermUrl);
    const done = await atTheBank(form, '1234');
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `${origin}${SUCCESS}`);
  });

  test('a double submit charges once', async () => {
    const order = `form-${++orders}`;
    const who = await browser();
    const answers = await Promise.all([
      pay(who, '4111111111111111', order),
      pay(who, '4111111111111111', order),
    ]);
    for (const res of answers) {
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), `${origin}${SUCCESS}`);
    }
    assert.equal((await attempts(order)).length, 1);
  });

  test('a missing or foreign form token, or another origin, is refused before anything is sent', async () => {
    const order = `form-${++orders}`;
    const who = await browser();
    const other = await browser();
    assert.equal((await pay(who, '4111111111111111', order, { token: undefined })).status, 403);
    assert.equal((await pay(who, '4111111111111111', order, { token: other.token })).status, 403);
    assert.equal((await pay(who, '4111111111111111', order, { token: 'x' })).status, 403);
    assert.equal(
      (await pay(who, '4111111111111111', order, { origin: 'https://evil.test' })).status,
      403,
    );
    assert.equal((await attempts(order)).length, 0);
  });
});
