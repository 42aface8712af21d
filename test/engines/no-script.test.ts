/**
 * A card payment when the elements' script never arrives (blocked by an extension, a proxy, a flaky link),
 * in three engines (issue 36): the shop is reached through a proxy that answers 404 for its scripts, so
 * the server-rendered form is all there is; Pay posts it, and the middleware's pages lead through 3-D
 * Secure v2 (method step, its refresh, the bank behind a button) to the shop's result page.
 * PG_ENGINES=firefox,webkit picks engines.
 */
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { assertNoCardData } from '../support/card-data.js';
import { startShop, type Shop } from '../support/shop.js';
import { launch, type EngineName } from './engines.js';
import { DEEP, Shopper, until } from './shopper.js';

const ENGINES = (process.env.PG_ENGINES ?? 'chromium,firefox,webkit')
  .split(',')
  .map((e) => e.trim())
  .filter(Boolean) as EngineName[];

let shop: Shop;
let proxy: Server;
let proxyUrl: string;

/** The shop as a shopper whose network drops its scripts sees it; the Host header is passed on. */
function scriptlessProxy(target: URL): Server {
  return createServer((req, res) => {
    if (/\.js(\?|$)/.test(req.url ?? '')) {
      res.writeHead(404).end();
      return;
    }
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}

before(async () => {
  shop = await startShop({ RATE_LIMIT_PER_IP: '1000' });
  proxy = scriptlessProxy(new URL(shop.url));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

after(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await shop?.stop();
  assertNoCardData(shop?.logs ?? [], ['4000000000003063']);
});

for (const name of ENGINES) {
  describe(`no elements script, ${name}`, () => {
    test('3-D Secure v2 with a challenge, by the form and the middleware’s pages alone', async () => {
      const engine = await launch(name);
      const tab = await engine.newTab({ width: 390, height: 800 });
      try {
        const shopper = new Shopper(tab);
        await shopper.open(`${proxyUrl}/`);
        assert.equal(
          await tab.evaluate<boolean>(`return customElements.get('pg-checkout') === undefined`),
          true,
          'the elements never ran',
        );
        await shopper.payByPointer('4000000000003063');
        const page = () =>
          tab
            .evaluate<string>(`return document.title + ' ' + location.pathname + location.search`)
            .catch(() => ''); // between two pages
        await until('the method step page', async () =>
          /Checking with your bank/.test(await page()),
        );
        // Three seconds on, the page moves itself on to Step 2 and the challenge's button.
        await until(
          'the challenge button',
          async () => /Continue to your bank/.test(await page()),
          20_000,
        );
        await shopper.clickOn('button[type="submit"]');
        await until('the bank', () =>
          tab.evaluate<boolean>(`${DEEP} return !!deep('#otp');`).catch(() => false),
        );
        await shopper.clickOn('#otp');
        await tab.type('1234');
        await shopper.clickOn('button[value="submit"]');
        await until(
          'the shop’s result page',
          async () => /\/result\?outcome=success$/.test(await page()),
          20_000,
        );
      } finally {
        await tab.close();
        await engine.close();
      }
    });
  });
}
