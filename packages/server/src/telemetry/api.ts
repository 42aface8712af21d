import type * as OtelModule from '@opentelemetry/api';

type OtelApi = typeof OtelModule;
type Runtime = { process?: { getBuiltinModule?: (id: string) => unknown } };

/**
 * A Node builtin reached without an import, so the Fetch handler's module graph stays free of Node
 * (Workers without `nodejs_compat` have none: telemetry is then off, the checkout runs the same).
 */
export function builtin<T>(id: string): T | undefined {
  try {
    return (globalThis as Runtime).process?.getBuiltinModule?.(id) as T | undefined;
  } catch {
    return undefined;
  }
}

/**
 * Once, at the first use, never at load: a runtime may refuse it (a bundled Worker with
 * `nodejs_compat` has `process.getBuiltinModule` but no `import.meta.url`), and then there is
 * no `require`, so no telemetry, and no throw.
 */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

const requireOf = once((): ((id: string) => unknown) | undefined => {
  try {
    const from: unknown = import.meta.url;
    if (typeof from !== 'string' || from === '') return undefined;
    return builtin<{ createRequire(from: string): (id: string) => unknown }>(
      'node:module',
    )?.createRequire(from);
  } catch {
    return undefined;
  }
});

const load = <T>(id: string): T | undefined => {
  try {
    return requireOf()?.(id) as T | undefined;
  } catch {
    return undefined;
  }
};

/**
 * `@opentelemetry/api` when the application installed it (an optional peer dependency), else
 * `undefined`: the checkout then measures nothing and costs nothing. Its globals are shared by
 * every copy of the API (CommonJS or ESM), so the application's SDK is found either way.
 */
export const otelApi = once(() => load<OtelApi>('@opentelemetry/api'));

/** The tracer and meter are named after this package and its version (OpenTelemetry's rule for libraries). */
export const instrumentation = once(() => ({
  name: '@pg-checkout/server',
  version: load<{ version: string }>('../../package.json')?.version ?? 'unknown',
}));
