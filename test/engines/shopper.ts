import assert from 'node:assert/strict';
import { EXPIRY } from '../support/checkout.js';
import type { Tab } from './engines.js';

/** Finds the first match through open shadow roots (page script). */
export const DEEP = `const deep = (sel, root = document) => { const hit = root.querySelector(sel); if (hit) return hit; for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const found = deep(sel, el.shadowRoot); if (found) return found; } return null; };`;

export const FIELDS = {
  number: 'input[autocomplete="cc-number"]',
  holder: 'input[autocomplete="cc-name"]',
  expiry: 'input[autocomplete="cc-exp"]',
  cvv: 'input[autocomplete="cc-csc"]',
  pay: 'button[part~="submit"]',
  message: '[part~="message"]',
  retry: '[part~="retry"]',
};

const FINAL = ['approved', 'declined', 'failed', 'pending'];

export async function until<T>(
  what: string,
  read: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A shopper on the demo's checkout page, acting only through pointer and keys. */
export class Shopper {
  constructor(readonly tab: Tab) {}

  async open(url: string): Promise<void> {
    await this.tab.open(url);
    await until('the card form', () =>
      this.tab.evaluate<boolean>(`${DEEP} return !!deep('${FIELDS.number}');`),
    ).catch(async (error: Error) => {
      const where = await this.tab.evaluate<string>(
        `return location.href + ': ' + document.body.innerText.slice(0, 300)`,
      );
      throw new Error(`${error.message} on ${where}`);
    });
    // The pay button names the amount once the order is loaded.
    await until('the order', () =>
      this.tab.evaluate<boolean>(`${DEEP} return /\\d/.test(deep('${FIELDS.pay}').textContent);`),
    );
  }

  status(): Promise<string> {
    return this.tab.evaluate(`return document.querySelector('pg-checkout').getAttribute('status')`);
  }

  reference(): Promise<string> {
    return this.tab.evaluate(
      `return document.querySelector('pg-checkout').getAttribute('reference')`,
    );
  }

  text(selector: string): Promise<string> {
    return this.tab.evaluate(
      `${DEEP} const el = deep(${JSON.stringify(selector)}); return el ? el.textContent.trim() : '';`,
    );
  }

  value(selector: string): Promise<string> {
    return this.tab.evaluate(
      `${DEEP} const el = deep(${JSON.stringify(selector)}); return el ? el.value : '';`,
    );
  }

  /** True when the element is rendered (not hidden, not inside a hidden part). */
  visible(selector: string): Promise<boolean> {
    return this.tab.evaluate(
      `${DEEP} const el = deep(${JSON.stringify(selector)}); return !!el && el.getClientRects().length > 0;`,
    );
  }

  /** The focused element, followed through shadow roots: its part and autocomplete, or the frame. */
  focused(): Promise<string> {
    return this.tab.evaluate(
      `let el = document.activeElement; while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement; return el ? (el.getAttribute('autocomplete') || el.getAttribute('part') || el.localName) : '';`,
    );
  }

  async clickOn(selector: string): Promise<void> {
    const point = await until(`${selector} on screen`, () =>
      this.tab.evaluate<{ x: number; y: number } | null>(
        `${DEEP} const el = deep(${JSON.stringify(selector)}); if (!el) return null; el.scrollIntoView({ block: 'center' }); const r = el.getBoundingClientRect(); return r.width ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;`,
      ),
    );
    await this.tab.click(point.x, point.y);
  }

  /** Pointer into each field, keys for the text, pointer on Pay. */
  async payByPointer(number: string, cvv = '123'): Promise<void> {
    for (const [field, text] of [
      ['number', number],
      ['holder', 'Thandi Nkosi'],
      ['expiry', EXPIRY],
      ['cvv', cvv],
    ] as const) {
      await this.clickOn(FIELDS[field]);
      await this.tab.type(text);
    }
    await this.clickOn(FIELDS.pay);
  }

  /** Focus on the number once, then only keys: Tab between fields, Enter from the security code. */
  async payByKeyboard(number: string): Promise<void> {
    await this.tab.evaluate(`${DEEP} deep('${FIELDS.number}').focus();`);
    await this.tab.type(number);
    for (const text of ['Thandi Nkosi', EXPIRY, '123']) {
      await this.tab.press('Tab');
      await this.tab.type(text);
    }
    assert.equal(await this.focused(), 'cc-csc', 'Tab went name, expiry, security code');
    await this.tab.press('Enter');
  }

  async finalStatus(timeoutMs = 30_000): Promise<string> {
    return until(
      'a final status',
      async () => {
        const status = await this.status();
        return FINAL.includes(status) ? status : undefined;
      },
      timeoutMs,
    );
  }

  /** Waits for the bank's one-time-code page in the challenge frame. */
  async bankPage(): Promise<void> {
    await until('the bank page', async () => {
      const status = await this.status();
      if (FINAL.includes(status)) assert.fail(`the payment ended ${status} before any challenge`);
      return this.tab.bankEvaluate<boolean>(`return !!document.querySelector('#otp')`);
    });
  }

  /** Clicks an element of the bank's page: its point in the frame plus the frame's place in the page. */
  async clickInBank(selector: string): Promise<void> {
    await until(`${selector} in the bank page`, () =>
      this.tab.bankEvaluate<boolean>(
        `const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return false; el.scrollIntoView({ block: 'center' }); return true;`,
      ),
    );
    // A scroll that bubbles out of a cross-process frame reaches the page a moment later.
    await new Promise((r) => setTimeout(r, 300));
    const inner = (await this.tab.bankEvaluate<{ x: number; y: number }>(
      `const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 };`,
    ))!;
    const frame = await this.tab.evaluate<{ x: number; y: number }>(
      `${DEEP} const f = deep('iframe[part~="frame"]'); const r = f.getBoundingClientRect(); return { x: r.x + f.clientLeft, y: r.y + f.clientTop };`,
    );
    await this.tab.click(frame.x + inner.x, frame.y + inner.y);
  }

  /** What has focus in the bank's page, and whether that page has the keyboard. */
  bankFocus(): Promise<{ id: string; inForm: boolean; hasFocus: boolean } | undefined> {
    return this.tab.bankEvaluate(
      `const el = document.activeElement; return { id: el ? el.id || el.localName : '', inForm: !!(el && el.closest('#acs-form')), hasFocus: document.hasFocus() };`,
    );
  }
}
