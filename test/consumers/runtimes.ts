// The Fetch handler on runtimes other than Node, from the tarballs: Cloudflare's workerd (through
// Miniflare, without and with nodejs_compat), Bun and Deno, each from its registry package in the app's
// node_modules (the app's allowScripts lets their install scripts place the binaries).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startApp, type Gateway, type RunningApp } from './fetch-apps.js';

export type Runtime =
  'workerd' | 'workerd-nodejs-compat' | 'workerd-durable-object' | 'bun' | 'deno';

/** Starts the app's server for `runtime` on a free port, with the checkout's settings in its environment. */
export async function startRuntime(
  dir: string,
  runtime: Runtime,
  gateway: Gateway,
): Promise<RunningApp> {
  const port = await freePort();
  const bin = (name: string) => join(dir, 'node_modules/.bin', name);
  if (runtime === 'bun') return startApp(dir, bin('bun'), ['src/bun.ts'], gateway, {}, port);
  if (runtime === 'deno') {
    return startApp(
      dir,
      bin('deno'),
      ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', 'src/deno.ts'],
      gateway,
      { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
      port,
    );
  }
  const worker = readFileSync(join(dir, 'dist/worker.js'), 'utf8');
  assert.doesNotMatch(
    worker,
    /from\s*["']node:|import\(["']node:/,
    'the Worker imports no node: module',
  );
  const compat = runtime === 'workerd-nodejs-compat';
  const running = await startApp(
    dir,
    process.execPath,
    ['serve-worker.mjs'],
    gateway,
    runtime === 'workerd-durable-object'
      ? { PG_STORE: 'durable-object' }
      : compat
        ? { PG_NODEJS_COMPAT: '1' }
        : {},
    port,
  );
  const seen = (await (await fetch(`${running.url}/runtime`)).json()) as Record<string, string>;
  // Without the flag the payments below prove the packages need no Node; with it, that the path
  // through `process.getBuiltinModule` (telemetry's lookup) starts in a bundle with no import.meta.url.
  const expected = compat
    ? { process: 'object', Buffer: 'function', getBuiltinModule: 'function' }
    : { process: 'undefined', Buffer: 'undefined', getBuiltinModule: 'undefined' };
  if (JSON.stringify(seen) !== JSON.stringify(expected)) await running.stop();
  assert.deepEqual(seen, expected, 'Node globals in workerd');
  return running;
}
