/**
 * Issue 29, the money truth in the demo, driven in headless Chromium as shoppers would: the total
 * charged is the one on Pay, a tab whose order another tab paid is told its card was not charged, a
 * closed bank check is never "no payment" when the bank's answer came, a reload and a new tab show
 * the paid order, Back from the EFT page is not stuck, offline says so, and a second payment of a
 * paid order (the EFT page left open) goes back to the shopper.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { assertNoCardData } from '../support/card-data.js';
import {
  acsFrame,
  checkout,
  finalStatus,
  payWithCard,
  shopperMessage,
} from '../support/checkout.js';
import { startShop, type Shop } from '../support/shop.js';

let shop: Shop;
let browser: Browser;
const CARDS = ['4111111111111111', '5555555555554444', '4000000000003055'];

before(async () => {
  shop = await startShop({ RATE_LIMIT_PER_IP: '1000' });
  // The back-forward cache on, as in a shopper's Chromium (point 10 is a page restored from it).
  browser = await launchChromium({ backForwardCache: true });
});

after(async () => {
  await browser?.close();
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], CARDS);
});

/** A tab of `context` on the checkout, its card form ready (the order's total on Pay). */
async function tab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(shop.url);
  await payButton(page).filter({ hasText: /\d/ }).waitFor();
  return page;
}

const payButton = (page: Page) => page.locator('pg-card-form button[type="submit"]').first();

interface SandboxTxn {
  reference: string;
  merchantReference: string;
  amount: number;
  status: string;
}

/** Every transaction the sandbox holds. */
async function sandboxTotal(): Promise<number> {
  const res = await fetch(`${shop.sandboxUrl}/_sandbox/transactions?limit=1`);
  return ((await res.json()) as { total: number }).total;
}

async function byMerchantReference(merchantReference: string): Promise<SandboxTxn[]> {
  const res = await fetch(
    `${shop.sandboxUrl}/_sandbox/transactions?merchantReference=${encodeURIComponent(merchantReference)}`,
  );
  return ((await res.json()) as { transactions: SandboxTxn[] }).transactions;
}

async function sandboxTxn(reference: string): Promise<SandboxTxn> {
  const res = await fetch(`${shop.sandboxUrl}/_sandbox/transactions/${reference}`);
  assert.equal(res.status, 200);
  return (await res.json()) as SandboxTxn;
}

test('point 7: tab B still showing R 149,00 after tab A made it 3 is not charged R 447,00', async () => {
  const context = await browser.newContext();
  const b = await tab(context);
  assert.match(await payButton(b).innerText(), /149,00/);
  const a = await context.newPage();
  await a.goto(shop.url);
  const changed = await a.evaluate(async () => {
    const res = await fetch('/api/cart', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: 3 }),
    });
    return res.status;
  });
  assert.equal(changed, 200);
  const before = await sandboxTotal();
  await payWithCard(b, { number: '4111111111111111' });
  await payButton(b)
    .filter({ hasText: /447,00/ })
    .waitFor({ timeout: 15_000 });
  assert.match(await shopperMessage(b), /total is now R.447,00\. Nothing was charged/);
  // The shop's own cart total follows (it listens for amount_changed).
  await b
    .locator('#total')
    .filter({ hasText: /447,00/ })
    .waitFor({ timeout: 5_000 });
  assert.equal(await sandboxTotal(), before, 'nothing reached the gateway');
  // The shopper read the new total and taps Pay again: that total is charged.
  await payButton(b).click();
  assert.equal(await finalStatus(b), 'approved');
  const reference = await checkout(b).getAttribute('reference');
  assert.equal((await sandboxTxn(reference!)).amount, 44_700);
  await context.close();
});

test('point 8: tab B paying an order tab A paid is told its card was not charged', async () => {
  const context = await browser.newContext();
  const a = await tab(context);
  const b = await tab(context);
  await payWithCard(a, { number: '4111111111111111' });
  assert.equal(await finalStatus(a), 'approved');
  const paid = await checkout(a).getAttribute('reference');
  await payWithCard(b, { number: '5555555555554444' });
  assert.equal(await finalStatus(b), 'approved');
  const said = await shopperMessage(b);
  assert.match(said, /already paid\. This card was not charged\./);
  assert.match(said, new RegExp(`Reference: ${paid}`));
  assert.equal(await checkout(b).getAttribute('reference'), paid);
  await context.close();
});

