// The checkout's OpenTelemetry instrumentation: spans, metrics, and the few calls the core makes.
export { createTelemetry, NOOP_TELEMETRY, type Telemetry } from './telemetry.js';
export type { TraceOrigin } from '../order/records.js';
export { instrumentGateway } from './gateway.js';
export { METRICS, ATTR, PREFIX } from './names.js';
export type { TelemetryOptions, TracerProviderLike, MeterProviderLike } from '../options.js';
