import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo, type RunningDemo } from '../../src/app.js';
import type { Database, DatabaseConfig } from '../../src/db.js';

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
