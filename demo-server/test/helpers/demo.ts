import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '@pg-checkout/sandbox';
import { forSuite } from '@pg-checkout/test-helpers/suite';
import { startDemo, type RunningDemo } from '../../src/app.js';
import { buildAssets } from '../../src/platform/build.js';
import type { Database, DatabaseConfig } from '../../src/platform/database/db.js';

export const ADMIN_PASSWORD = 'demo test password';

export interface TestDemo extends RunningDemo {
  logs: string[];
  /** What `@pg-checkout/test-helpers/admin` needs of a shop. */
  shop: { url: string; adminPassword: string };
}

/**
 * The demo shop in this process, talking to `gatewayUrl` (a sandbox the test runs, or a proxy in
 * front of it) as to a real gateway, with its orders in `database` or a PGlite folder of its own.
 */
export async function startTestDemo(
  gateway: { baseUrl: string; token: string; secret: string },
  database?: DatabaseConfig | Database,
): Promise<TestDemo> {
  // The pages and the elements' script-tag files, as `npm start` builds them (skipped when up to date):
  // a fresh clone has neither, and the checkout page and its integrity attributes read them.
  await buildAssets(() => undefined);
  const dir = database ? undefined : mkdtempSync(join(tmpdir(), 'pg-checkout-demo-test-'));
  const logs: string[] = [];
  const demo = await startDemo({
    port: 0,
    host: '127.0.0.1',
    sandboxPort: 0,
    gateway,
    adminPassword: ADMIN_PASSWORD,
    trustProxy: 'loopback',
    rateLimitPerIp: false,
    database: database ?? { kind: 'pglite', dir: dir! },
    log: (line) => logs.push(line),
  });
  return {
    ...demo,
    logs,
    shop: { url: demo.url, adminPassword: ADMIN_PASSWORD },
    async close() {
      try {
        await demo.close();
      } finally {
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A sandbox on port 0 and the demo shop talking to it, started before the file's tests and closed
 * after them. Read `sandbox` and `demo` inside tests: they exist once `before` has run.
 */
export const demoOnSandbox = () =>
  forSuite(async () => {
    const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
    const gateway = { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret };
    // A shop that fails to start leaves no sandbox listening behind it.
    const demo = await startTestDemo(gateway).catch(async (error: unknown) => {
      await sandbox.close();
      throw error;
    });
    return {
      sandbox,
      demo,
      async close() {
        await demo.close();
        await sandbox.close();
      },
    };
  });
