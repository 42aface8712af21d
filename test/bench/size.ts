/**
 * `npm run size`: bytes a merchant's page pays for pg-checkout, beside the floor of a one-property
 * Lit element bundled the same way. Fails when the script-tag file passes its gzip budget.
 */
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { elements, ensureElementsBuilt, root, scriptTag } from './lib/elements-build.js';
import { FLOOR_SOURCE } from './lib/floor.js';

const BUDGET_GZIP = 25 * 1024;
// Issue 29: 19.5 KB, so the next feature has room under the 20 KB it was.
const GOAL_GZIP = 19.5 * 1024;

const dist = join(elements, 'dist');

interface Row {
  name: string;
  raw: number;
  gzip: number;
  brotli: number;
}

function measure(name: string, code: Uint8Array | string): Row {
  const buf = Buffer.from(code);
  return {
    name,
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
      },
    }).length,
  };
}

/** Bundles a file, or inline source resolved from `resolveDir`, as a merchant's bundler would. */
async function bundle(
  entry: string | { contents: string; resolveDir: string },
): Promise<Uint8Array> {
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [entry] }
      : {
          stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: 'js' as const },
        }),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2021',
    write: false,
    absWorkingDir: root,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.contents;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  ensureElementsBuilt();
  const rows: Row[] = [
    measure('script tag: dist/pg-checkout.js (en, 3-D Secure beside it)', readFileSync(scriptTag)),
  ];
  const threeDSFile = join(dist, 'pg-checkout.3ds.js');
  const threeDS = existsSync(threeDSFile)
    ? measure(
        'beside it: dist/pg-checkout.3ds.js (3-D Secure, steps after Pay; first touch)',
        readFileSync(threeDSFile),
      )
    : undefined;
  const afFile = join(dist, 'pg-checkout.af.js');
  const af = existsSync(afFile)
    ? measure('beside it: dist/pg-checkout.af.js (when used)', readFileSync(afFile))
    : undefined;

  // Each element's ESM entry (the file that defines its tag), bundled alone with lit.
  const entries = {
    '3ds-v1': 'three-ds',
    '3ds-v2': 'three-ds',
    'card-form': 'card-form',
    checkout: 'checkout',
  };
  for (const [name, folder] of Object.entries(entries)) {
    const entry = join(dist, folder, `${name}.js`);
    if (existsSync(entry)) rows.push(measure(`ESM <pg-${name}> alone`, await bundle(entry)));
  }

  if (threeDS) rows.push(threeDS);
  if (af) rows.push(af);
  // The floor: the smallest Lit element there is, bundled the same way with the same lit.
  rows.push(
    measure(
      'floor: one-property Lit element',
      await bundle({ contents: FLOOR_SOURCE, resolveDir: elements }),
    ),
  );

  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(
    `${'bundle'.padEnd(width)}  ${'raw'.padStart(9)}  ${'gzip'.padStart(9)}  ${'brotli'.padStart(9)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(width)}  ${kb(r.raw).padStart(9)}  ${kb(r.gzip).padStart(9)}  ${kb(r.brotli).padStart(9)}`,
    );
  }
  const gzip = rows[0]!.gzip;
  console.log(
    `\nscript-tag file: ${kb(gzip)} gzip (${gzip} bytes; with pg-checkout.3ds.js ${kb(gzip + (threeDS?.gzip ?? 0))}); budget ${kb(BUDGET_GZIP)}, goal ${kb(GOAL_GZIP)} ` +
      `(${gzip <= GOAL_GZIP ? 'goal met' : gzip <= BUDGET_GZIP ? `within budget, ${kb(gzip - GOAL_GZIP)} above goal` : 'OVER BUDGET'})`,
  );
  if (gzip > BUDGET_GZIP) process.exit(1);
}

await main();
