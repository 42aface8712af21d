/** Builds packages/elements when its dist is missing, as a clean clone needs before measuring it. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const elements = `${root}packages/elements/`;
export const scriptTag = `${elements}dist/pg-checkout.js`;

export function ensureElementsBuilt(): void {
  if (existsSync(scriptTag)) return;
  console.log('packages/elements/dist is missing: building @pg-checkout/elements first.');
  const built = spawnSync('npm', ['run', 'build', '-w', '@pg-checkout/elements'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0 || !existsSync(scriptTag))
    throw new Error('could not build packages/elements/dist/pg-checkout.js; nothing to measure');
}
