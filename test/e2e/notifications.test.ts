import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminSession, type AdminSession } from '@pg-checkout/test-helpers/admin';
import { assertNoCardData } from '../support/card-data.js';
import { authorizedPayment, notifyHash } from '../support/gateway.js';
import { startShop, type Shop } from '../support/shop.js';

// The notify hash covers only the payment reference: whoever saw one notification can resend it
// with another amount or status. What the shop shows comes from the gateway's lookup instead.

let shop: Shop;
let admin: AdminSession;

before(async () => {
  shop = await startShop();
  admin = await adminSession(shop);
});

after(async () => {
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], ['4111111111111111']);
});

function notify(fields: { reference: string; amount: number; status: string }): Promise<Response> {
  return fetch(`${shop.url}/checkout/webhooks/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      success: true,
      amount: fields.amount,
      currency: 'ZAR',
      paymentReference: fields.reference,
      merchantReference: 'order-replayed-1',
      status: fields.status,
      date: new Date().toISOString(),
      hash: notifyHash(fields.reference),
    }),
  });
}

/** The cells of the back office's webhook rows for a reference. */
async function webhookRows(reference: string): Promise<string[]> {
  const html = await (
    await fetch(`${shop.url}/admin`, { headers: { cookie: admin.cookie } })
  ).text();
  const section = html.slice(html.indexOf('id="wh-title"'));
  return [...section.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((m) => m[1]!.replace(/\s+/g, ' '))
    .filter((row) => row.includes(`>${reference}<`));
}

test('a replayed notification with another amount and status is not believed', async () => {
  const reference = await authorizedPayment(shop, 14_900);
  const forged = await notify({ reference, amount: 99_999_900, status: 'SETTLED' });
  assert.equal(forged.status, 200, 'acknowledged, so the sender does not retry for days');
  const rows = await webhookRows(reference);
  assert.equal(rows.length, 1, rows.join('\n'));
  const [row] = rows;
  assert.doesNotMatch(row!, /999 ?999\.00/, 'the claimed amount is not shown as the payment');
  assert.doesNotMatch(row!, /data-verified="true"/);
  assert.match(row!, /R\s149,00/, "the gateway's amount");
  assert.match(row!, />AUTHORIZED</, "the gateway's status");
  assert.ok(shop.logs.some((l) => l.includes(reference) && /differs|mismatch/i.test(l)));
});

test('a replay with the right amount but another status shows the gateway status', async () => {
  const reference = await authorizedPayment(shop, 15_000);
  const replayed = await notify({ reference, amount: 15_000, status: 'SETTLED' });
  assert.equal(replayed.status, 200);
  const [row] = await webhookRows(reference);
  assert.ok(row);
  assert.match(row, />AUTHORIZED</);
  assert.doesNotMatch(row, />SETTLED</);
});

test('a notification for a reference the gateway never created: 200, logged, never a payment', async () => {
  const reference = 'SB99999999';
  const res = await notify({ reference, amount: 99_999_900, status: 'SETTLED' });
  assert.equal(res.status, 200);
  const rows = await webhookRows(reference);
  for (const row of rows) {
    assert.doesNotMatch(row, /data-verified="true"/);
    assert.doesNotMatch(row, /SETTLED|999 ?999\.00/);
  }
  const html = await (
    await fetch(`${shop.url}/admin`, { headers: { cookie: admin.cookie } })
  ).text();
  const transactions = html.slice(html.indexOf('id="tx-title"'), html.indexOf('id="wh-title"'));
  assert.doesNotMatch(transactions, new RegExp(reference));
  await new Promise((r) => setTimeout(r, 200)); // the shop's output reaching the pipe
  assert.ok(
    shop.logs.some(
      (l) => l.includes(reference) && /unknown|not found|no such|does not know/i.test(l),
    ),
    `logged: ${shop.logs.filter((l) => /webhook|notification/i.test(l)).join('\n')}`,
  );
});

test('forged webhooks, however many, never push a verified one out of the back office', async () => {
  const reference = await authorizedPayment(shop, 16_000);
  const genuine = await notify({ reference, amount: 16_000, status: 'AUTHORIZED' });
  assert.equal(genuine.status, 200);
  const verified = async () =>
    (await webhookRows(reference)).filter((r) => r.includes('data-verified="true"'));
  assert.equal((await verified()).length, 1);
  for (let i = 0; i < 300; i++) {
    const forged = await fetch(`${shop.url}/checkout/webhooks/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        success: true,
        amount: 100,
        currency: 'ZAR',
        paymentReference: `SBforged${i}`,
        hash: '0'.repeat(32),
      }),
    });
    assert.ok(forged.status >= 400 && forged.status < 500);
  }
  assert.equal((await verified()).length, 1, 'the verified webhook is still listed');
});
