/**
 * One tree's checkout (`createCheckoutHandler`, `GatewayClient`) bundled into a file of its own, so
 * two trees, or several copies of one, load side by side in one process, each with its own copies
 * of every package and its own JIT state. `@opentelemetry/api` stays outside: the server loads it
 * at runtime from the bundle's place, as it does from its own.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { GatewayClient } from '@pg-checkout/node';
import type { createCheckoutHandler } from '@pg-checkout/server';

/** What the CPU benches take from a tree (an older tree's options are a subset of these). */
export interface CheckoutPackages {
  createCheckoutHandler: typeof createCheckoutHandler;
  GatewayClient: typeof GatewayClient;
}

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
// Inside this tree's node_modules, so the runtime lookup of @opentelemetry/api finds it.
const OUT = join(REPO, 'node_modules', '.cache', 'pg-checkout-bench');

/**
 * Bundles the tree at `root` (a checkout or `git archive` of this repository) as `name`. A tree
 * without node_modules gets links to its own packages, and each package's other dependencies come
 * from this tree's same package (the server and protocol keep zod 4 of their own, the root has 3).
 */
export async function bundleCheckout(root: string, name: string): Promise<CheckoutPackages> {
  const scope = join(root, 'node_modules', '@pg-checkout');
  if (!existsSync(scope)) {
    mkdirSync(scope, { recursive: true });
    for (const pkg of readdirSync(join(root, 'packages'))) {
      symlinkSync(join(root, 'packages', pkg), join(scope, pkg));
      const own = join(REPO, 'packages', pkg, 'node_modules');
      const theirs = join(root, 'packages', pkg, 'node_modules');
      if (existsSync(own) && !existsSync(theirs)) symlinkSync(own, theirs);
    }
  }
  mkdirSync(OUT, { recursive: true });
  const outfile = join(OUT, `${name}.mjs`);
  await build({
    stdin: {
      contents:
        "export { createCheckoutHandler } from '@pg-checkout/server';\n" +
        "export { GatewayClient } from '@pg-checkout/node';\n",
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['pg-source'],
    nodePaths: [join(REPO, 'node_modules')],
    external: ['@opentelemetry/api'],
    outfile,
    logLevel: 'error',
  });
  return (await import(pathToFileURL(outfile).href)) as CheckoutPackages;
}
