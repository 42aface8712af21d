import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible } from '../support/axe.js';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { assertNoCardData } from '../support/card-data.js';
import {
  acsFrame,
  answerChallenge,
  checkout,
  EXPIRY,
  finalStatus,
  payWithCard,
  shopperMessage,
} from '../support/checkout.js';
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
  assertNoCardData(shop?.logs ?? [], ['4111111111111111', '4000000000003063', '4000000000000002']);
});

async function open(
  path: string,
  options: { width?: number; bypassCSP?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1100, height: 900 },
    bypassCSP: options.bypassCSP ?? false,
  });
  const page = await context.newPage();
  await page.goto(shop.url + path);
  await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
  return page;
}

describe('the other ways to load the elements', () => {
  test('the script-tag page pays with a card', async () => {
    const page = await open('/script-tag.html');
    await payWithCard(page, { number: '4111111111111111' });
    assert.equal(await finalStatus(page), 'approved');
    await page.context().close();
  });

  test('the script-tag page runs a 3-D Secure challenge from pg-checkout.3ds.js, loaded beside it under the nonce CSP', async () => {
    const page = await open('/script-tag.html');
    await payWithCard(page, { number: '4000000000003063' });
    await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: '1234' });
    assert.equal(await finalStatus(page), 'approved');
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').some((e) => e.name.endsWith('/pg-checkout.3ds.js')),
    );
    assert.ok(loaded, 'pg-checkout.3ds.js was fetched');
    await page.context().close();
  });

  test('the script-tag page without pg-checkout.3ds.js creates no payment and says the service is unavailable', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.route('**/pg-checkout.3ds.js', (route) => route.abort());
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const creates: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/payments$/.test(new URL(r.url()).pathname))
        creates.push(r.url());
    });
    await page.goto(shop.url + '/script-tag.html');
    await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
    await payWithCard(page, { number: '4111111111111111' });
    assert.equal(await finalStatus(page), 'failed');
    assert.match(await shopperMessage(page), /not available/i);
    assert.deepEqual(creates, [], 'no payment was created');
    assert.ok(
      errors.some((e) => e.includes('pg-checkout.3ds.js')),
      `the console names the file: ${errors.join(' | ')}`,
    );
    await context.close();
  });

  test('the script-tag page words a decline and, after a reload, shows the paid order with the flow from pg-checkout.3ds.js', async () => {
    const page = await open('/script-tag.html');
    await payWithCard(page, { number: '4000000000000002' });
    assert.equal(await finalStatus(page), 'declined');
    assert.match(await shopperMessage(page), /declined/i);
    await page.locator('pg-checkout [part="retry"], pg-checkout >> [part="retry"]').first().click();
    await payWithCard(page, { number: '4111111111111111' });
    assert.equal(await finalStatus(page), 'approved');
    const reference = await checkout(page).getAttribute('reference');
    await page.reload();
    assert.equal(await finalStatus(page), 'approved');
    assert.match(await shopperMessage(page), new RegExp(`Reference: ${reference}`));
    assert.equal(await page.locator('pg-card-form').count(), 0, 'no form to pay again');
    await page.context().close();
  });

  test('the script-tag page shows Afrikaans from pg-checkout.af.js, English until it arrives', async () => {
    const page = await open('/script-tag.html');
    const label = page.locator('pg-card-form label[for=number]');
    assert.equal(await label.textContent(), 'Card number');
    await page.locator('pg-checkout').evaluate((el) => el.setAttribute('locale', 'af'));
    await page.locator('pg-card-form label[for=number]', { hasText: 'Kaartnommer' }).waitFor();
    await page.locator('pg-card-form button[type=submit]', { hasText: 'Betaal' }).waitFor();
    await page.context().close();
  });

  test('the ESM page (imported through Vite) pays with a card', async () => {
    const page = await open('/esm.html');
    await payWithCard(page, { number: '4111111111111111' });
    assert.equal(await finalStatus(page), 'approved');
    await page.context().close();
  });
});

test('keyboard only: Tab through the form, type, Enter pays', async () => {
  const page = await open('/');
  const number = page.locator('pg-card-form input[autocomplete="cc-number"]');
  // Tab from the top of the page until the card number has focus, as a keyboard user would.
  for (let i = 0; i < 40 && !(await number.evaluate((el) => el.matches(':focus'))); i++) {
    await page.keyboard.press('Tab');
  }
  assert.ok(
    await number.evaluate((el) => el.matches(':focus')),
    'the card number is reachable with Tab',
  );
  await page.keyboard.type('4111111111111111');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Thandi Nkosi');
  await page.keyboard.press('Tab');
  await page.keyboard.type(EXPIRY);
  await page.keyboard.press('Tab');
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
  assert.equal(await finalStatus(page), 'approved');
  await page.context().close();
});

test('submitting an empty form moves focus to the first invalid field', async () => {
  const page = await open('/');
  await page.locator('pg-card-form button[type="submit"]').click();
  const number = page.locator('pg-card-form input[autocomplete="cc-number"]');
  assert.ok(await number.evaluate((el) => el.matches(':focus')));
  assert.equal(await number.getAttribute('aria-invalid'), 'true');
  await page.context().close();
});

test("the cart's total and the pay button write the amount alike, in English and Afrikaans", async () => {
  const page = await open('/');
  const total = page.locator('#total');
  const pay = page.locator('pg-card-form button[type="submit"]');
  // en-ZA and af-ZA both write rands as "R 149,00", with no-break spaces (CLDR).
  await total.filter({ hasText: 'R\u00a0149,00' }).waitFor();
  await pay.filter({ hasText: 'Pay R\u00a0149,00' }).waitFor();
  assert.match(await page.locator('.item-price').innerText(), /^R\u00a0149,00 each$/);
  await page.selectOption('#qty', '3');
  await total.filter({ hasText: 'R\u00a0447,00' }).waitFor();
  await pay.filter({ hasText: 'Pay R\u00a0447,00' }).waitFor();
  await page.selectOption('#locale', 'af');
  await pay.filter({ hasText: 'Betaal R\u00a0447,00' }).waitFor();
  await page.context().close();
});

describe('axe finds nothing in each state', () => {
  test('idle, invalid, declined, 3-D Secure challenge, approved', async () => {
    const page = await open('/', { bypassCSP: true });
    await assertAccessible(page, 'idle');

    await page.locator('pg-card-form button[type="submit"]').click();
    await assertAccessible(page, 'invalid');

    await page.reload();
    await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
    await payWithCard(page, { number: '4000000000000002' });
    assert.equal(await finalStatus(page), 'declined');
    await assertAccessible(page, 'declined');

    await page.reload();
    await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
    await payWithCard(page, { number: '4000000000003063' });
    const frame = await acsFrame(page, shop.sandboxUrl);
    assert.equal(await checkout(page).getAttribute('status'), 'authenticating');
    await assertAccessible(page, 'authenticating');
    await frame.locator('input[name="otp"]').fill('1234');
    await frame.getByRole('button', { name: 'Submit' }).click();
    assert.equal(await finalStatus(page), 'approved');
    await assertAccessible(page, 'approved');
    await page.context().close();
  });

  // Dark appearance and the README screenshots: test/engines/screenshots.test.ts (axe on each).
  test('a 360 px wide phone does not scroll sideways', async () => {
    const phone = await open('/', { width: 360 });
    const overflow = await phone.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 360 px`);
    await phone.context().close();
  });
});
