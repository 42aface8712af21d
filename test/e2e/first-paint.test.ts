/**
 * What a shopper on a slow network sees before the elements' script has arrived (held back here until the
 * test lets it go): the checkout page's server-rendered drop-in is styled under the page's CSP, takes typing
 * and names the total on Pay; what was typed stays when the script hydrates it. The script-tag page, which
 * cannot render on the server, shows a skeleton of the form rather than an empty box.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { assertNoCardData } from '../support/card-data.js';
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
  assertNoCardData(shop?.logs ?? [], ['4111111111111111']);
});

/** A phone whose scripts (matching `scripts`) arrive only when `release()` is called. */
async function withHeldScripts(path: string, scripts: RegExp) {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
  const page: Page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(scripts, async (route) => {
    await released;
    await route.continue();
  });
  // Not DOMContentLoaded: that waits for the (held) deferred scripts.
  await page.goto(shop.url + path, { waitUntil: 'commit' });
  await page.locator('pg-checkout').waitFor({ state: 'attached' });
  return { page, release, errors, close: () => context.close() };
}

test('the checkout page: the server-rendered form is styled, typable and names the total before the script; typing stays on hydration', async () => {
  const { page, release, errors, close } = await withHeldScripts('/', /\/assets\/.*\.js$/);
  try {
    const number = page.locator('pg-card-form input[autocomplete="cc-number"]');
    const pay = page.locator('pg-card-form button[part~="submit"]');
    await number.waitFor({ timeout: 5_000 });
    assert.equal(await page.evaluate(() => !!customElements.get('pg-checkout')), false);
    assert.equal((await pay.textContent())!.trim(), 'Pay R\u00a0149,00');
    // Its styles are in force under the page's CSP (a blocked <style> leaves the browser's grey button).
    assert.equal(
      await pay.evaluate((b) => getComputedStyle(b).backgroundColor),
      'rgb(29, 78, 216)',
    );
    const box = (await number.boundingBox())!;
    assert.ok(box.y + box.height <= 667, 'the card number is on the first screen');
    await number.click();
    await page.keyboard.type('4111111111111111');
    release();
    await page.waitForFunction(() => !!customElements.get('pg-checkout'));
    await page.locator('pg-card-form [part~="brand"] svg').waitFor();
    assert.equal(await number.inputValue(), '4111 1111 1111 1111', 'kept and formatted');
    await pay.filter({ hasText: 'Pay R\u00a0149,00' }).waitFor();
    assert.deepEqual(
      errors.filter((e) => /Content Security Policy|hydrat/i.test(e)),
      [],
    );
  } finally {
    await close();
  }
});

test('the script-tag page: a skeleton of the form from first paint until the script arrives', async () => {
  const { page, release, close } = await withHeldScripts(
    '/script-tag.html',
    /\/elements\/pg-checkout\.js$/,
  );
  try {
    const dropIn = page.locator('pg-checkout');
    const seen = await dropIn.evaluate((el) => {
      const style = getComputedStyle(el);
      return {
        image: style.backgroundImage,
        height: el.getBoundingClientRect().height,
        busy: el.getAttribute('aria-busy'),
      };
    });
    assert.match(seen.image, /gradient/, 'field and button shapes are drawn');
    assert.ok(seen.height >= 400, `the skeleton is ${seen.height} px tall`);
    release();
    await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
    assert.equal(
      await dropIn.evaluate((el) => getComputedStyle(el).backgroundImage),
      'none',
      'the skeleton goes once the form is there',
    );
  } finally {
    await close();
  }
});
