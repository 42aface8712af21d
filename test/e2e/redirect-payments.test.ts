import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { signInToBackOffice } from '@pg-checkout/test-helpers/admin';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { assertNoCardData } from '../support/card-data.js';
import { acsFrame, answerChallenge, checkout } from '../support/checkout.js';
import { startShop, type Shop } from '../support/shop.js';

let shop: Shop;
let browser: Browser;

before(async () => {
  shop = await startShop();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], ['4111111111111111', '4000000000003097', '5555555555554444']);
});

/** A new shopper on the checkout page, choosing one of the redirect methods. */
async function startRedirect(button: RegExp): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(shop.url);
  await checkout(page).getByRole('button', { name: button }).click();
  await page.waitForURL((url) => url.href.startsWith(shop.sandboxUrl));
  return page;
}

/** Waits until the back office lists a verified payment webhook for the reference. */
async function verifiedWebhook(page: Page, reference: string, status = 'SETTLED'): Promise<void> {
  await signInToBackOffice(page, shop);
  for (let i = 0; i < 50; i++) {
    await page.goto(`${shop.url}/admin`);
    const row = page.locator('tr', { hasText: reference }).filter({ hasText: status });
    if ((await row.locator('td[data-verified="true"]').count()) > 0) return;
    await page.waitForTimeout(200);
  }
  assert.fail(`no verified ${status} webhook for ${reference}`);
}

/** Waits for the result page to word what the shop learnt from the gateway. */
async function resultSays(page: Page, title: string, detail: RegExp): Promise<void> {
  await page.locator('#result-title').filter({ hasText: title }).waitFor({ timeout: 15_000 });
  assert.match(await page.locator('#result-detail').innerText(), detail);
}

const referenceFromUrl = (page: Page) => {
  const match = /\/pay\/(?:[a-z]+\/)?([A-Za-z0-9]+)/.exec(new URL(page.url()).pathname);
  assert.ok(match, `a payment reference in ${page.url()}`);
  return match[1]!;
};

async function payOnHostedPage(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Name on card').fill('Thandi Nkosi');
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill(String(new Date().getUTCFullYear() + 3));
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Pay' }).click();
}

test('another currency on the hosted page: paid, back to the shop, notify webhook verified', async () => {
  const page = await startRedirect(/another currency/i);
  assert.match(await page.locator('h1').innerText(), /USD/);
  const reference = referenceFromUrl(page);
  await payOnHostedPage(page, '4111111111111111');
  await page.waitForURL(`${shop.url}/result?outcome=success`);
  await resultSays(page, 'Thank you!', /went through/);
  await verifiedWebhook(page, reference);
  await page.context().close();
});

test('hosted page with 3-D Secure v1', async () => {
  const page = await startRedirect(/another currency/i);
  const reference = referenceFromUrl(page);
  await payOnHostedPage(page, '4000000000003097');
  // The hosted page is the sandbox's own document, so its bank page is the main frame or a frame in it.
  await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: '1234' });
  await page.waitForURL(`${shop.url}/result?outcome=success`);
  await verifiedWebhook(page, reference);
  await page.context().close();
});

test('instant EFT: the bank pays and the back office lists it settled', async () => {
  // The spec's EFT request carries urls {success, cancel, error} without notify, so no webhook follows.
  const page = await startRedirect(/instant EFT/i);
  const reference = referenceFromUrl(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${shop.url}/result?outcome=success`);
  await signInToBackOffice(page, shop);
  const row = page.locator('tr', { has: page.locator(`code:text-is("${reference}")`) });
  assert.equal(await row.locator('td[data-status]').getAttribute('data-status'), 'SETTLED');
  await page.context().close();
});

test('hosted redirect payment: paid on the gateway page, notify webhook verified', async () => {
  const page = await startRedirect(/secure payment page/i);
  const reference = referenceFromUrl(page);
  await payOnHostedPage(page, '5555555555554444');
  await page.waitForURL(`${shop.url}/result?outcome=success`);
  await verifiedWebhook(page, reference);
  await page.context().close();
});

test('hosted payment page cancelled: back to the shop, nothing charged', async () => {
  const page = await startRedirect(/secure payment page/i);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL(`${shop.url}/result?outcome=cancel`);
  await resultSays(page, 'Payment cancelled', /Nothing was charged/);
  await page.context().close();
});

test('the result page believes the gateway, not the outcome in its URL', async () => {
  // Paid on the hosted page, then back on a result URL that says otherwise.
  const page = await startRedirect(/secure payment page/i);
  await payOnHostedPage(page, '4111111111111111');
  await page.waitForURL(`${shop.url}/result?outcome=success`);
  await page.goto(`${shop.url}/result?outcome=error`);
  await resultSays(page, 'Thank you!', /went through/);
  await page.goto(`${shop.url}/result?outcome=cancel`);
  await resultSays(page, 'Thank you!', /went through/);
  await page.context().close();
});

test('with no payment the gateway knows of, the result page never says nothing was charged', async () => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(shop.url);
  for (const outcome of ['cancel', 'error']) {
    await page.goto(`${shop.url}/result?outcome=${outcome}`);
    await page.locator('#result-title').filter({ hasNotText: 'Checking' }).waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /not charged|Nothing was charged/i);
  }
  await page.context().close();
});

test('a forged webhook is refused and shown as rejected', async () => {
  const res = await fetch(`${shop.url}/checkout/webhooks/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      success: true,
      amount: 100,
      currency: 'ZAR',
      paymentReference: 'SBforged',
      hash: '0'.repeat(32),
    }),
  });
  assert.ok(res.status >= 400 && res.status < 500, `answered ${res.status}`);
  const page = await browser.newPage();
  await signInToBackOffice(page, shop);
  assert.ok((await page.locator('td[data-verified="false"]').count()) >= 1);
  await page.close();
});
