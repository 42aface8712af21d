import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const elements = fileURLToPath(new URL('..', import.meta.url));

/**
 * Serves `/__ssr.json`: `{ html }`, the page of test-support/ssr-render.ts rendered by @lit-labs/ssr in
 * Node from today's sources, for the hydration test. Rendered once, on first request, in a child process
 * (tsx, from the package directory so its tsconfig's decorator settings apply).
 */
export function ssrPlugin() {
  let rendered;
  return {
    name: 'pg-ssr',
    serve(context) {
      if (context.path !== '/__ssr.json') return undefined;
      rendered ??= new Promise((resolve) => {
        execFile(
          process.execPath,
          ['--conditions=pg-source', '--import', 'tsx', 'test-support/ssr-render.ts'],
          { cwd: elements, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 },
          (error, stdout, stderr) =>
            resolve(error ? { error: `${error.message}\n${stderr}` } : { html: stdout }),
        );
      });
      return rendered.then((body) => ({ body: JSON.stringify(body), type: 'json' }));
    },
  };
}
