/**
 * The demo's payment pages under PCI DSS 11.6.1: the script-tag page loads each file with its published
 * integrity and the reporter first; a pg-checkout.js changed by one byte on its way is refused, its report
 * reaches the middleware's onPageIntegrityReport and the back office lists it. Reports anyone posts are
 * listed escaped, and the list stays bounded.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { adminSession, backOfficePage } from '@pg-checkout/test-helpers/admin';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { elementsDist } from '../src/platform/build.js';
import { pageReportLog } from '../src/shop/page-report-log.js';
import { demoOnSandbox } from './helpers/demo.js';

const reportsIn = (html: string) =>
  html.slice(
    html.indexOf('id="reports-title"'),
    html.indexOf('</section>', html.indexOf('id="reports-title"')),
  );

describe('payment page reports in the demo', () => {
  const running = demoOnSandbox();
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test("the pages' headers come from paymentPageHeaders: Trusted Types and the report endpoint", async () => {
    const res = await fetch(`${running.demo.url}/script-tag`);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /require-trusted-types-for 'script'/);
    assert.match(csp, /trusted-types lit-html pg-checkout/);
    assert.match(csp, /report-uri \/checkout\/reports/);
    assert.equal(res.headers.get('reporting-endpoints'), 'pg-checkout="/checkout/reports"');
    const html = await res.text();
    const manifest = JSON.parse(readFileSync(join(elementsDist, 'integrity.json'), 'utf8')) as {
      files: { file: string; integrity: string }[];
    };
    for (const file of ['pg-checkout.js', 'pg-checkout.reporter.js'])
      assert.ok(
        html.includes(
          `${file}" integrity="${manifest.files.find((f) => f.file === file)!.integrity}"`,
        ),
        `${file} is loaded with its integrity`,
      );
  });

  test('a pg-checkout.js changed by one byte is refused, reported, and listed in the back office', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.route('**/elements/pg-checkout.js', async (route) => {
        const response = await route.fetch();
        const body = Buffer.from(await response.body());
        const at = body.indexOf('"') + 1;
        body[at] = body[at] === 0x61 ? 0x62 : 0x61;
        await route.fulfill({ response, body });
      });
      await page.goto(`${running.demo.url}/script-tag`);
      const session = await adminSession(running.demo.shop);
      let listed = '';
      const deadline = Date.now() + 10_000;
      while (!listed.includes('/elements/pg-checkout.js') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        listed = reportsIn(await backOfficePage(running.demo.url, session));
      }
      assert.match(listed, /data-kind="script-error"/);
      assert.match(listed, new RegExp(`${running.demo.url}/elements/pg-checkout\\.js`));
      assert.equal(await page.evaluate("!!customElements.get('pg-checkout')"), false);
    } finally {
      await context.close();
    }
  });

  test('a hostile report is listed escaped; the list keeps the last 50', async () => {
    const post = (blockedURL: string) =>
      fetch(`${running.demo.url}/checkout/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/reports+json' },
        body: JSON.stringify([
          {
            type: 'csp-violation',
            url: `${running.demo.url}/`,
            body: { blockedURL, effectiveDirective: 'script-src-elem' },
          },
        ]),
      });
    assert.equal((await post('https://evil.example/"><script>alert(1)</script>')).status, 204);
    const session = await adminSession(running.demo.shop);
    const listed = reportsIn(await backOfficePage(running.demo.url, session));
    assert.doesNotMatch(listed, /<script>/);
    assert.match(listed, /https:\/\/evil\.example\//);
    // The list itself: the hook's reports beyond 50 push out the oldest.
    for (let i = 0; i < 60; i++)
      pageReportLog.add({
        kind: 'csp-violation',
        documentUrl: `${running.demo.url}/`,
        blockedUrl: `https://flood.example/${i}.js`,
        directive: 'script-src-elem',
        disposition: 'enforce',
        receivedAt: Date.now(),
      });
    const flooded = reportsIn(await backOfficePage(running.demo.url, session));
    assert.equal(flooded.match(/data-kind=/g)?.length, 50);
    assert.match(flooded, /flood\.example\/59\.js/);
    assert.doesNotMatch(flooded, /flood\.example\/9\.js/);
  });
});
