// Starts an app's server (built from test/consumers/shared/server.ts) and pays through its page in
// headless Chromium, as a shopper would.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import {
  acsFrame,
  answerChallenge,
  checkout,
  finalStatus,
  payWithCard,
  shopperMessage,
} from '../support/checkout.js';

export interface AppServer {
  url: string;
  sandbox: string;
  stop(): Promise<void>;
}

/** `node build/server.js` (or `entry`) in `dir`; resolves once it printed its URLs. */
export async function startServer(
  dir: string,
  staticDir: string,
  entry = 'build/server.js',
): Promise<AppServer> {
  const child = spawn(process.execPath, [entry], {
    cwd: dir,
    env: { ...process.env, STATIC_DIR: staticDir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the server in ${dir} exited (${code}) before listening`);
    }),
  ]);
  const { url, sandbox } = JSON.parse(first) as { url: string; sandbox: string };
  return {
    url,
    sandbox,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin.end(); // the server stops when its stdin closes
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Paid {
  reference: string;
  steps: string;
  ms: number;
}

/**
 * Opens the shop's page in a fresh context, pays with `card` (answering the bank's challenge with
 * 1234 when there is one), and checks the outcome three ways: the element's status, the app's own
 * `pg-approved` listener (#outcome) and the server's `onPaymentCompleted` (/paid).
 */
export async function pay(
  browser: Browser,
  server: AppServer,
  card: string,
  challenge: boolean,
): Promise<Paid> {
  const started = Date.now();
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await page.goto(server.url);
    await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
    await payWithCard(page, { number: card });
    if (challenge) {
      const frame = await acsFrame(page, server.sandbox);
      await answerChallenge(frame, { otp: '1234' });
    }
    const status = await finalStatus(page, 45_000);
    assert.equal(status, 'approved', `${card}: ${status} "${await shopperMessage(page)}"`);
    const reference = (await checkout(page).getAttribute('reference')) ?? '';
    await page.locator('#outcome', { hasText: 'approved' }).waitFor({ timeout: 5000 });
    assert.equal(
      await page.locator('#outcome').textContent(),
      `approved ${reference}`,
      "the app's own pg-approved listener heard the payment",
    );
    const steps = (await page.locator('#steps').textContent()) ?? '';
    if (challenge) assert.match(steps, /2:challenge/, 'pg-threeds-start reached the app');
    const paid = (await (await fetch(`${server.url}/paid`)).json()) as { reference: string }[];
    assert.ok(
      paid.some((p) => p.reference === reference),
      `the server's onPaymentCompleted saw ${reference}`,
    );
    assert.deepEqual(errors, [], 'no uncaught error in the page');
    return { reference, steps, ms: Date.now() - started };
  } finally {
    await context.close();
  }
}
