// The checkout's OpenTelemetry instrumentation: spans, metrics, and the few calls the core makes.
export { createTelemetry, NOOP_TELEMETRY, type Telemetry, type TraceOrigin } from './telemetry.js';
export { instrumentGateway } from './gateway.js';
export { useCaseOf } from './use-cases.js';
export { METRICS, ATTR, PREFIX } from './names.js';
export type { TelemetryOptions, TracerProviderLike, MeterProviderLike } from './options.js';
