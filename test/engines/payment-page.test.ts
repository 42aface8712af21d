/**
 * A payment page locked down as PCI DSS 4.0 asks (6.4.3, 11.6.1), over the BUILT script-tag files: each
 * script with its published integrity, the CSP of paymentPageHeaders() with Trusted Types enforced, and
 * in Chromium `Integrity-Policy` too. It pays a plain card, a v2 method step with a challenge and a v1
 * challenge with no violation and no error, in Chromium and Firefox; a script changed by one byte is refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { paymentPageHeaders, type PageIntegrityReport } from '@pg-checkout/server';
import { launch, type Engine, type EngineName } from './engines.js';
import { Shopper, until } from './shopper.js';
import {
  DIST,
  builtFile,
  checkoutPage,
  manifest,
  startPaymentPage,
  type PageRequest,
  type PaymentPage,
} from './payment-page.js';

const ENGINES = (process.env.PG_ENGINES ?? 'chromium,firefox')
  .split(',')
  .map((e) => e.trim())
  .filter((e) => e === 'chromium' || e === 'firefox') as EngineName[];

describe('the integrity manifest', () => {
  test('names every script-tag file with the size and SHA-384 of the bytes shipped', () => {
    const { files } = manifest();
    const shipped = readdirSync(DIST).filter((f) => /^pg-checkout(\.[\w-]+)?\.js$/.test(f));
    assert.deepEqual(files.map((f) => f.file).sort(), shipped.sort());
    for (const f of files) {
      const bytes = builtFile(f.file);
      assert.equal(f.size, bytes.length, f.file);
      assert.equal(
        f.integrity,
        `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
        f.file,
      );
      assert.ok(f.purpose && f.loadedBy, `${f.file} says why it is there and what loads it`);
    }
  });

  test('npx pg-checkout-inventory prints each script, its hash, purpose and where it loads from', () => {
    const bin = fileURLToPath(
      new URL('../../packages/elements/bin/pg-checkout-inventory.mjs', import.meta.url),
    );
    const table = execFileSync(process.execPath, [bin, '--base', 'https://shop.example/js'], {
      encoding: 'utf8',
    });
    const listed = JSON.parse(
      execFileSync(process.execPath, [bin, '--json'], { encoding: 'utf8' }),
    ) as { files: { file: string; integrity: string; url: string }[] };
    for (const f of manifest().files) {
      const row = table
        .split('\n')
        .find((line) => line.startsWith(`| https://shop.example/js/${f.file} |`));
      assert.ok(row, `${f.file} has a row`);
      assert.ok(
        row.includes(f.integrity) && row.includes(String(f.size)),
        `${f.file}: hash and size`,
      );
      assert.ok(row.includes(f.purpose.replaceAll('|', '\\|').slice(0, 20)), `${f.file}: purpose`);
      assert.equal(listed.files.find((l) => l.file === f.file)?.integrity, f.integrity);
    }
  });

  test('the script tag carries the integrity of the files it loads', () => {
    const tag = builtFile('pg-checkout.js').toString('utf8');
    for (const f of manifest().files.filter((f) => /\.(3ds|af)\.js$/.test(f.file)))
      assert.ok(tag.includes(f.integrity), `pg-checkout.js checks ${f.file}`);
  });
});

describe("the README's policy", () => {
  test('is what paymentPageHeaders writes against the http sandbox, the policy the pages below pay under', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const from = readme.indexOf('The policy it writes, against the sandbox');
    const block = /```\n([\s\S]*?)```/.exec(readme.slice(from))![1]!;
    const nonce = 'AAECAwQFBgcICQoLDA0ODw==';
    const { headers } = paymentPageHeaders({
      gatewayOrigin: 'http://127.0.0.1:8787',
      nonce,
      reportTo: '/checkout/reports',
    });
    assert.equal(
      block
        .trim()
        .split(/\s*\n\s*/)
        .join(' ')
        .replaceAll("'nonce-…'", `'nonce-${nonce}'`),
      headers['Content-Security-Policy'],
    );
  });
});

