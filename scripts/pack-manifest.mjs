#!/usr/bin/env node
// `prepack`/`postpack` of every published package: the tarball's package.json loses the workspace-only
// `pg-source` condition (it points at src/, which is not shipped) and the workspace's scripts, and every
// file `exports`, `bin`, `main` and `types` name must be in the tarball. `postpack` puts them back,
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
  const { order, fields } = JSON.parse(readFileSync(backupFile, 'utf8'));
  const pkg = { ...read(), ...fields };
  // Keys in their old order; any added meanwhile stay, at the end.
  const keys = [...order.filter((key) => key in pkg), ...Object.keys(pkg)];
  write(Object.fromEntries([...new Set(keys)].map((key) => [key, pkg[key]])));
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
  const fields = { exports: pkg.exports, scripts: pkg.scripts, sideEffects: pkg.sideEffects };
  writeFileSync(backupFile, `${JSON.stringify({ order: Object.keys(pkg), fields }, null, 2)}\n`);
  pkg.exports = withoutSourceCondition(pkg.exports);
  // The workspace's build and test scripts run files the tarball does not have (npm read postpack already).
  delete pkg.scripts;
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
