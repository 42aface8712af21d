import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createElement } from 'react';
import type { Browser, Page } from 'playwright-core';
import { renderToString } from 'react-dom/server';
import { PgCheckout } from '../src/server.js';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { App } from './app.js';

// The drop-in rendered by React on the server (the `node` entry) is the element with its markup in a
// declarative shadow root; React hydrates it in Chromium and nothing on the page moves.

const here = fileURLToPath(new URL('.', import.meta.url));

/** The browser's side: React, the components of index.ts, and the same App, hydrated on demand. */
async function bundleClient(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `
        import { createElement } from 'react';
        import { hydrateRoot } from 'react-dom/client';
        import { PgCheckout } from '../src/index.ts';
        import { App } from './app.ts';
        window.hydrate = () => hydrateRoot(document.getElementById('root'), createElement(App, { PgCheckout }));`,
      resolveDir: here,
      sourcefile: 'client.ts',
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    conditions: ['pg-source', 'browser'],
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

let browser: Browser;
let server: Server;
let url: string;

before(async () => {
  const client = await bundleClient();
  const body = renderToString(createElement(App, { PgCheckout }));
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
        <link rel="icon" href="data:,"></head><body><div id="root">${body}</div></body></html>`);
    } else if (path === '/client.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(client);
    } else if (path === '/checkout/config') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, amount: 12345, currency: 'ZAR', methods: ['card'] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the drop-in, its pay button and the paragraph below it are (no named helpers: they run in the page). */
const boxes = (page: Page) =>
  page.evaluate(() => {
    const dropIn = document.querySelector('pg-checkout')!;
    const form = dropIn.shadowRoot!.querySelector('pg-card-form')!;
    const [box, pay, below] = [
      dropIn,
      form.shadowRoot!.querySelector('button[type=submit]')!,
      document.querySelector('#below')!,
    ].map((el): Box => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
    return { dropIn: box!, pay: pay!, below: below! };
  });

describe('@pg-checkout/react on the server', () => {
  it('renders the drop-in as declarative shadow DOM with its attributes', () => {
    const html = renderToString(createElement(App, { PgCheckout }));
    assert.match(
      html,
      /<pg-checkout endpoint="\/checkout" locale="af" methods="card"><template shadowrootmode="open">/,
    );
    assert.match(html, /Kaartnommer/, 'the card form, in Afrikaans');
    assert.doesNotMatch(html, /onApproved|function/, 'no event prop written');
  });

  it('hydrates in Chromium without moving anything, and the hydrated form takes a card', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    await page.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          shifts.push((entry as unknown as { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(url);
    assert.equal(
      await page.locator('pg-card-form button[type=submit]').count(),
      1,
      "the server rendered the drop-in's markup",
    );
    const before = await boxes(page);
    assert.ok(
      before.dropIn.height > 200,
      `the server's drop-in has its size (${before.dropIn.height} px)`,
    );
    // A node of the server's markup, to tell hydration (kept) from a fresh client render (replaced).
    await page.evaluate(() => {
      const form = document
        .querySelector('pg-checkout')!
        .shadowRoot!.querySelector('pg-card-form')!;
      Object.assign(form.shadowRoot!.querySelector('form')!, { fromServer: true });
    });

    await page.addScriptTag({ url: '/client.js', type: 'module' });
    await page.evaluate(() => (window as unknown as { hydrate(): void }).hydrate());
    // Hydrated: /config read (the button shows the amount), React's props on the element.
    await page.waitForFunction(() => {
      const form = document.querySelector('pg-checkout')?.shadowRoot?.querySelector('pg-card-form');
      return /\d/.test(form?.shadowRoot?.querySelector('button[type=submit]')?.textContent ?? '');
    });
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    assert.deepEqual(await boxes(page), before, 'the same boxes before and after hydration');
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts),
      [],
    );
    const kept = await page.evaluate(() => {
      const form = document
        .querySelector('pg-checkout')!
        .shadowRoot!.querySelector('pg-card-form')!;
      return (form.shadowRoot!.querySelector('form') as unknown as { fromServer?: boolean })
        .fromServer;
    });
    assert.equal(kept, true, "Lit hydrated the server's markup instead of rendering it again");

    const number = page.locator('pg-card-form #number');
    await number.pressSequentially('4111111111111111');
    assert.equal(await number.inputValue(), '4111 1111 1111 1111');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
