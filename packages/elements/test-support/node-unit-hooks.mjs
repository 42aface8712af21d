// Module hooks for node-unit.mjs: `@open-wc/testing` is chai's `expect` alone in Node.
const shim = new URL('./node-expect.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === '@open-wc/testing') return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
