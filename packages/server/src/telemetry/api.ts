import { createRequire } from 'node:module';
import type * as OtelModule from '@opentelemetry/api';

type OtelApi = typeof OtelModule;

const require = createRequire(import.meta.url);

/**
 * `@opentelemetry/api` when the application installed it (an optional peer dependency), else
 * `undefined`: the checkout then measures nothing and costs nothing. Its globals are shared by
 * every copy of the API (CommonJS or ESM), so the application's SDK is found either way.
 */
export const otel: OtelApi | undefined = (() => {
  try {
    return require('@opentelemetry/api') as OtelApi;
  } catch {
    return undefined;
  }
})();

/** The tracer and meter are named after this package and its version (OpenTelemetry's rule for libraries). */
export const INSTRUMENTATION = {
  name: '@pg-checkout/server',
  version: (require('../../package.json') as { version: string }).version,
} as const;
