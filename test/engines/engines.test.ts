/**
 * The demo shop's card flows in three engines, driven as shoppers drive them: Chromium (Playwright),
 * Firefox ESR (Puppeteer over WebDriver BiDi) and WebKitGTK (WebKitWebDriver under Xvfb). A focused set
 * per engine (test/e2e has the full one in Chromium): frictionless 3-D Secure with Step 2 timed,
 * a decline, a v2 and a v1 challenge by pointer, and a whole payment by keyboard alone.
 * PG_ENGINES=firefox,webkit picks engines.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { assertNoCardData } from '../support/card-data.js';
import { startShop, type Shop } from '../support/shop.js';
import { launch, type Engine, type EngineName, type Viewport } from './engines.js';
import { DEEP, FIELDS, Shopper, until } from './shopper.js';
import { EXPIRY } from '../support/checkout.js';

const ENGINES = (process.env.PG_ENGINES ?? 'chromium,firefox,webkit')
  .split(',')
  .map((e) => e.trim())
  .filter(Boolean) as EngineName[];

let shop: Shop;
const used = new Set<string>();

// The README's 320 px pictures in each engine; UPDATE_SCREENSHOTS=1 writes them into docs/screenshots.
const shots = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots/' : '../../test-results/screenshots/',
    import.meta.url,
  ),
);

/**
 * Phone sizes per engine, where the issue saw each engine go wrong (one page load each: keep the run short);
 * 640x400 is a 1280x800 screen at 200% zoom.
 */
const PHONES: Record<EngineName, Viewport[]> = {
  chromium: [
    { width: 375, height: 667 },
    { width: 320, height: 568 },
  ],
  firefox: [
    { width: 414, height: 896 },
    { width: 320, height: 568 },
    { width: 640, height: 400 },
  ],
  webkit: [
    { width: 320, height: 568 },
    { width: 640, height: 400 },
  ],
};

/** Where the issue saw a payment's outcome start above the screen (WebKit's window is at least 447 px wide). */
const OUTCOME: Record<EngineName, Viewport[]> = {
  chromium: [{ width: 320, height: 568 }],
  firefox: [{ width: 320, height: 568 }],
  webkit: [
    { width: 320, height: 568 },
    { width: 640, height: 400 },
  ],
};

/** 200% zoom (640x400) in every engine, and 400% (320x200) where the issue saw the shop's hint over the bank. */
const ZOOMED: Record<EngineName, Viewport[]> = {
  chromium: [
    { width: 640, height: 400 },
    { width: 320, height: 200 },
  ],
  firefox: [
    { width: 640, height: 400 },
    { width: 320, height: 200 },
  ],
  webkit: [{ width: 640, height: 400 }],
};

interface Box {
  left: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

before(async () => {
  mkdirSync(shots, { recursive: true });
  shop = await startShop({ RATE_LIMIT_PER_IP: '1000' });
});

after(async () => {
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], [...used]);
});

async function sandboxRecord(reference: string) {
  const res = await fetch(
    `${shop.sandboxUrl}/_sandbox/transactions/${encodeURIComponent(reference)}`,
  );
  assert.equal(res.status, 200);
  return (await res.json()) as { threeDS: { methodReceivedAt?: number; step2ConfirmAt?: number } };
}

