import { writeFileSync } from 'node:fs';
import puppeteer, { type Browser as PBrowser, type Page as PPage } from 'puppeteer-core';
import type { Browser as PwBrowser, Page as PwPage } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { Keys, WebDriverSession } from './webdriver.js';

export type EngineName = 'chromium' | 'firefox' | 'webkit';
export type Key = 'Tab' | 'Enter' | 'Escape';

/** One shopper's tab, driven the same way in every engine: page scripts to look, real pointer and keys to act. */
export interface Tab {
  open(url: string): Promise<void>;
  /** Runs a function body in the shop's page and returns its (JSON) result. */
  evaluate<T>(body: string): Promise<T>;
  /** The same in the bank's challenge page (a cross-origin frame); undefined while there is none. */
  bankEvaluate<T>(body: string): Promise<T | undefined>;
  /** A real click at a point of the page's viewport (it lands in a frame if one is there). */
  click(x: number, y: number): Promise<void>;
  /** Real key presses to whatever has focus. */
  type(text: string): Promise<void>;
  press(key: Key): Promise<void>;
  /** A PNG of what the page shows (the viewport), written to `path`. */
  screenshot(path: string): Promise<void>;
  /** The page's size now (a phone turned, a zoom level changed); WebKit sizes its window. */
  resize(viewport: Viewport): Promise<void>;
  /** Another tab of the same shopper (cookies and storage shared); not in WebKit's one-window session. */
  another?(): Promise<Tab>;
  close(): Promise<void>;
}

export interface Viewport {
  width: number;
  height: number;
}

export interface Engine {
  name: EngineName;
  version: string;
  /** A new tab at `viewport` (default 1280x800; WebKit sizes its window, so its page is a little smaller). */
  newTab(viewport?: Viewport): Promise<Tab>;
  close(): Promise<void>;
}

const VIEWPORT = { width: 1280, height: 800 };
const isBankUrl = (url: string) => /\/_acs\/(v1|v2\/challenge)/.test(url);
const wrap = (body: string) => `(() => { ${body} })()`;

/** What Playwright's and Puppeteer's pages do alike, the same way. */
interface DrivenPage {
  goto(url: string): Promise<unknown>;
  evaluate(script: string): Promise<unknown>;
  frames(): { url(): string; evaluate(script: string): Promise<unknown> }[];
  mouse: { click(x: number, y: number): Promise<void> };
  keyboard: {
    type(text: string, options: { delay: number }): Promise<void>;
    press(key: Key): Promise<void>;
  };
  screenshot(options: { path: string }): Promise<unknown>;
}

/** The Tab methods both drivers share; each engine adds resize, another and close. */
const driven = (
  page: DrivenPage,
): Pick<Tab, 'open' | 'evaluate' | 'bankEvaluate' | 'click' | 'type' | 'press' | 'screenshot'> => ({
  open: async (url) => void (await page.goto(url)),
  evaluate: <T>(body: string) => page.evaluate(wrap(body)) as Promise<T>,
  bankEvaluate: async <T>(body: string) => {
    const frame = page.frames().find((f) => isBankUrl(f.url()));
    return frame
      ? ((await frame.evaluate(wrap(body)).catch(() => undefined)) as T | undefined)
      : undefined;
  },
  click: (x, y) => page.mouse.click(x, y),
  type: (text) => page.keyboard.type(text, { delay: 5 }),
  press: (key) => page.keyboard.press(key),
  screenshot: async (path) => void (await page.screenshot({ path })),
});

async function chromium(): Promise<Engine> {
  // The back-forward cache on, as in a shopper's Chromium: Back from a payment page restores the checkout.
  const browser: PwBrowser = await launchChromium({ backForwardCache: true });
  /** A tab of its own shopper closes that shopper's context; another tab of the same shopper, only itself. */
  const tab = (page: PwPage, own: boolean): Tab => ({
    ...driven(page),
    resize: (viewport) => page.setViewportSize(viewport),
    another: async () => {
      const next = await page.context().newPage();
      await next.setViewportSize(page.viewportSize() ?? VIEWPORT);
      return tab(next, false);
    },
    close: () => (own ? page.context().close() : page.close()),
  });
  return {
    name: 'chromium',
    version: browser.version(),
    async newTab(viewport = VIEWPORT) {
      const context = await browser.newContext({ viewport });
      return tab(await context.newPage(), true);
    },
    close: () => browser.close(),
  };
}

async function firefox(): Promise<Engine> {
  const browser: PBrowser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr',
    headless: true,
  });
  /** As in Chromium: the first tab of a shopper owns its context. */
  const tab = (page: PPage, own: boolean): Tab => ({
    ...driven(page),
    resize: (viewport) => page.setViewport(viewport),
    another: async () => {
      const next = await page.browserContext().newPage();
      await next.setViewport(page.viewport() ?? VIEWPORT);
      return tab(next, false);
    },
    close: () => (own ? page.browserContext().close() : page.close()),
  });
  return {
    name: 'firefox',
    version: await browser.version(),
    async newTab(viewport = VIEWPORT) {
      const context = await browser.createBrowserContext();
      const page: PPage = await context.newPage();
      await page.setViewport(viewport);
      return tab(page, true);
    },
    close: () => browser.close(),
  };
}

/** WebKitGTK through WebKitWebDriver: one session, cookies and storage emptied for each new shopper. */
async function webkit(): Promise<Engine> {
  const session = await WebDriverSession.webkit();
  const version = await session.execute<string>('return navigator.userAgent');
  return {
    name: 'webkit',
    version,
    async newTab(viewport = VIEWPORT) {
      await session.command('POST', '/window/rect', viewport);
      const inBank = async <T>(body: string): Promise<T | undefined> => {
        const frame = await session.execute<unknown>(
          `const walk = (root) => { for (const el of root.querySelectorAll('*')) { if (el.matches('iframe[part=frame]')) return el; if (el.shadowRoot) { const hit = walk(el.shadowRoot); if (hit) return hit; } } return null; }; return walk(document);`,
        );
        if (!frame) return undefined;
        try {
          await session.command('POST', '/frame', { id: frame });
          const url = await session.execute<string>('return location.href');
          return isBankUrl(url) ? await session.execute<T>(body) : undefined;
        } catch {
          return undefined;
        } finally {
          await session.command('POST', '/frame/parent', {}).catch(() => undefined);
        }
      };
      return {
        open: async (url) => {
          // A new shopper: the shop's cookies (its cart) and this tab's storage go first.
          await session.command('POST', '/url', { url });
          await session.command('DELETE', '/cookie');
          await session.execute('sessionStorage.clear()');
          await session.command('POST', '/url', { url });
        },
        evaluate: (body) => session.execute(body),
        bankEvaluate: inBank,
        click: (x, y) => session.click(x, y),
        type: (text) => session.keys(text),
        press: (key) => session.keys(Keys[key]),
        screenshot: async (path) =>
          writeFileSync(
            path,
            Buffer.from(await session.command<string>('GET', '/screenshot'), 'base64'),
          ),
        resize: async (size) => void (await session.command('POST', '/window/rect', size)),
        close: async () => {
          await session.command('POST', '/url', { url: 'about:blank' }).catch(() => undefined);
        },
      };
    },
    close: () => session.close(),
  };
}

export function launch(name: EngineName): Promise<Engine> {
  return { chromium, firefox, webkit }[name]();
}
