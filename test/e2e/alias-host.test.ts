import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { assertNoCardData } from '../support/card-data.js';
import {
  acsFrame,
  answerChallenge,
  checkout,
  finalStatus,
  payWithCard,
} from '../support/checkout.js';
import { startShop, type Shop } from '../support/shop.js';

// The shop's public URL is http://localhost:PORT; a shopper who opened it as http://127.0.0.1:PORT
// gets 3-D Secure completion pages from the public origin inside the challenge frame.

let shop: Shop;
let alias: string;
let browser: Browser;
const cspViolations: string[] = [];

before(async () => {
  shop = await startShop();
  const url = new URL(shop.url);
  assert.equal(url.hostname, 'localhost', 'the public URL is the localhost one');
  alias = `http://127.0.0.1:${url.port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], ['4000000000003063', '4000000000003097']);
});

test("the checkout page's policy lets frames, forms and fetches reach the public origin", async () => {
  const res = await fetch(`${alias}/`);
  const policy = res.headers.get('content-security-policy') ?? '';
  const directive = (name: string) =>
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([n]) => n === name)
      ?.slice(1) ?? [];
  for (const name of ['frame-src', 'form-action', 'connect-src']) {
    assert.ok(directive(name).includes("'self'"), `${name} allows the page's own origin`);
    assert.ok(directive(name).includes(shop.url), `${name} allows ${shop.url}: ${policy}`);
  }
});

async function openAtAlias(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  await page.goto(`${alias}/`);
  await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
  return page;
}

describe('3-D Secure at the alias host', () => {
  for (const [number, kind] of [
    ['4000000000003063', 'v2 challenge'],
    ['4000000000003097', 'v1'],
  ] as const) {
    test(`${kind} (${number.slice(0, 6)}…): approved within seconds of the code`, async () => {
      const page = await openAtAlias();
      await payWithCard(page, { number });
      const frame = await acsFrame(page, shop.sandboxUrl);
      const submitted = Date.now();
      await answerChallenge(frame, { otp: '1234' });
      assert.equal(await finalStatus(page, 8_000), 'approved');
      const seconds = (Date.now() - submitted) / 1000;
      assert.ok(seconds < 8, `approved ${seconds.toFixed(1)} s after the code`);
      assert.equal(
        new URL(page.url()).host,
        new URL(alias).host,
        'the shopper stayed on the alias',
      );
      assert.ok(await checkout(page).getAttribute('reference'));
      await page.context().close();
    });
  }

  test('no Content-Security-Policy violation', () => {
    assert.deepEqual(cspViolations, []);
  });
});
