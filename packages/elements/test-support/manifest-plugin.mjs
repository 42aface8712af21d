import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Writes custom-elements.json from the classes' JSDoc before the tests run (it is generated, not
 * committed), so the theming tests check the parts and properties the manifest documents today.
 */
export function manifestPlugin() {
  return {
    name: 'pg-manifest',
    serverStart() {
      execFileSync('npx', ['cem', 'analyze'], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    },
  };
}
