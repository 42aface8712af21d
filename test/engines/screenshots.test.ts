/**
 * The README's pictures, taken as a shopper sees the demo in Chromium: 1280x800 and 375x740, light and
 * dark, idle and during the 3-D Secure challenge, with axe run on each. UPDATE_SCREENSHOTS=1 writes
 * them into docs/screenshots, otherwise into test-results/screenshots.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible } from '../support/axe.js';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { acsFrame, checkout, payWithCard } from '../support/checkout.js';
import { startShop, type Shop } from '../support/shop.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const shots = join(
  repoRoot,
  process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results/screenshots',
);

const SIZES = [
  { name: '1280', width: 1280, height: 800 },
  { name: '375', width: 375, height: 740 },
];

let shop: Shop;
let browser: Browser;

before(async () => {
  mkdirSync(shots, { recursive: true });
  shop = await startShop({ RATE_LIMIT_PER_IP: '1000' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await shop?.stop();
});

async function open(size: (typeof SIZES)[number], scheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    colorScheme: scheme,
    bypassCSP: true, // for axe's injected script
  });
  const page = await context.newPage();
  await page.goto(shop.url);
  await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
  if (scheme === 'dark') await page.selectOption('#appearance', 'dark');
  await page.locator('pg-card-form button[type="submit"]').filter({ hasText: /\d/ }).waitFor();
  return page;
}

for (const size of SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`${size.width}x${size.height} ${scheme}: the form, then the challenge, fit and pass axe`, async () => {
      const page = await open(size, scheme);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      await assertAccessible(page, `${size.name} ${scheme} idle`);
      await page.screenshot({ path: join(shots, `checkout-${size.name}-${scheme}.png`) });

      await payWithCard(page, { number: '4000000000003063' });
      const bank = await acsFrame(page, shop.sandboxUrl);
      assert.equal(await checkout(page).getAttribute('status'), 'authenticating');
      // The bank's buttons are inside the window the element chose, not cut off.
      const frame = page.locator('pg-3ds-v2 iframe[part~="frame"]');
      await frame.scrollIntoViewIfNeeded();
      const box = (await frame.boundingBox())!;
      assert.ok(
        box.x >= 0 && box.x + box.width <= size.width,
        `the challenge is ${box.width} px wide at ${size.width}`,
      );
      const submit = (await bank.getByRole('button', { name: 'Submit' }).boundingBox())!;
      assert.ok(submit.x + submit.width <= box.x + box.width, 'the bank page fits its window');
      assert.ok(
        submit.y + submit.height <= box.y + box.height,
        "the bank's buttons show without scrolling",
      );
      await assertAccessible(page, `${size.name} ${scheme} challenge`);
      await page.screenshot({ path: join(shots, `checkout-${size.name}-${scheme}-challenge.png`) });
      await page.context().close();
    });
  }
}

test('forced colours (375x740): fields, Pay and the message show where focus is', async () => {
  const context = await browser.newContext({
    viewport: { width: 375, height: 740 },
    forcedColors: 'active',
  });
  const page = await context.newPage();
  await page.goto(shop.url);
  await page.locator('pg-card-form button[type="submit"]').filter({ hasText: /\d/ }).waitFor();
  // What forced colours leave of the focus indicator: a shadow is dropped, an outline is painted.
  const ring = () =>
    page.evaluate(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      const style = getComputedStyle(el!);
      return `${el!.getAttribute('part')} ${style.outlineStyle} ${style.outlineWidth}`;
    });
  await page.locator('pg-card-form input[autocomplete="cc-number"]').focus();
  await page.keyboard.press('Tab'); // the name, reached by keyboard: :focus-visible
  assert.equal(await ring(), 'input solid 2px');
  await page.screenshot({ path: join(shots, 'checkout-375-forced-colors.png') });
  await page.locator('pg-card-form input[autocomplete="cc-csc"]').focus();
  await page.keyboard.press('Tab'); // "save this card"
  assert.equal(await ring(), 'null solid 2px');
  await page.keyboard.press('Tab');
  assert.equal(await ring(), 'submit solid 2px');
  await page.evaluate(() =>
    document
      .querySelector('pg-checkout')!
      .shadowRoot!.querySelector<HTMLElement>('[part=message]')!
      .focus(),
  );
  assert.equal(await ring(), 'message solid 2px');
  await context.close();
});
