/**
 * A card payment with JavaScript turned off (issue 36): the demo's server-rendered form posts to the
 * middleware, which answers pages: the result page, the form again with the reason, or the bank's steps
 * (the method step as an iframe's own document, a refresh three seconds on, the challenge behind a
 * "Continue to your bank" button). Chromium here; the same pages need nothing any engine lacks.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { assertNoCardData } from '../support/card-data.js';
import { startShop, type Shop } from '../support/shop.js';

// UPDATE_SCREENSHOTS=1 writes the picture into docs/screenshots, as the engines' tests do.
const SCREENSHOTS = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots/' : '../../test-results/screenshots/',
    import.meta.url,
  ),
);

let shop: Shop;
let browser: Browser;

before(async () => {
  shop = await startShop({ RATE_LIMIT_PER_IP: '1000' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], [
    '4111111111111111',
    '4000000000000002',
    '4000000000003063',
    '4000000000003097',
  ]);
});

/** The sandbox's payments so far (every attempt of every order). */
async function payments(): Promise<{ status: string; merchantReference: string }[]> {
  const list = (await (
    await fetch(`${shop.sandboxUrl}/_sandbox/transactions?limit=500`)
  ).json()) as {
    transactions: { status: string; merchantReference: string }[];
  };
  return list.transactions;
}

/** A phone with JavaScript off, a session of its own (so an order of its own), on the checkout page. */
async function noScript(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 667 },
  });
  const page = await context.newPage();
  await page.goto(`${shop.url}/`);
  return { context, page };
}

async function fillCard(page: Page, number: string): Promise<void> {
  const form = page.locator('pg-card-form');
  await form.locator('input[name="number"]').fill(number);
  await form.locator('input[name="holder"]').fill('Thandi Nkosi');
  await form.locator('input[name="expiry"]').fill('12/30');
  await form.locator('input[name="cvv"]').fill('123');
}

const pay = (page: Page) => page.locator('pg-card-form button[part~="submit"]').click();

/** The bank's page: the code, Submit, and its own no-script "Continue" back to the shop. */
async function atTheBank(page: Page, otp = '1234'): Promise<void> {
  await page.locator('#otp').fill(otp);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('a card payment with JavaScript off', () => {
  test('approved: Pay posts the form and the shop’s result page follows, one charge', async () => {
    const { context, page } = await noScript();
    try {
      const before = (await payments()).length;
      await fillCard(page, '4111 1111 1111 1111');
      await pay(page);
      await page.waitForURL(/\/result\?outcome=success$/);
      const made = (await payments()).slice(before);
      assert.equal(made.length, 1);
      assert.ok(['AUTHORIZED', 'SETTLED'].includes(made[0]!.status), made[0]!.status);
      // Said by the server (the page looks again by itself until the shop recorded the payment).
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor({ timeout: 15_000 });
      assert.match(
        (await page.locator('#result-detail').textContent())!,
        /Your payment of R\s149,00 went through/,
      );
    } finally {
      await context.close();
    }
  });

  test('declined: the form again, with the reason above it', async () => {
    const { context, page } = await noScript();
    try {
      await fillCard(page, '4000 0000 0000 0002');
      await pay(page);
      await page.waitForURL(/[?&]pg_declined=card_declined/);
      assert.match(
        (await page.locator('.notice[role="alert"]').textContent())!,
        /declined and nothing was charged/,
      );
      await page.locator('pg-card-form input[name="number"]').waitFor();
    } finally {
      await context.close();
    }
  });

  test('3-D Secure v2 with a challenge: the page moves on by itself, then the bank behind a button', async () => {
    const { context, page } = await noScript();
    try {
      const before = (await payments()).length;
      await fillCard(page, '4000 0000 0000 3063');
      await pay(page);
      await page.getByRole('heading', { name: 'Checking with your bank…' }).waitFor();
      // The meta refresh, three seconds on, makes Step 2 and shows the challenge's button.
      const toBank = page.getByRole('button', { name: 'Continue to your bank' });
      await toBank.waitFor({ timeout: 15_000 });
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'no-script-challenge.png') });
      await toBank.click();
      await atTheBank(page);
      await page.waitForURL(/\/result\?outcome=success$/);
      const made = (await payments()).slice(before);
      assert.equal(made.length, 1);
      assert.ok(['AUTHORIZED', 'SETTLED'].includes(made[0]!.status), made[0]!.status);
    } finally {
      await context.close();
    }
  });

  test('3-D Secure v1: the bank behind a button, then the result page', async () => {
    const { context, page } = await noScript();
    try {
      await fillCard(page, '4000 0000 0000 3097');
      await pay(page);
      await page.getByRole('button', { name: 'Continue to your bank' }).click();
      await atTheBank(page);
      await page.waitForURL(/\/result\?outcome=success$/);
    } finally {
      await context.close();
    }
  });

  test('a double click on Pay charges once', async () => {
    const { context, page } = await noScript();
    try {
      const before = (await payments()).length;
      await fillCard(page, '4111 1111 1111 1111');
      await page.locator('pg-card-form button[part~="submit"]').dblclick();
      await page.waitForURL(/\/result\?outcome=success$/);
      assert.equal((await payments()).slice(before).length, 1);
    } finally {
      await context.close();
    }
  });

  test('a form whose token is not this browser’s is refused (403), nothing sent', async () => {
    const { context, page } = await noScript();
    try {
      const before = (await payments()).length;
      await context.clearCookies();
      await fillCard(page, '4111 1111 1111 1111');
      const answer = page.waitForResponse((r) => r.url().endsWith('/checkout/form/pay'));
      await pay(page);
      assert.equal((await answer).status(), 403);
      await page.getByRole('heading', { name: 'This form has expired' }).waitFor();
      assert.equal((await payments()).length, before);
    } finally {
      await context.close();
    }
  });

  test('with the script, the drop-in takes the same form over: no form post, the JSON flow', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
    try {
      const page = await context.newPage();
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
      });
      await page.goto(`${shop.url}/`);
      await page.waitForFunction(() => customElements.get('pg-checkout') !== undefined);
      await fillCard(page, '4111 1111 1111 1111');
      await pay(page);
      await page.locator('pg-checkout[status="approved"]').waitFor();
      assert.equal(new URL(page.url()).pathname, '/');
      assert.ok(posts.includes('/checkout/payments'), posts.join(', '));
      assert.ok(!posts.includes('/checkout/form/pay'), posts.join(', '));
    } finally {
      await context.close();
    }
  });
});
