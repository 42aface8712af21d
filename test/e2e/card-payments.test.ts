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
  shopperMessage,
} from '../support/checkout.js';
import { startShop, type Shop } from '../support/shop.js';

let shop: Shop;
let browser: Browser;
const used = new Set<string>();
const cspViolations: string[] = [];

before(async () => {
  // Every shopper here comes from 127.0.0.1, far more payments a minute than the card-testing
  // limit allows one address (20); the limit itself is tested at the end of this file.
  shop = await startShop({ RATE_LIMIT_PER_IP: '1000' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], [...used]);
});

/** A fresh shopper (own cookies, own cart) on the checkout page. */
async function openCheckout(path = '/'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  await page.goto(shop.url + path);
  await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
  return page;
}

async function pay(
  number: string,
  extra: { cvv?: string | undefined } = {},
  path = '/',
): Promise<Page> {
  used.add(number);
  const page = await openCheckout(path);
  await payWithCard(page, { number, ...extra });
  return page;
}

async function sandboxRecord(
  reference: string,
): Promise<{ threeDS: { methodReceivedAt?: number; step2ConfirmAt?: number } }> {
  const res = await fetch(
    `${shop.sandboxUrl}/_sandbox/transactions/${encodeURIComponent(reference)}`,
  );
  assert.equal(res.status, 200);
  return (await res.json()) as { threeDS: { methodReceivedAt?: number; step2ConfirmAt?: number } };
}

async function referenceOf(page: Page): Promise<string> {
  const ref = await checkout(page).getAttribute('reference');
  assert.ok(ref, '<pg-checkout> exposes the payment reference');
  return ref;
}

describe('approved without 3-D Secure', () => {
  const cards: [string, string?][] = [
    ['4111111111111111'],
    ['4550270020557018'],
    ['5555555555554444'],
    ['5471209024048015'],
    ['2223003122003222'],
    ['378282246310005', '1234'],
    ['30569309025904'],
  ];
  for (const [number, cvv] of cards) {
    test(`${number.slice(0, 6)}… is approved`, async () => {
      const page = await pay(number, { cvv });
      assert.equal(await finalStatus(page), 'approved');
      assert.match(await shopperMessage(page), /approved|thank/i);
      await page.context().close();
    });
  }
});

describe('declines show a shopper message and allow another card', () => {
  test('4000000000000002 is declined, then another card pays', async () => {
    const page = await pay('4000000000000002');
    assert.equal(await finalStatus(page), 'declined');
    const message = await shopperMessage(page);
    assert.match(message, /declined/i);
    assert.doesNotMatch(
      message,
      /fin\d{3}|error:|undefined|\{/i,
      'no raw error reaches the shopper',
    );
    await checkout(page)
      .getByRole('button', { name: /another card|try again/i })
      .click();
    used.add('5555555555554444');
    await payWithCard(page, { number: '5555555555554444' });
    assert.equal(await finalStatus(page), 'approved');
    await page.context().close();
  });

  test('4000000000009995 is declined for insufficient funds', async () => {
    const page = await pay('4000000000009995');
    assert.equal(await finalStatus(page), 'declined');
    assert.match(await shopperMessage(page), /funds|declined/i);
    await page.context().close();
  });
});

describe('3-D Secure v1', () => {
  test('4000000000003097: the bank page takes the code and the payment is approved', async () => {
    const page = await pay('4000000000003097');
    await checkout(page).and(page.locator('[status="authenticating"]')).waitFor();
    await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: '1234' });
    assert.equal(await finalStatus(page), 'approved');
    await page.context().close();
  });

  test('a wrong code fails authentication', async () => {
    const page = await pay('4000000000003097');
    await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: '0000' });
    assert.equal(await finalStatus(page), 'failed');
    assert.match(await shopperMessage(page), /authenticat|verif/i);
    await page.context().close();
  });
});

