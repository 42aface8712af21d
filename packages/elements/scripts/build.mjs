// Builds dist/: ESM per source file (one entry per element, class files without side effects), the
// declarations, one minified IIFE for a script tag (lit inside) and custom-elements.json.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
const iifeFile = join(dist, 'pg-checkout.js');
const BUDGET = 25 * 1024;
const sizeOnly = process.argv.includes('--size-only');

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test-helpers' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

const tsconfig = join(root, 'tsconfig.json');

async function buildIife() {
  const result = await build({
    entryPoints: [join(src, 'index.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'PgCheckout',
    minify: true,
    target: 'es2021',
    tsconfig,
    legalComments: 'none',
    outfile: iifeFile,
    metafile: true,
    logLevel: 'warning',
  });
  const bytes = Object.values(result.metafile.outputs)[0].bytes;
  const { readFileSync } = await import('node:fs');
  const gzipped = gzipSync(readFileSync(iifeFile), { level: 9 }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `dist/pg-checkout.js: ${kb(bytes)} minified, ${kb(gzipped)} gzip (budget ${kb(BUDGET)})`,
  );
  if (gzipped > BUDGET) {
    console.error('pg-checkout.js is over its size budget');
    process.exitCode = 1;
  }
}

if (!sizeOnly) {
  rmSync(dist, { recursive: true, force: true });
  await build({
    entryPoints: sources(src),
    outdir: dist,
    outbase: src,
    format: 'esm',
    target: 'es2022',
    tsconfig,
    logLevel: 'warning',
  });
  console.log(`dist/: ${sources(src).length} ESM modules`);
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  console.log('dist/: declarations');
  execFileSync(
    'npx',
    [
      'cem',
      'analyze',
      '--litelement',
      '--globs',
      'src/components/*/*.component.ts',
      'src/internal/three-ds-element.ts',
      '--outdir',
      '.',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  console.log(
    `${relative(process.cwd(), join(root, 'custom-elements.json')) || 'custom-elements.json'}: written`,
  );
}
await buildIife();
