import { spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const webDist = join(repoRoot, 'demo-server/dist/web');
export const elementsDist = join(repoRoot, 'packages/elements/dist');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

function isFresh(output: string, ...sources: string[]): boolean {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return sources.every((source) => newestMtime(source) <= built);
}

/**
 * Builds what the shop serves, skipping what is already up to date: the elements' script-tag and
 * ESM builds, then the shop's pages with Vite.
 */
export async function buildAssets(log: (line: string) => void = console.log): Promise<void> {
  // The elements import the protocol's vocabulary (the card brands, the methods): their script-tag
  // files bundle it from its source, their ESM build imports the protocol's dist, as from npm.
  const protocolSrc = join(repoRoot, 'packages/protocol/src');
  const protocolDist = join(repoRoot, 'packages/protocol/dist');
  if (!isFresh(join(protocolDist, 'vocabulary/index.js'), protocolSrc)) {
    log('Building @pg-checkout/protocol…');
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
      cwd: join(repoRoot, 'packages/protocol'),
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error('Building @pg-checkout/protocol failed');
  }
  const elementsSrc = join(repoRoot, 'packages/elements/src');
  // The build script too: it writes the integrity manifest and the hashes pg-checkout.js carries.
  const elementsBuild = join(repoRoot, 'packages/elements/scripts');
  if (!isFresh(join(elementsDist, 'integrity.json'), elementsSrc, elementsBuild, protocolSrc)) {
    log('Building @pg-checkout/elements…');
    // The JavaScript the shop serves only: `npm run build -w @pg-checkout/elements` adds the types.
    const result = spawnSync(process.execPath, ['scripts/build.mjs', '--no-types'], {
      cwd: join(repoRoot, 'packages/elements'),
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error('Building @pg-checkout/elements failed');
  }
  const webSrc = join(repoRoot, 'demo-server/web');
  if (!isFresh(join(webDist, 'index.html'), webSrc, elementsDist, protocolDist)) {
    log('Building the shop pages with Vite…');
    const { build } = await import('vite');
    await build({ configFile: join(repoRoot, 'vite.config.ts') });
  }
}