describe('3-D Secure v2', () => {
  test('4000000000003220: method step, then frictionless approval; Step 2 confirm 3 to 3.5 s after the method form', async () => {
    const page = await pay('4000000000003220');
    assert.equal(await finalStatus(page), 'approved');
    const record = await sandboxRecord(await referenceOf(page));
    const { methodReceivedAt, step2ConfirmAt } = record.threeDS;
    assert.ok(methodReceivedAt, 'the method form reached the sandbox');
    assert.ok(step2ConfirmAt, 'Step 2 confirm reached the sandbox');
    const gap = step2ConfirmAt - methodReceivedAt;
    assert.ok(gap >= 3_000 && gap <= 3_500, `Step 2 confirm came ${gap} ms after the method form`);
    await page.context().close();
  });

  for (const number of ['4000000000003063', '4260890000160011', '5286250003061012']) {
    test(`${number.slice(0, 6)}…: method step, challenge passed`, async () => {
      const page = await pay(number);
      await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: '1234' });
      assert.equal(await finalStatus(page), 'approved');
      await page.context().close();
    });
  }

  test('4000000000003055: challenge at once, passed with test123', async () => {
    const page = await pay('4000000000003055');
    await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: 'test123' });
    assert.equal(await finalStatus(page), 'approved');
    await page.context().close();
  });

  test('the drop-in moved mid-challenge (appendChild elsewhere): the challenge opens again and is passed', async () => {
    const page = await pay('4000000000003055');
    const first = await acsFrame(page, shop.sandboxUrl);
    await first.locator('input[name="otp"]').fill('12'); // half typed: a move reloads the frame
    await page.evaluate(() => {
      const el = document.querySelector('pg-checkout')!;
      (window as unknown as { pgFailed: string[] }).pgFailed = [];
      el.addEventListener('pg-failed', (e) =>
        (window as unknown as { pgFailed: string[] }).pgFailed.push(
          (e as CustomEvent<{ code: string }>).detail.code,
        ),
      );
      const elsewhere = document.createElement('div');
      document.body.append(elsewhere);
      elsewhere.appendChild(el);
    });
    const again = await acsFrame(page, shop.sandboxUrl);
    assert.notEqual(again, first, 'a fresh bank page');
    await answerChallenge(again, { otp: '1234' });
    assert.equal(await finalStatus(page), 'approved');
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { pgFailed: string[] }).pgFailed),
      [],
    );
    await page.context().close();
  });

  test('challenge failed with a wrong code', async () => {
    const page = await pay('4000000000003063');
    await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: '9999' });
    assert.equal(await finalStatus(page), 'failed');
    await page.context().close();
  });

  test('challenge cancelled at the bank', async () => {
    const page = await pay('4000000000003063');
    await answerChallenge(await acsFrame(page, shop.sandboxUrl), 'cancel');
    assert.equal(await finalStatus(page), 'failed');
    await page.context().close();
  });

  test('4000000000000127: authentication fails at Step 2 confirm', async () => {
    const page = await pay('4000000000000127');
    assert.equal(await finalStatus(page), 'failed');
    assert.match(await shopperMessage(page), /authenticat|verif/i);
    await page.context().close();
  });

  test('4000000000000119: challenge passes, then the bank declines', async () => {
    const page = await pay('4000000000000119');
    await answerChallenge(await acsFrame(page, shop.sandboxUrl), { otp: '1234' });
    assert.equal(await finalStatus(page), 'declined');
    await page.context().close();
  });
});

describe('saved cards', () => {
  test('a card saved on one payment pays the next one by token', async () => {
    used.add('4111111111111111');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(shop.url);
    await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
    await payWithCard(page, { number: '4111111111111111', save: true });
    assert.equal(await finalStatus(page), 'approved');

    await page.goto(shop.url);
    // The paid order is shown as paid (issue 29): another quantity makes the next order to pay.
    await page.selectOption('#qty', '2');
    const saved = page.locator('pg-card-form').getByRole('radio', { name: /411111|1111/ });
    await saved.first().check();
    await page.locator('pg-card-form button[type="submit"]').click();
    assert.equal(await finalStatus(page), 'approved');
    await context.close();
  });
});

test('no Content-Security-Policy violation on any checkout page', () => {
  assert.deepEqual(cspViolations, []);
});

describe('the card-testing limit', () => {
  let limited: Shop;
  before(async () => {
    limited = await startShop({ RATE_LIMIT_PER_IP: '2' });
  });
  after(async () => {
    await limited?.stop();
    assertNoCardData(limited?.logs ?? [], ['4000000000000002']);
  });

  test('past the attempts allowed per address the shopper is asked to wait, in words', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(limited.url);
    const form = page.locator('pg-card-form');
    await form.locator('input[autocomplete="cc-number"]').waitFor();
    // The limit counts per clock-aligned minute: three attempts split by a minute's turn would be
    // counted in two windows, so start them with at least 20 s of this minute left.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    for (const attempt of [1, 2]) {
      await payWithCard(page, { number: '4000000000000002' });
      assert.equal(await finalStatus(page), 'declined', `attempt ${attempt}`);
      await checkout(page)
        .getByRole('button', { name: /another card|try again/i })
        .click();
      await form.locator('input[autocomplete="cc-number"]').waitFor();
    }
    await payWithCard(page, { number: '4000000000000002' });
    assert.equal(await finalStatus(page), 'failed');
    assert.match(await shopperMessage(page), /Too many attempts\. Wait a moment/);
    assert.ok(limited.logs.some((l) => /payment rate limit hit/.test(l)));
    await context.close();
  });
});
