// Packs the workspace's packages and installs the tarballs into apps outside the workspace, as a
// merchant's developer would (no links, no workspace resolution).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const appsDir = fileURLToPath(new URL('./apps/', import.meta.url));

/** The published packages, in dependency order. */
export const PACKAGES = [
  'protocol',
  'node',
  'sandbox',
  'server',
  'express',
  'elements',
  'react',
] as const;
export type PackageDir = (typeof PACKAGES)[number];

export interface RunResult {
  code: number;
  out: string;
  ms: number;
}

/** Runs a command, collecting stdout and stderr together; rejects only when it cannot start. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk));
    const timer = setTimeout(() => {
      out += `\n[killed after ${options.timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 600_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, out, ms: Date.now() - started });
    });
  });
}

/** Runs a command and fails the test with its output when it exits non-zero. */
export async function mustRun(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  const result = await run(command, args, options);
  assert.equal(
    result.code,
    0,
    `${command} ${args.join(' ')} in ${options.cwd} failed:\n${result.out.slice(-6000)}`,
  );
  return result;
}

export interface Packed {
  dir: string;
  /** package dir name -> absolute tarball path */
  tarballs: Record<PackageDir, string>;
  /** package dir name -> npm pack's report (files, sizes) */
  reports: Record<PackageDir, PackReport>;
}

export interface PackReport {
  name: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** `npm pack` of every package into a fresh directory outside the workspace. */
export async function packAll(work: string): Promise<Packed> {
  const dir = join(work, 'tarballs');
  mkdirSync(dir, { recursive: true });
  const packing = run(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      dir,
      ...PACKAGES.flatMap((p) => ['-w', `packages/${p}`]),
    ],
    { cwd: repoRoot, env: { npm_config_loglevel: 'error' } },
  );
  const { code, out } = await packing.finally(() =>
    // postpack restores each package.json; this covers a pack that died before it.
    Promise.all(
      PACKAGES.map((p) =>
        run(process.execPath, [join(repoRoot, 'scripts/pack-manifest.mjs'), 'restore'], {
          cwd: join(repoRoot, 'packages', p),
        }),
      ),
    ),
  );
  assert.equal(code, 0, `npm pack failed:\n${out.slice(-4000)}`);
  const reports = JSON.parse(out.slice(out.indexOf('['), out.lastIndexOf(']') + 1)) as PackReport[];
  const byDir = {} as Record<PackageDir, PackReport>;
  const tarballs = {} as Record<PackageDir, string>;
  for (const p of PACKAGES) {
    const report = reports.find((r) => r.name === `@pg-checkout/${p}`);
    assert.ok(report, `npm pack produced @pg-checkout/${p}`);
    byDir[p] = report;
    tarballs[p] = join(dir, report.filename);
  }
  return { dir, tarballs, reports: byDir };
}

/** A scratch directory outside the workspace (and outside any node_modules above it). */
export function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'pg-consumers-'));
}

/**
 * Copies apps/<name> to `work/<name>`, adds the tarballs it needs as `file:` dependencies, and runs
 * one `npm install` (npm's own cache, the one `npm ci` filled, unless `cache` names another).
 */
export async function installApp(
  name: string,
  work: string,
  packed: Packed,
  uses: PackageDir[],
  cache: string | undefined,
): Promise<{ dir: string; ms: number }> {
  const dir = join(work, name);
  cpSync(join(appsDir, name), dir, { recursive: true });
  const manifestFile = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    dependencies?: Record<string, string>;
    overrides?: Record<string, string>;
  };
  // Every @pg-checkout package the app pulls in, directly or through another, comes from its tarball.
  manifest.dependencies = { ...manifest.dependencies };
  manifest.overrides = {};
  for (const p of PACKAGES) {
    const spec = `file:${packed.tarballs[p]}`;
    if (uses.includes(p)) manifest.dependencies[`@pg-checkout/${p}`] = spec;
    manifest.overrides[`@pg-checkout/${p}`] = spec;
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const { ms } = await mustRun(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...(cache ? ['--cache', cache] : []),
    ],
    { cwd: dir, env: { npm_config_update_notifier: 'false' }, timeoutMs: 900_000 },
  );
  return { dir, ms };
}

/** Every file under dir, relative, for error messages and checks. */
export function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}
