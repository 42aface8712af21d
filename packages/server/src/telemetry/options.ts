/** A tracer provider, as `@opentelemetry/api`'s `TracerProvider` (typed loosely: the API is an optional peer). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** A meter provider, as `@opentelemetry/api`'s `MeterProvider`. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/** The `telemetry` option of `createCheckout` and `createCheckoutHandler`. */
export interface TelemetryOptions {
  /** Where spans go. Default: the application's global provider (the Node SDK registers one). */
  tracerProvider?: TracerProviderLike;
  /** Where metrics go. Default: the application's global provider. */
  meterProvider?: MeterProviderLike;
  /**
   * Client spans for gateway calls. `'auto'` (default): ours, unless the application already
   * traces `fetch` (undici's instrumentation is subscribed), whose spans then stand in their place;
   * `'always'`, `'never'`. The call duration histogram is recorded in every case.
   */
  gatewaySpans?: 'auto' | 'always' | 'never';
  /** `false` turns all of it off, whatever the application registered. Default `true`. */
  enabled?: boolean;
}
