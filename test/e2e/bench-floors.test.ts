/**
 * The browser bench's floors measure what they say: the same-content floor shows the drop-in's own first
 * screen (its labels, hint, accepted brands and pay label), the required-work floor adds exactly the
 * order's request, its amount on Pay and the two storage reads, and the two-element floor does the same in
 * the drop-in's two elements. A floor that drifted from the drop-in would make `npm run bench --
 * --only=browser` compare unlike things.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import {
  PG_INTERACTIVE,
  REQUIRED_INTERACTIVE,
  SAME_INTERACTIVE,
  serve,
  TWO_INTERACTIVE,
} from '../bench/browser.js';
import { ensureElementsBuilt } from '../bench/lib/elements-build.js';

let server: Server;
let base: string;
let browser: Browser;

before(async () => {
  ensureElementsBuilt();
  server = await serve();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  server?.close();
});

/** What a shopper reads on the first screen of the form inside `host`, once the order's amount is on Pay. */
async function firstScreen(page: Page, host: string) {
  const form = page.locator(`${host} form`).first();
  await page.locator(`${host} button[type=submit]`).first().filter({ hasText: '100,00' }).waitFor();
  return {
    labels: await form.locator('label').allInnerTexts(),
    hints: await form.locator('.hint').allInnerTexts(),
    brands: await form.locator('.brands').first().getAttribute('aria-label'),
    pay: await form.locator('button[type=submit]').innerText(),
    inputs: await form
      .locator('input:not([type=hidden])')
      .evaluateAll((all) => all.map((i) => i.getAttribute('autocomplete'))),
  };
}

async function open(path: string, interactive: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`${base}${path}`);
  const ms = (await page.evaluate(interactive)) as number;
  return { context, page, asked, ms };
}

test("the same-content floor shows the drop-in's first screen, and asks for nothing but its script", async () => {
  const ours = await open('/pg.html', PG_INTERACTIVE);
  const floor = await open('/same.html', SAME_INTERACTIVE);
  try {
    const expected = await firstScreen(ours.page, 'pg-card-form');
    assert.deepEqual(expected.labels, [
      'Card number',
      'Name on card',
      'Expiry date',
      'Security code',
    ]);
    assert.deepEqual(await firstScreen(floor.page, 'same-content-floor'), expected);
    assert.deepEqual(floor.asked, ['/same.html', '/same.js']);
    assert.ok(floor.ms > 0);
  } finally {
    await ours.context.close();
    await floor.context.close();
  }
});

for (const [name, path, host, form, interactive] of [
  ['required-work', 'required', 'required-work-floor', 'required-work-floor', REQUIRED_INTERACTIVE],
  ['two-element', 'two', 'two-element-floor', 'two-element-form', TWO_INTERACTIVE],
] as const)
  test(`the ${name} floor shows the same screen, asks for the order once and reads both storages`, async () => {
    const ours = await open('/pg.html', PG_INTERACTIVE);
    const floor = await open(`/${path}.html`, interactive);
    try {
      // Before the order arrives, its Pay says plain "Pay", as the drop-in's does.
      const first = await floor.page.locator(`${form} button[type=submit]`).textContent();
      assert.match(first ?? '', /^Pay( R\u00a0100,00)?$/);
      assert.deepEqual(
        await firstScreen(floor.page, form),
        await firstScreen(ours.page, 'pg-card-form'),
      );
      assert.deepEqual(floor.asked, [`/${path}.html`, `/${path}.js`, '/checkout/config']);
      const resumes = () =>
        floor.page.evaluate(
          (tag) => document.querySelector(tag)!.hasAttribute('data-resume'),
          host,
        );
      assert.equal(await resumes(), false);
      // Each storage read decides, as the drop-in's does: this tab's running payment, then the browser's mark.
      const endpoint = `${base}/checkout`;
      for (const [store, key] of [
        ['sessionStorage', `pg-checkout:payment:${endpoint}`],
        ['localStorage', `pg-checkout:order:${endpoint}`],
      ] as const) {
        await floor.page.evaluate(
          ({ s, k }) => {
            sessionStorage.clear();
            localStorage.clear();
            window[s].setItem(k, '1');
          },
          { s: store, k: key },
        );
        await floor.page.reload();
        await floor.page.evaluate(interactive);
        assert.equal(await resumes(), true, `${store} read at load`);
      }
    } finally {
      await ours.context.close();
      await floor.context.close();
    }
  });
