import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startDemo } from '../src/app.js';
import { configFromEnv } from '../src/platform/config.js';

describe('SANDBOX_PROFILE for `npm start`', () => {
  test('is read from the environment: default unless strict, anything else refused', () => {
    assert.equal(configFromEnv({}).sandboxProfile, 'default');
    assert.equal(configFromEnv({ SANDBOX_PROFILE: 'strict' }).sandboxProfile, 'strict');
    assert.throws(
      () => configFromEnv({ SANDBOX_PROFILE: 'lenient' }),
      /SANDBOX_PROFILE must be default or strict/,
    );
  });

  test('is passed on to the in-process sandbox, which says so at /_sandbox/choices', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-checkout-demo-profile-'));
    const demo = await startDemo({
      ...configFromEnv({ SANDBOX_PROFILE: 'strict', ADMIN_PASSWORD: 'demo test password' }),
      port: 0,
      sandboxPort: 0,
      rateLimitPerIp: false,
      database: { kind: 'pglite', dir },
      log: () => {},
    });
    try {
      assert.equal(demo.sandboxProfile, 'strict');
      const res = (await (await fetch(`${demo.sandboxUrl}/_sandbox/choices`)).json()) as {
        profile: string;
        choices: { overRefund: string };
      };
      assert.equal(res.profile, 'strict');
      assert.equal(res.choices.overRefund, 'accept');
    } finally {
      await demo.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
