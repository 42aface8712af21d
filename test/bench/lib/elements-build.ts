/** Builds packages/elements (and the protocol it imports) when a dist is missing, as a clean clone needs before measuring it. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const elements = `${root}packages/elements/`;
export const scriptTag = `${elements}dist/pg-checkout.js`;

/** The protocol's dist: the elements' ESM build imports its vocabulary, as a merchant's bundler finds it on npm. */
const protocolVocabulary = `${root}packages/protocol/dist/vocabulary/index.js`;

export function ensureElementsBuilt(): void {
  if (!existsSync(protocolVocabulary)) {
    console.log('packages/protocol/dist is missing: building @pg-checkout/protocol first.');
    const built = spawnSync('npm', ['run', 'build', '-w', '@pg-checkout/protocol'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (built.status !== 0 || !existsSync(protocolVocabulary))
      throw new Error('could not build packages/protocol/dist; the elements cannot be bundled');
  }
  if (existsSync(scriptTag)) return;
  console.log('packages/elements/dist is missing: building @pg-checkout/elements first.');
  const built = spawnSync('npm', ['run', 'build', '-w', '@pg-checkout/elements'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0 || !existsSync(scriptTag))
    throw new Error('could not build packages/elements/dist/pg-checkout.js; nothing to measure');
}
