// Bundles the Worker as wrangler does (its resolve conditions), for a platform with no Node: a
// `node:` import anywhere in the graph fails the build, as it would fail the Worker without nodejs_compat.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/worker.ts'],
  outfile: 'dist/worker.js',
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  external: ['cloudflare:*'],
  target: 'es2022',
  logLevel: 'warning',
});
