// The Fetch handler on runtimes other than Node, from the tarballs: Cloudflare's workerd (through
// Miniflare, without nodejs_compat), Bun and Deno, each from its registry package in the app's
// node_modules (the app's allowScripts lets their install scripts place the binaries).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startApp, type Gateway, type RunningApp } from './fetch-apps.js';

export type Runtime = 'workerd' | 'workerd-durable-object' | 'bun' | 'deno';

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
  const running = await startApp(
    dir,
    process.execPath,
    ['serve-worker.mjs'],
    gateway,
    runtime === 'workerd-durable-object' ? { PG_STORE: 'durable-object' } : {},
    port,
  );
  // The payments below then prove the packages need neither: nodejs_compat is really off.
  const seen = (await (await fetch(`${running.url}/runtime`)).json()) as Record<string, string>;
  if (seen.process !== 'undefined' || seen.Buffer !== 'undefined') await running.stop();
  assert.deepEqual(seen, { process: 'undefined', Buffer: 'undefined' }, 'Node globals in workerd');
  return running;
}
