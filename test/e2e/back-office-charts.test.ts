/**
 * The back office's "last hour" charts, drawn from the checkout's OpenTelemetry metrics, after a
 * few dozen sandbox payments: approvals, declines, 3-D Secure challenges passed, failed and left
 * open. UPDATE_SCREENSHOTS=1 writes the picture into docs/screenshots (the README shows it).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startDemo, type RunningDemo } from 'demo-server/app';
import { completeChallenge, runMethodStep } from '@pg-checkout/test-helpers/bank';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { cardBody as card } from '@pg-checkout/test-helpers/cards';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const shots = join(
  repoRoot,
  process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results/screenshots',
);
const dataDir = mkdtempSync(join(tmpdir(), 'pg-checkout-charts-'));

let demo: RunningDemo;
let browser: Browser;
let shop: string;

before(async () => {
  mkdirSync(shots, { recursive: true });
  demo = await startDemo({
    port: 0,
    host: '127.0.0.1',
    sandboxPort: 0,
    trustProxy: 'loopback',
    database: { kind: 'pglite', dir: dataDir },
    rateLimitPerIp: false,
    // A sample a second, so a few dozen payments in half a minute draw a line.
    metricsSampleMs: 1_000,
    log: () => undefined,
  });
  shop = demo.url.replace('localhost', '127.0.0.1');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await demo?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// The checkout's answers are read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${shop}${path}`, {
    method: 'POST',
    headers: { origin: shop, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return response.json();
}

/** One shopper (no cookie: an order of its own); the status the payment ended in, or `open`. */
async function shopper(i: number): Promise<string> {
  const challenge =
    i % 5 === 0 ? '1234' : i % 11 === 3 ? '0000' : i % 7 === 2 ? 'leave' : undefined;
  if (!challenge) {
    const number =
      i % 4 === 1
        ? i % 8 === 1
          ? '4000000000009995'
          : '4000000000000002'
        : i % 2
          ? '5555555555554444'
          : '4111111111111111';
    return (await post('/checkout/payments', card(number))).status;
  }
  const created = await post('/checkout/payments', card('4000000000003063'));
  await runMethodStep(created.threeDS.methodUrl);
  const secret = { 'x-pg-client-secret': created.clientSecret };
  const step2 = await post(new URL(created.threeDS.confirmUrl).pathname, {}, secret);
  assert.equal(step2.threeDS?.step, 'challenge', JSON.stringify(step2));
  if (challenge === 'leave') return 'open'; // the shopper closed the tab at the bank's page
  await completeChallenge(step2.threeDS, challenge);
  const status = await fetch(`${shop}/checkout/payments/${created.reference}`, { headers: secret });
  return ((await status.json()) as { status: string }).status;
}

test('the back office charts the last hour: approval rate, challenges, gateway p95, waiting hooks', async () => {
  const outcomes: string[] = [];
  for (let i = 0; i < 40; i++) {
    outcomes.push(await shopper(i));
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  const count = (s: string) => outcomes.filter((o) => o === s).length;
  const ended = count('approved') + count('declined') + count('failed');
  assert.ok(count('approved') > 20 && count('declined') > 5 && count('open') > 0, outcomes.join());
  const expected = `${Math.round((count('approved') / ended) * 1000) / 10}%`;

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${shop}/admin`);
  await page.getByLabel('Password').fill(demo.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const charts = page.locator('section.charts');
  await charts.waitFor();
  const approval = charts.locator('figure', { hasText: 'Approval rate' });
  assert.equal(await approval.locator('strong').textContent(), expected);
  assert.equal(await charts.locator('figure svg[role="img"]').count(), 5);
  // The rate drew a line of many points, not a dot.
  const lines = await approval
    .locator('polyline')
    .evaluateAll((all) => all.map((l) => l.getAttribute('points') ?? ''));
  const points = lines.flatMap((l) => l.split(' ').filter(Boolean));
  assert.ok(points.length > 5, `approval lines: ${lines.join(' | ')}`);
  assert.match(
    (await charts.locator('figure', { hasText: 'Gateway p95' }).textContent()) ?? '',
    /≤ \d+(\.\d+)? ms/,
  );
  assert.match(
    (await charts
      .locator('figure', { hasText: 'Hook deliveries waiting' })
      .locator('strong')
      .textContent()) ?? '',
    /^0$/,
  );
  await charts.screenshot({ path: join(shots, 'back-office-charts.png') });
  await context.close();
});
