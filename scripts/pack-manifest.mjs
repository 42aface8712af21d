#!/usr/bin/env node
// `prepack`/`postpack` of every published package: the tarball's package.json loses the workspace-only
// `pg-source` condition (it points at src/, which is not shipped), and every file `exports`, `bin`,
// `main`, `types` and `sideEffects` name must be in the tarball. `postpack` puts the condition back,
// touching nothing else, so a dependency line added meanwhile survives.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [mode] = process.argv.slice(2);
const dir = process.cwd();
const manifestFile = join(dir, 'package.json');
const backupFile = join(dir, '.pack-manifest-backup.json');

const read = () => JSON.parse(readFileSync(manifestFile, 'utf8'));
const write = (pkg) => writeFileSync(manifestFile, `${JSON.stringify(pkg, null, 2)}\n`);

function restore() {
  if (!existsSync(backupFile)) return;
  const saved = JSON.parse(readFileSync(backupFile, 'utf8'));
  const pkg = read();
  for (const key of Object.keys(saved)) pkg[key] = saved[key];
  write(pkg);
  rmSync(backupFile);
}

function withoutSourceCondition(value) {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'pg-source')
      .map(([key, inner]) => [key, withoutSourceCondition(inner)]),
  );
}

function targets(value) {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(targets);
}

function strip() {
  restore(); // an earlier pack that died halfway
  const pkg = read();
  const saved = { exports: pkg.exports };
  if (Array.isArray(pkg.sideEffects)) saved.sideEffects = pkg.sideEffects;
  writeFileSync(backupFile, `${JSON.stringify(saved, null, 2)}\n`);
  pkg.exports = withoutSourceCondition(pkg.exports);
  if (Array.isArray(pkg.sideEffects)) {
    pkg.sideEffects = pkg.sideEffects.filter((path) => !path.startsWith('./src/'));
  }
  const missing = [
    ...targets(pkg.exports),
    ...targets(pkg.bin),
    ...[pkg.main, pkg.module, pkg.types].filter(Boolean),
  ].filter((path) => !path.includes('*') && !existsSync(join(dir, path)));
  write(pkg);
  if (missing.length > 0) {
    restore();
    console.error(
      `${pkg.name}: not built, missing ${missing.join(', ')} (run npm run build first)`,
    );
    process.exit(1);
  }
}

if (mode === 'strip') strip();
else if (mode === 'restore') restore();
else {
  console.error('usage: pack-manifest.mjs strip|restore');
  process.exit(2);
}
