// The packages a Fetch handler loads must run where there is no Node: bundled for a neutral platform
// (as a Workers build without nodejs_compat), no module may import a Node builtin or touch Node's globals.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import type * as Server from '../src/index.js';

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const ENTRIES = {
  '@pg-checkout/server (the Fetch handler, the stores, the core)': '../src/index.ts',
  '@pg-checkout/node': '../../node/src/index.ts',
  '@pg-checkout/protocol': '../../protocol/src/index.ts',
};

async function bundle(entry: string, define: Record<string, string> = {}) {
  const imported = new Set<string>();
  const result = await build({
    define,
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    conditions: ['pg-source'],
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-imports',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            imported.add(args.path);
            return undefined;
          });
        },
      },
    ],
  });
  return { imported, text: result.outputFiles[0]!.text };
}

describe('the handler’s module graph is free of Node', () => {
  for (const [name, entry] of Object.entries(ENTRIES)) {
    it(`${name} bundles for a neutral platform with no Node builtin`, async () => {
      // A `node:` import does not resolve on a neutral platform: the build itself fails.
      const { imported, text } = await bundle(entry);
      assert.deepEqual(
        [...imported].filter((path) => NODE_BUILTINS.has(path)),
        [],
        'imports of Node builtins',
      );
      assert.doesNotMatch(text, /\bBuffer\b/, 'uses Buffer');
      assert.doesNotMatch(text, /\brequire\s*\(/, 'calls require');
      assert.doesNotMatch(text, /\b(?:setImmediate|__dirname|__filename)\b/);
      // Deno's and workerd's timers are numbers: `setTimeout(…).unref()` throws there.
      assert.doesNotMatch(text, /\.unref\(\)/, 'calls unref on a timer');
      // `process` only as globalThis.process?.…, which is undefined on Workers.
      assert.doesNotMatch(text, /(?<![\w$.])process\s*(?:\?\.|\.|\[)/, 'reads the global process');
    });
  }
});

describe('no module does work at load that a runtime may refuse', () => {
  it('a bundled Worker with nodejs_compat (process.getBuiltinModule, no import.meta.url) loads and answers, telemetry off', async () => {
    assert.equal(
      typeof process.getBuiltinModule,
      'function',
      'this Node has what nodejs_compat has',
    );
    // What wrangler's bundle gives a Worker: the module has no URL of its own.
    const { text } = await bundle(
      ENTRIES['@pg-checkout/server (the Fetch handler, the stores, the core)'],
      {
        'import.meta.url': 'undefined',
      },
    );
    const dir = await mkdtemp(join(tmpdir(), 'pg-worker-'));
    try {
      const file = join(dir, 'worker.mjs');
      await writeFile(file, text);
      const server = (await import(pathToFileURL(file).href)) as typeof Server;
      const handler = server.createCheckoutHandler({
        gateway: new FakeGateway(),
        webhookSecret: 'whsec',
        publicUrl: 'https://shop.test/checkout',
        environment: 'development',
        resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'worker-1' }),
      });
      const answer = await handler(new Request('https://shop.test/checkout/config'), {
        clientAddress: '203.0.113.9',
      });
      assert.equal(answer.status, 200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
