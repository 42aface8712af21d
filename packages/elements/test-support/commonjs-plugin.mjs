import { build } from 'esbuild';

/**
 * The dev server serves node_modules as-is, and browsers cannot load CommonJS; this serves the named
 * CommonJS packages as one ESM bundle each (the production build bundles them the same way).
 */
export function commonJsPlugin(packages) {
  const cache = new Map();
  return {
    name: 'pg-commonjs',
    async serve(context) {
      const match = packages.find((name) => context.path.includes(`/node_modules/${name}/`));
      if (!match || !context.path.endsWith('.js')) return undefined;
      if (!cache.has(match)) {
        const result = await build({
          entryPoints: [match],
          bundle: true,
          format: 'esm',
          write: false,
          logLevel: 'silent',
        });
        cache.set(match, result.outputFiles[0].text);
      }
      return { body: cache.get(match), type: 'js' };
    },
  };
}