/** The page's headers as a merchant gets them from the builder. */
const lockedDown =
  (engine: EngineName) =>
  ({ nonce, gatewayOrigin }: PageRequest): Record<string, string> =>
    paymentPageHeaders({
      gatewayOrigin,
      nonce,
      reportTo: '/checkout/reports',
      integrityPolicy: engine === 'chromium',
    }).headers;

for (const name of ENGINES)
  describe(`a locked-down payment page in ${name}`, () => {
    let engine: Engine;
    let page: PaymentPage;
    before(async () => {
      engine = await launch(name);
      page = await startPaymentPage({ html: checkoutPage, headers: lockedDown(name) });
    });
    after(async () => {
      await engine?.close();
      await page?.close();
    });

    test('loads Afrikaans (pg-checkout.af.js) through its integrity check', async () => {
      const af = await startPaymentPage({
        html: (request) =>
          checkoutPage(request).replace('methods="card"', 'methods="card" locale="af"'),
        headers: lockedDown(name),
      });
      const tab = await engine.newTab();
      try {
        await tab.open(af.url);
        const shopper = new Shopper(tab);
        await until('the Afrikaans pay button', async () =>
          (await shopper.text('button[part~="submit"]')).startsWith('Betaal'),
        );
        assert.deepEqual(await tab.evaluate<string[]>('return window.pgFaults'), []);
      } finally {
        await tab.close();
        await af.close();
      }
    });

    const FLOWS = [
      ['a plain card', '4111111111111111', false],
      ['a v2 method step, then a challenge', '4000000000003063', true],
      ['a v1 challenge', '4000000000003097', true],
    ] as const;

    for (const [flow, number, challenge] of FLOWS)
      test(`pays ${flow} with no violation and no error`, async () => {
        const tab = await engine.newTab();
        try {
          const shopper = new Shopper(tab);
          await shopper.open(page.url);
          await shopper.payByPointer(number);
          if (challenge) {
            await shopper.bankPage();
            await tab.bankEvaluate(`document.querySelector('#otp').value = '1234'; return true;`);
            await shopper.clickInBank('button[value="submit"]');
          }
          assert.equal(await shopper.finalStatus(), 'approved');
          assert.deepEqual(await tab.evaluate<string[]>('return window.pgFaults'), []);
        } finally {
          await tab.close();
        }
      });
  });

/** The first character of the first string literal of `text`, changed: still valid JavaScript, one byte off. */
function oneByteOff(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  const at = copy.indexOf('"') + 1;
  copy[at] = copy[at] === 0x61 ? 0x62 : 0x61;
  return copy;
}

describe('a script changed by one byte (Chromium)', () => {
  let engine: Engine;
  before(async () => {
    engine = await launch('chromium');
  });
  after(() => engine.close());

  for (const file of ['pg-checkout.js', 'pg-checkout.3ds.js'])
    test(`${file} is refused, never runs, and its report reaches the hook`, async () => {
      const reports: PageIntegrityReport[] = [];
      const page = await startPaymentPage({
        html: checkoutPage,
        headers: lockedDown('chromium'),
        checkout: { onPageIntegrityReport: (report) => void reports.push(report) },
      });
      page.files.set(file, oneByteOff(page.files.get(file)!));
      const tab = await engine.newTab();
      try {
        await tab.open(page.url);
        // pg-checkout.js fetches its 3-D Secure file on the first touch: touch the page.
        await tab.click(5, 5);
        await until(`${file} refused`, () =>
          tab.evaluate<boolean>(
            `return pgFaults.some((f) => f.startsWith('failed to load') && f.endsWith('/elements/${file}'))`,
          ),
        );
        await new Promise((r) => setTimeout(r, 500));
        const defined = await tab.evaluate<Record<string, boolean>>(
          `return { checkout: !!customElements.get('pg-checkout'), v2: !!customElements.get('pg-3ds-v2') }`,
        );
        assert.deepEqual(defined, { checkout: file !== 'pg-checkout.js', v2: false });
        // The page's reporter told the middleware; the hook has it.
        const report = await until('the report', async () =>
          reports.find(
            (r) => r.kind === 'script-error' && r.blockedUrl.endsWith(`/elements/${file}`),
          ),
        );
        assert.equal(report.documentUrl, page.url);
      } finally {
        await tab.close();
        await page.close();
      }
    });
});
