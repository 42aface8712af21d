import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { html } from 'lit';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { serverStyleHashes } from '../src/csp.js';
import {
  bundleClient,
  hydrate,
  recordViolations,
  startSsrPage,
  violations,
  type SsrPage,
} from '../test-support/ssr-page.js';
import { renderToString } from '../test-support/ssr-render.js';

// A server-rendered drop-in in Chromium, before and after it hydrates: what the shopper types meanwhile
// stays, and a strict CSP without 'unsafe-inline' still styles it.

const primary = 'rgb(29, 78, 216)'; // --pg-color-primary's light default, #1d4ed8

let browser: Browser;
let site: SsrPage;
let markup: string;

before(async () => {
  const [client, rendered] = await Promise.all([
    bundleClient(),
    renderToString(html`<pg-checkout endpoint="/checkout"></pg-checkout>`),
  ]);
  markup = rendered;
  site = await startSsrPage(client);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

async function open(csp: string): Promise<Page> {
  site.serve(markup, csp);
  const page = await browser.newPage();
  await recordViolations(page);
  await page.goto(site.url);
  return page;
}

const input = (page: Page, id: string) => page.locator(`pg-card-form #${id}`);
const payButton = (page: Page) => page.locator('pg-card-form button[type=submit]');
const background = (page: Page) =>
  payButton(page).evaluate((b) => getComputedStyle(b).backgroundColor);

describe('a server-rendered drop-in in Chromium', () => {
  it('keeps a card typed before hydration, and cannot be submitted before it', async () => {
    const page = await open("default-src 'self'; style-src 'self'");
    assert.equal(
      await payButton(page).isDisabled(),
      true,
      'the server renders the button disabled',
    );
    await input(page, 'number').pressSequentially('4111111111111111');
    await input(page, 'holder').pressSequentially('Jo Soap');
    await input(page, 'expiry').pressSequentially('0830');
    await input(page, 'cvv').pressSequentially('123');
    // Enter would submit the form natively (a GET of the page, the card in the URL): nothing happens.
    await input(page, 'cvv').press('Enter');
    assert.equal(page.url(), site.url);

    await hydrate(page);
    // /config answered: the pay button shows the amount (a render after hydration) and is enabled.
    await page.waitForFunction(() => {
      const form = document.querySelector('pg-checkout')?.shadowRoot?.querySelector('pg-card-form');
      return /\d/.test(form?.shadowRoot?.querySelector('button[type=submit]')?.textContent ?? '');
    });
    assert.equal(await payButton(page).isDisabled(), false);
    assert.equal(await input(page, 'number').inputValue(), '4111 1111 1111 1111');
    assert.equal(await input(page, 'holder').inputValue(), 'Jo Soap');
    assert.equal(await input(page, 'expiry').inputValue(), '08 / 30');
    assert.equal(await input(page, 'cvv').inputValue(), '123');
    // The form's own state holds it too (what a payment sends), compared in the page.
    const request = await page.evaluate(() => {
      const form = document
        .querySelector('pg-checkout')!
        .shadowRoot!.querySelector('pg-card-form')!;
      const card = form.getPaymentRequest()?.card;
      return card && 'number' in card
        ? {
            number: card.number === '4111111111111111',
            holder: card.cardHolder,
            month: card.expiryMonth,
            year: card.expiryYear,
            cvv: card.cvv === '123',
            type: card.type,
          }
        : undefined;
    });
    assert.deepEqual(request, {
      number: true,
      holder: 'Jo Soap',
      month: 8,
      year: 2030,
      cvv: true,
      type: 'visa',
    });
    // The brand mark appears once the form knows the number.
    assert.equal(await page.locator('pg-card-form [part=brand]').count(), 1);
    await page.close();
  });

  it("under style-src 'self' alone, is unstyled until it hydrates and styled after", async () => {
    const page = await open("default-src 'self'; style-src 'self'");
    assert.notEqual(await background(page), primary, 'the inline <style> is blocked');
    assert.ok((await violations(page)).some((v) => v.startsWith('style-src')));
    await hydrate(page);
    assert.equal(await background(page), primary);
    await page.close();
  });

  it("with the hashes of serverStyleHashes() beside 'self', is styled before it hydrates", async () => {
    const hashes = await serverStyleHashes();
    const inline = [...markup.matchAll(/<style>([^<]*)<\/style>/g)].map(
      (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
    );
    assert.equal(inline.length, 2, 'the drop-in and its card form');
    for (const hash of inline) assert.ok(hashes.includes(hash), `${hash} is listed`);
    const page = await open(`default-src 'self'; style-src 'self' ${hashes.join(' ')}`);
    assert.equal(await background(page), primary);
    assert.deepEqual(await violations(page), []);
    await hydrate(page);
    assert.equal(await background(page), primary);
    assert.deepEqual(await violations(page), []);
    await page.close();
  });
});