for (const name of ENGINES) {
  describe(name, () => {
    let engine: Engine;
    let shopper: Shopper | undefined;

    before(async () => {
      engine = await launch(name);
    });
    after(async () => {
      await engine?.close();
    });

    async function shopperFor(number: string, viewport?: Viewport): Promise<Shopper> {
      used.add(number);
      await shopper?.tab.close();
      shopper = new Shopper(await engine.newTab(viewport));
      await shopper.open(shop.url);
      return shopper;
    }

    test('frictionless 3-D Secure: approved, Step 2 confirm 3.0-3.5 s after the method form', async (t) => {
      const s = await shopperFor('4000000000003220');
      await s.payByPointer('4000000000003220');
      assert.equal(await s.finalStatus(), 'approved', await s.text(FIELDS.message));
      assert.equal(await s.focused(), 'message', 'the approval has focus');
      const { methodReceivedAt, step2ConfirmAt } = (await sandboxRecord(await s.reference()))
        .threeDS;
      assert.ok(
        methodReceivedAt && step2ConfirmAt,
        'method form and Step 2 confirm reached the sandbox',
      );
      const gap = step2ConfirmAt - methodReceivedAt;
      t.diagnostic(`${name} ${engine.version}: Step 2 confirm ${gap} ms after the method form`);
      // The gateway asks for 3 s; the rest is the engine telling the page the bank has the form (the
      // bound test/e2e uses, for a loaded 2-core machine).
      assert.ok(
        gap >= 3_000 && gap <= 3_500,
        `${engine.version}: Step 2 confirm ${gap} ms after the method form`,
      );
    });

    test('a decline says so and clears the card', async () => {
      const s = await shopperFor('4000000000000002');
      await s.payByPointer('4000000000000002');
      assert.equal(await s.finalStatus(), 'declined');
      assert.match(await s.text(FIELDS.message), /declined/);
      await until('the card cleared', async () => (await s.value(FIELDS.number)) === '');
      // The reason has focus (on screen on a phone too), with "Try another card" and no Pay beside it.
      await until('focus on the reason', async () => (await s.focused()) === 'message');
      assert.equal(await s.visible(FIELDS.pay), false, 'no Pay beside "Try another card"');
      await s.clickOn(FIELDS.retry);
      await until('focus in the card number', async () => (await s.focused()) === 'cc-number');
      assert.equal(await s.text('#cvv-error'), '', 'no error for a field nobody touched since');
    });

    for (const [version, number] of [
      ['v2', '4000000000003063'],
      ['v1', '4000000000003097'],
    ] as const) {
      test(`3-D Secure ${version} challenge answered by pointer: approved`, async () => {
        const s = await shopperFor(number);
        await s.payByPointer(number);
        await s.bankPage();
        await s.clickInBank('#otp');
        await s.tab.type('1234');
        await s.clickInBank('button[value="submit"]');
        assert.equal(await s.finalStatus(), 'approved', await s.text(FIELDS.message));
      });
    }

    test('keyboard alone: card, Enter, the challenge takes the keys, Escape cancels, the reason is focused', async (t) => {
      const s = await shopperFor('4000000000003055');
      await s.payByKeyboard('4000000000003055');
      await s.bankPage();
      // Once the bank's page is there it has the keyboard: typing at once, or the first Tab, reaches its form.
      const first = await until(
        'the bank page to get focus',
        async () => {
          const f = await s.bankFocus();
          return f?.hasFocus ? f : undefined;
        },
        5_000,
      );
      t.diagnostic(
        `${name}: the bank's code field ${first.id === 'otp' ? 'had the keys at once' : 'was reached by the first Tab'}`,
      );
      if (first.id !== 'otp') {
        const pageBefore = await s.focused();
        await s.tab.press('Tab');
        const next = await s.bankFocus();
        assert.ok(
          next?.inForm,
          `the first Tab reached ${JSON.stringify(next)} (page: ${pageBefore} -> ${await s.focused()}), not the bank's form; before: ${JSON.stringify(first)}`,
        );
      }
      // The code field keeps the keys (read until it settles: under load Chromium may load the bank's
      // page a second time, and its autofocus lands a moment after that load).
      await until(
        'the code field to keep focus',
        async () => (await s.bankFocus())?.id === 'otp',
        3_000,
      );
      // WebKitWebDriver's key actions do not reach a cross-origin frame until a pointer went there
      // (a driver quirk, see the issue; the focus itself was checked above).
      if (name === 'webkit') await s.clickInBank('#otp');
      await s.tab.type('1234');
      assert.equal(
        await s.tab.bankEvaluate(`return document.querySelector('#otp').value.length`),
        4,
      );
      // Same quirk for Enter in that frame: WebKitWebDriver's key action does not submit it.
      if (name === 'webkit') await s.clickInBank('button[value="submit"]');
      else await s.tab.press('Enter');
      assert.equal(await s.finalStatus(), 'approved', await s.text(FIELDS.message));
      assert.equal(await s.focused(), 'message');

      // A second payment: Escape from our close control cancels, and focus goes to the reason.
      const again = await shopperFor('4000000000003055');
      await again.payByKeyboard('4000000000003055');
      await again.bankPage();
      await again.tab.evaluate(
        `const v2 = document.querySelector('pg-checkout').shadowRoot.querySelector('pg-3ds-v2'); v2.shadowRoot.querySelector('[part~=cancel]').focus();`,
      );
      await again.tab.press('Escape');
      assert.equal(await again.finalStatus(), 'failed');
      assert.match(await again.text(FIELDS.message), /cancelled/);
      await until('focus on the reason', async () => (await again.focused()) === 'message');
    });

    for (const phone of PHONES[name]) {
      test(`at ${phone.width}x${phone.height} (a phone, or zoomed in): form first, the first tap on Pay lands, the challenge on screen, a cancel shows its reason`, async (t) => {
        const s = await shopperFor('4000000000003063', phone);
        const box = (selector: string) =>
          s.tab.evaluate<Box | null>(
            `${DEEP} const el = deep(${JSON.stringify(selector)}); if (!el) return null; const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, bottom: r.bottom, width: r.width, height: r.height };`,
          );
        const screen = await s.tab.evaluate<{ w: number; h: number; sw: number }>(
          'return { w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth }',
        );
        t.diagnostic(`${name}: page ${screen.w}x${screen.h}`);
        assert.ok(screen.sw <= screen.w, `the page scrolls sideways by ${screen.sw - screen.w} px`);
        // The form comes before the cart: Pay is on the first screen (on the smallest, the form starts there).
        const first = screen.h >= 600 ? FIELDS.pay : FIELDS.number;
        const below = (await box(first))!.bottom - screen.h;
        assert.ok(below <= 0, `${first} ends ${below} px below the fold`);
        const picture = phone.width === 320 ? join(shots, `checkout-320-${name}`) : undefined;
        if (picture) await s.tab.screenshot(`${picture}.png`);

        // One digit short in the security code, then one tap on Pay: its message must not push Pay away.
        for (const [field, text] of [
          ['number', '4000000000003063'],
          ['holder', 'Thandi Nkosi'],
          ['expiry', EXPIRY],
          ['cvv', '12'],
        ] as const) {
          await s.clickOn(FIELDS[field]);
          await s.tab.type(text);
        }
        await s.clickOn(FIELDS.pay);
        await until('the tap on Pay to be answered', async () =>
          /Some details need your attention/.test(await s.text('[part~="status"]')),
        );
        assert.equal(await s.focused(), 'cc-csc', 'the submit sent focus to the short field');
        await s.tab.type('3');
        await s.clickOn(FIELDS.pay);

        await s.bankPage();
        const close = (await box('[part~="cancel"]'))!;
        const frame = (await box('iframe[part~="frame"]'))!;
        assert.ok(close.top >= -1, `the close control starts ${-close.top} px above the screen`);
        assert.ok(
          frame.bottom <= screen.h,
          `the bank's page ends ${frame.bottom - screen.h} px below the screen`,
        );
        assert.ok(
          close.width >= 44 && close.height >= 44,
          `close is ${close.width}x${close.height}`,
        );
        if (picture) await s.tab.screenshot(`${picture}-challenge.png`);

        // Cancel by pointer where it is (no scrolling): the reason is focused and on screen, no Pay beside it.
        await s.tab.click(close.left + close.width / 2, close.top + close.height / 2);
        assert.equal(await s.finalStatus(), 'failed');
        await until('focus on the reason', async () => (await s.focused()) === 'message');
        const reason = (await box(FIELDS.message))!;
        assert.ok(
          reason.top >= 0 && reason.bottom <= screen.h,
          `the reason is at ${reason.top}..${reason.bottom}`,
        );
        assert.equal(await s.visible(FIELDS.pay), false);
      });
    }

    for (const phone of OUTCOME[name]) {
      test(`at ${phone.width}x${phone.height}: the outcome of a payment is all on screen when it ends`, async () => {
        const s = await shopperFor('4111111111111111', phone);
        await s.payByPointer('4111111111111111');
        assert.equal(await s.finalStatus(), 'approved', await s.text(FIELDS.message));
        await until('focus on the outcome', async () => (await s.focused()) === 'message');
        const seen = await s.tab.evaluate<{ top: number; bottom: number; h: number }>(
          `${DEEP} const r = deep('${FIELDS.message}').getBoundingClientRect(); return { top: r.top, bottom: r.bottom, h: innerHeight };`,
        );
        assert.ok(
          seen.top >= 0 && seen.bottom <= seen.h,
          `the outcome is at ${seen.top}..${seen.bottom} of ${seen.h}`,
        );
        const zoom = phone.width === 320 ? '320' : '200pct';
        await s.tab.screenshot(join(shots, `checkout-${zoom}-${name}-outcome.png`));
      });
    }

    for (const zoomed of ZOOMED[name]) {
      test(`at ${zoomed.width}x${zoomed.height} (zoomed in) during the bank check: its page fits its frame, nothing of the shop lies over it, its Submit takes the tap`, async () => {
        const s = await shopperFor('4000000000003063', zoomed);
        await s.payByPointer('4000000000003063');
        await s.bankPage();
        const bank = (await s.tab.bankEvaluate<{ submit: number; page: number; h: number }>(
          `const r = document.querySelector('button[value="submit"]').getBoundingClientRect(); return { submit: r.bottom + scrollY, page: document.documentElement.scrollHeight, h: innerHeight };`,
        ))!;
        // 200% zoom: the whole page shows in its frame; 400%: it may scroll inside the frame, never under the shop.
        if (zoomed.height >= 400)
          assert.ok(
            bank.submit <= bank.h && bank.page <= bank.h,
            `the bank's Submit ends at ${bank.submit} of a ${bank.h} px frame (its page is ${bank.page} px)`,
          );
        const layout = await s.tab.evaluate<{ frame: number; checkout: number; hint: number }>(
          `${DEEP} return { frame: deep('iframe[part~="frame"]').getBoundingClientRect().bottom, checkout: document.querySelector('pg-checkout').getBoundingClientRect().bottom, hint: document.querySelector('.hint').getBoundingClientRect().top };`,
        );
        assert.ok(
          layout.frame <= layout.checkout + 0.5,
          `the bank's frame runs ${layout.frame - layout.checkout} px past the checkout`,
        );
        assert.ok(
          layout.hint >= layout.frame,
          `the shop's hint starts ${layout.frame - layout.hint} px inside the bank's frame`,
        );
        const zoom = zoomed.width === 640 ? '200pct' : '400pct';
        await s.tab.screenshot(join(shots, `checkout-${zoom}-${name}-challenge.png`));
        await s.tab.bankEvaluate(`document.querySelector('#otp').value = '1234'; return true;`);
        await s.clickInBank('button[value="submit"]');
        assert.equal(await s.finalStatus(), 'approved', "the tap on the bank's Submit reached it");
      });
    }
  });
}
