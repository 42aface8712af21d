import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { signInToBackOffice } from '@pg-checkout/test-helpers/admin';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { assertNoCardData } from '../support/card-data.js';
import { checkout, finalStatus, payWithCard } from '../support/checkout.js';
import { startShop, type Shop } from '../support/shop.js';

let shop: Shop;
let browser: Browser;
let page: Page;

before(async () => {
  shop = await startShop();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], ['4111111111111111', '5555555555554444']);
});

/** Pays for the cart with a card; the demo authorizes at checkout and captures in the back office. */
async function buy(number: string, quantity = 1): Promise<string> {
  // A new shopper, so a new cart: the middleware answers an order already paid with its first payment.
  await page?.context().close();
  page = await (await browser.newContext()).newPage();
  await page.goto(shop.url);
  await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
  if (quantity !== 1) {
    await page.selectOption('#qty', String(quantity));
    await page
      .locator('#total')
      // The shop writes rands as en-ZA does (and as the drop-in's pay button): R 298,00.
      .filter({ hasText: `R\u00a0${149 * quantity},00` })
      .waitFor();
  }
  await payWithCard(page, { number });
  assert.equal(await finalStatus(page), 'approved');
  const reference = await checkout(page).getAttribute('reference');
  assert.ok(reference);
  return reference;
}

function row(reference: string) {
  return page.locator('tr', { has: page.locator(`code:text-is("${reference}")`) });
}

async function statusOf(reference: string): Promise<string> {
  // Signs in with the password the banner printed (no ADMIN_PASSWORD here: it is generated).
  await signInToBackOffice(page, shop);
  return (await row(reference).locator('td[data-status]').getAttribute('data-status')) ?? '';
}

test('an authorized card payment is executed, then partly and fully refunded', async () => {
  const reference = await buy('4111111111111111', 2);
  assert.equal(await statusOf(reference), 'AUTHORIZED');
  await row(reference).getByRole('button', { name: 'Execute' }).click();
  await page.getByRole('status').filter({ hasText: 'executed' }).waitFor();
  assert.equal(await statusOf(reference), 'SETTLED');

  await row(reference)
    .getByLabel(/Refund amount/)
    .fill('100.00');
  await row(reference).getByRole('button', { name: 'Refund' }).click();
  await page.getByRole('status').filter({ hasText: 'done' }).waitFor();
  const refunds = page.locator('td[data-status="REFUNDED"]');
  assert.ok((await refunds.count()) >= 1, 'the partial refund is listed as REFUNDED');
});

test('a refund ending in 07 cents goes manual (pending), then completes', async () => {
  const reference = await buy('5555555555554444');
  await statusOf(reference);
  await row(reference).getByRole('button', { name: 'Execute' }).click();
  await page.getByRole('status').filter({ hasText: 'executed' }).waitFor();

  await row(reference)
    .getByLabel(/Refund amount/)
    .fill('10,07'); // as the table writes amounts ("100.00" above: a point is taken too)
  await row(reference).getByRole('button', { name: 'Refund' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /pending/i })
    .waitFor();
  await page.goto(`${shop.url}/admin`);
  assert.ok(
    (await page.locator('td[data-status="refund pending"]').count()) >= 1,
    'the manual refund shows as pending',
  );
  assert.ok(
    (await page.locator('td', { hasText: /^-R\u00a010,07$/ }).count()) >= 1,
    'the refund is listed for R 10,07, as typed',
  );

  // The gateway completes manual refunds later; move the sandbox's clock past that.
  const res = await fetch(`${shop.sandboxUrl}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: 9 * 24 * 3600 * 1000 }),
  });
  assert.equal(res.status, 200);
  await page.goto(`${shop.url}/admin`);
  assert.equal(
    await page.locator('td[data-status="refund pending"]').count(),
    0,
    'no refund is pending any more',
  );
});
