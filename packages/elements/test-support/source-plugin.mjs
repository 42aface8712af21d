import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const allowed =
  /^(?:packages\/[a-z-]+\/src\/[\w./-]+\.ts|packages\/[a-z-]+\/README\.md|docs\/[\w-]+\.md)$/;

/**
 * Serves the repository's sources as they are written (the dev server hands .ts files out compiled, with
 * their types gone), so tests can check the README against the codes and events the code really has:
 * `/__pg-source?file=packages/server/src/errors.ts`, and `?dir=packages/elements/src` for the list of
 * a folder's TypeScript files (tests excluded).
 */
export function sourcePlugin() {
  return {
    name: 'pg-source',
    async serve(context) {
      if (context.path !== '/__pg-source') return undefined;
      const file = context.URL.searchParams.get('file');
      const dir = context.URL.searchParams.get('dir');
      if (file && allowed.test(file) && !file.includes('..'))
        return { body: await readFile(root + file, 'utf8'), type: 'text' };
      if (dir && /^packages\/[a-z-]+\/src$/.test(dir)) {
        const entries = await readdir(root + dir, { recursive: true, withFileTypes: true });
        const files = entries
          .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
          .map((e) => `${e.parentPath.slice(root.length)}/${e.name}`)
          .filter((path) => !path.includes('/test-helpers/'))
          .sort();
        return { body: JSON.stringify(files), type: 'json' };
      }
      return undefined;
    },
  };
}
