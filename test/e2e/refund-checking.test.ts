import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { GatewayClient } from '@pg-checkout/node';
import { signInToBackOffice } from '@pg-checkout/test-helpers/admin';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { startLossyGateway, type LossyGateway } from '@pg-checkout/test-helpers/lossy-gateway';
import { refundedAtSandbox, settledPayment } from '@pg-checkout/test-helpers/sandbox-payments';
import { startShop, type Shop } from '../support/shop.js';

// Issue 26, case 4 in the browser: `npm start` talks to the gateway through a network that loses a
// refund's answer after the gateway processed it. The back office says "checking", never "failed",
// offers only what is left, and the same form sent again refunds nothing more.

let sandbox: Sandbox;
let lossy: LossyGateway;
let shop: Shop;
let browser: Browser;
let page: Page;

before(async () => {
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  lossy = await startLossyGateway(sandbox.url);
  shop = await startShop({
    PG_BASE_URL: lossy.url,
    PG_TOKEN: sandbox.token,
    PG_SECRET: sandbox.secret,
    ADMIN_PASSWORD: 'e2e refund password',
  });
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
});

after(async () => {
  await browser?.close();
  await shop?.stop();
  await lossy?.close();
  await sandbox?.close();
});

const row = (reference: string) =>
  page.locator('tr', { has: page.locator(`code:text-is("${reference}")`) });

test('a refund whose answer was lost: "checking", no amount offered while its lookups fail, and "Check again" refunds nothing more', async () => {
  const reference = await settledPayment(
    new GatewayClient({ baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret }),
    4_900,
    `e2e-lost-${Date.now()}`,
  );
  await signInToBackOffice(page, shop);
  await row(reference)
    .getByLabel(/Refund amount/)
    .fill('20,00');
  lossy.loseNextRefundAnswer();
  await row(reference).getByRole('button', { name: 'Refund' }).click();
  const status = page.getByRole('status');
  await status.filter({ hasText: /checking/i }).waitFor();
  assert.doesNotMatch((await status.textContent()) ?? '', /failed/i);
  assert.equal(await refundedAtSandbox(sandbox.url, reference), 2_000);

  // A reload still checks (the gateway's lookups of refund slots fail), and offers no new refund:
  // what is left is known only from those lookups.
  await page.reload();
  const cell = row(reference);
  await cell.locator('[data-refund-checking]').waitFor();
  assert.match((await cell.textContent()) ?? '', /Refundable amount unknown/);
  assert.equal(await cell.getByLabel(/Refund amount/).count(), 0);

  // The gateway answers lookups again: "Check again" sends the same form, which refunds nothing more.
  lossy.blindLookups = false;
  await cell.getByRole('button', { name: 'Check again' }).click();
  await status.filter({ hasText: /already sent/ }).waitFor();
  assert.equal(await refundedAtSandbox(sandbox.url, reference), 2_000);
  assert.equal(await row(reference).locator('[data-refund-checking]').count(), 0);
});
