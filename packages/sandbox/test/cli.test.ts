import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { parseEnv } from 'node:util';
import { GatewayClient } from '@pg-checkout/node';

const BIN = fileURLToPath(new URL('../bin/pg-sandbox.js', import.meta.url));

/** Starts the CLI, waits for its banner, runs `check`, then stops it with SIGTERM. */
async function withCli(
  args: string[],
  env: Record<string, string>,
  check: (out: string) => Promise<void>,
): Promise<number | null> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 20_000;
    while (!out.includes('Ctrl-C stops') && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 50));
    await check(out);
  } finally {
    child.kill('SIGTERM');
  }
  return exited;
}

describe('pg-sandbox CLI', () => {
  it('prints its URL, the credentials and the test cards, serves, and stops on SIGTERM', async () => {
    const code = await withCli(
      ['--port', '0'],
      { PG_SANDBOX_TOKEN: 'cli-token', PG_SANDBOX_SECRET: 'cli-secret' },
      async (out) => {
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
        assert.ok(url, out);
        // Lines ready for .env: they parse as dotenv, the base URL is the host alone, and a client
        // configured from them is accepted by the sandbox.
        const env = parseEnv(
          out
            .split('\n')
            .filter((line) => /^PG_\w+=/.test(line))
            .join('\n'),
        );
        assert.deepEqual(env, { PG_BASE_URL: url, PG_TOKEN: 'cli-token', PG_SECRET: 'cli-secret' });
        assert.match(out, /\/pg\/api fails every request/);
        const client = new GatewayClient({
          baseUrl: env.PG_BASE_URL!,
          token: env.PG_TOKEN!,
          secret: env.PG_SECRET!,
        });
        await client.validate();
        assert.doesNotMatch(out, /\d{12,}/, 'no card numbers in the log, not even test cards');
        assert.match(out, /README/);
        const res = await fetch(`${url}/`);
        assert.equal(res.status, 200);
        const cards = await (await fetch(`${url}/_sandbox/test-cards`)).text();
        assert.match(cards, /4000000000003220/);
      },
    );
    assert.equal(code, 0);
  });

  it('--failure-status 4xx sets the failure style (see /_sandbox/settings); any other value is refused', async () => {
    await withCli(['--port', '0', '--failure-status', '4xx'], {}, async (out) => {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      assert.ok(url, out);
      const settings = (await (await fetch(`${url}/_sandbox/settings`)).json()) as {
        failureStatus: string;
      };
      assert.equal(settings.failureStatus, '4xx');
    });
    const child = spawn(process.execPath, [BIN, '--failure-status', '500'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 2);
    assert.match(err, /--failure-status must be 200 or 4xx/);
  });

  it('--profile strict (or SANDBOX_PROFILE=strict) starts the strict profile, said in the banner and by /_sandbox/choices; --help describes it; another value is refused', async () => {
    for (const [args, env] of [
      [['--port', '0', '--profile', 'strict'], {}],
      [['--port', '0', '--seed', '38'], { SANDBOX_PROFILE: 'strict' }],
    ] as const) {
      await withCli([...args], env, async (out) => {
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
        assert.ok(url, out);
        assert.match(out, /profile strict/);
        const res = (await (await fetch(`${url}/_sandbox/choices`)).json()) as {
          profile: string;
          choices: Record<string, unknown>;
        };
        assert.equal(res.profile, 'strict');
        assert.equal(res.choices.duplicateReference, 'new-transaction');
        assert.equal(res.choices.webhooks, 'hostile');
      });
    }
    await withCli(['--port', '0'], {}, async (out) => {
      assert.match(out, /profile default/);
    });
    const help = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    help.stdout.on('data', (c: Buffer) => (text += c.toString()));
    assert.equal(await new Promise<number | null>((resolve) => help.on('exit', resolve)), 0);
    assert.match(text, /--profile\s+default .* or strict/s);
    assert.match(text, /least helpful/);
    assert.match(text, /--seed/);
    const child = spawn(process.execPath, [BIN, '--profile', 'lenient'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 2);
    assert.match(err, /--profile must be default or strict/);
  });

  it('refuses a bad port with usage', async () => {
    const child = spawn(process.execPath, [BIN, '--port', 'abc'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 2);
    assert.match(err, /--port must be a number/);
    assert.match(err, /Usage: pg-sandbox/);
  });
});
