#!/usr/bin/env node
// Runs the built CLI; without a complete build it runs the TypeScript source through tsx, so a fresh clone works.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const source = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

function fromSource() {
  if (!existsSync(source)) {
    // An installed package ships dist/ only: nothing to fall back to.
    console.error(
      'pg-sandbox: dist/cli.js is missing from this install; reinstall @pg-checkout/sandbox.',
    );
    process.exit(1);
  }
  let tsx;
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    console.error(
      'pg-sandbox: the build is missing; run `npm run build` at the repository root first.',
    );
    process.exit(1);
  }
  const child = spawn(
    process.execPath,
    ['--conditions=pg-source', '--import', tsx, source, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (existsSync(dist)) {
  try {
    await import(pathToFileURL(dist).href);
  } catch (err) {
    // A sibling package not built yet (in the repository only): the source still runs.
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !existsSync(source)) throw err;
    fromSource();
  }
} else {
  fromSource();
}
