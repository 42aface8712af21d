/**
 * `npm start` serves while the pages still build (issue 36: serving within 10 s of the command): a
 * shopper who asks meanwhile waits for the page, never meets a 500 for a page not built yet.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSandbox } from '@pg-checkout/sandbox';
import { startDemo } from '../src/app.js';
import { buildAssets } from '../src/platform/build.js';

test('a page asked for while the assets build waits for them, then answers 200', async () => {
  await buildAssets(() => undefined);
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const dir = mkdtempSync(join(tmpdir(), 'pg-checkout-demo-starting-'));
  let finish!: () => void;
  const assetsReady = new Promise<void>((resolve) => (finish = resolve));
  const demo = await startDemo({
    port: 0,
    host: '127.0.0.1',
    sandboxPort: 0,
    gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
    adminPassword: 'starting test password',
    trustProxy: 'loopback',
    rateLimitPerIp: false,
    database: { kind: 'pglite', dir },
    log: () => undefined,
    assetsReady,
  });
  try {
    let answered = false;
    const page = fetch(`${demo.url}/`).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(answered, false, 'no answer while the pages build');
    finish();
    const response = await page;
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<pg-checkout/);
  } finally {
    await demo.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