test('point 9: a reload and a new tab after paying show the paid order, never an empty form', async () => {
  const context = await browser.newContext();
  const page = await tab(context);
  await payWithCard(page, { number: '4111111111111111' });
  assert.equal(await finalStatus(page), 'approved');
  const reference = await checkout(page).getAttribute('reference');
  await page.reload();
  assert.equal(await finalStatus(page), 'approved');
  assert.match(await shopperMessage(page), new RegExp(`Reference: ${reference}`));
  assert.equal(await page.locator('pg-card-form').count(), 0, 'no form to pay again');
  const fresh = await context.newPage();
  await fresh.goto(shop.url);
  assert.equal(await finalStatus(fresh), 'approved');
  assert.equal(await fresh.locator('pg-card-form').count(), 0);
  await context.close();
});

test('point 6: the close control after the bank’s answer reached the shop shows the payment, not "no payment was made"', async () => {
  const context = await browser.newContext();
  const page = await tab(context);
  // The bank's answer reaches the shop (and the gateway authorizes it); its page never reaches the frame.
  let processed!: () => void;
  const atShop = new Promise<void>((resolve) => (processed = resolve));
  await page.route('**/checkout/3ds/*/callback', async (route) => {
    await route.fetch();
    processed();
    // The completion page is lost: only the middleware can say what happened.
    await route.abort();
  });
  await payWithCard(page, { number: '4000000000003055' });
  const frame = await acsFrame(page, shop.sandboxUrl);
  await frame.locator('input[name="otp"]').fill('1234');
  await frame.getByRole('button', { name: 'Submit' }).click();
  await atShop;
  await page.locator('pg-checkout [part="cancel"], pg-checkout >> [part="cancel"]').first().click();
  assert.equal(await finalStatus(page), 'approved');
  assert.doesNotMatch(await shopperMessage(page), /cancelled|No payment was made/);
  await context.close();
});

test('point 11: offline at Pay says so, and nothing reaches the gateway', async () => {
  const context = await browser.newContext();
  const page = await tab(context);
  const before = await sandboxTotal();
  await context.setOffline(true);
  await payWithCard(page, { number: '4111111111111111' });
  assert.equal(await finalStatus(page), 'failed');
  assert.match(await shopperMessage(page), /You are offline\. Nothing was charged\./);
  await context.setOffline(false);
  assert.equal(await sandboxTotal(), before);
  await context.close();
});

test('point 10 and a second payment: Back from the EFT page is not stuck; the EFT page paid after the card is refunded and said so', async () => {
  const context = await browser.newContext();
  const page = await tab(context);
  await page.evaluate(() => ((window as { beforeEft?: boolean }).beforeEft = true));
  await checkout(page)
    .getByRole('button', { name: /instant EFT/i })
    .click();
  await page.waitForURL((url) => url.href.startsWith(shop.sandboxUrl));
  const eftUrl = page.url();
  const eftReference = /\/pay\/(?:[a-z]+\/)?([A-Za-z0-9]+)/.exec(new URL(eftUrl).pathname)![1]!;
  // Restored from the back-forward cache, a page fires no load event.
  await page.goBack({ waitUntil: 'commit' });
  assert.equal(
    await page.evaluate(() => (window as { beforeEft?: boolean }).beforeEft),
    true,
    'the checkout came back from the back-forward cache',
  );
  await payButton(page).filter({ hasText: /\d/ }).waitFor({ timeout: 15_000 });
  assert.doesNotMatch(await shopperMessage(page), /Taking you to the payment page/);
  assert.equal(await checkout(page).getAttribute('status'), 'idle');
  await payWithCard(page, { number: '4111111111111111' });
  assert.equal(await finalStatus(page), 'approved');
  // Forward to the EFT page, still open at the gateway, and pay the order a second time there.
  // The EFT page may come back from the back-forward cache too: no load event to wait for then.
  await page.goForward({ waitUntil: 'commit' });
  await page.waitForURL((url) => url.href.startsWith(shop.sandboxUrl), { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${shop.url}/result?outcome=success`);
  await page
    .locator('#result-title')
    .filter({ hasText: 'Already paid' })
    .waitFor({ timeout: 15_000 });
  const detail = await page.locator('#result-detail').innerText();
  assert.match(detail, /second payment of R\s?149,00/);
  assert.match(detail, /has been refunded/);
  const refunds = () => byMerchantReference(`refund-dup-${eftReference}`);
  assert.equal((await refunds()).length, 1);
  // Looked at again: the refund is found, never sent twice.
  await page.reload();
  await page.locator('#result-title').filter({ hasText: 'Already paid' }).waitFor();
  assert.equal((await refunds()).length, 1);
  await context.close();
});
