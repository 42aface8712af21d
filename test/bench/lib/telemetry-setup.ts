/**
 * The OpenTelemetry setups the telemetry bench compares, as the app child builds them from
 * `TELEMETRY`: `off` (telemetry: { enabled: false }, the checkout as it was), `no-sdk` (the API
 * installed, nothing registered), `sdk` (trace and metrics SDKs with in-memory exporters),
 * `prometheus` (the metrics SDK with the Prometheus exporter, scraped every second).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { CheckoutOptions } from '@pg-checkout/express';

export const TELEMETRY_MODES = ['off', 'no-sdk', 'sdk', 'prometheus'] as const;
export type TelemetryMode = (typeof TELEMETRY_MODES)[number];

/** The `telemetry` option for a mode (and whatever it runs beside the app: exporters, a scraper). */
export async function telemetryFor(
  mode: TelemetryMode,
): Promise<CheckoutOptions['telemetry'] | undefined> {
  if (mode === 'off') return { enabled: false };
  if (mode === 'no-sdk') return undefined;
  // What the Node SDK registers: spans follow async calls.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (mode === 'sdk') {
    const spans = new InMemorySpanExporter();
    const points = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    // Exported every second and dropped, as a collector would take them away.
    setInterval(() => {
      spans.reset();
      points.reset();
    }, 1_000).unref();
    return {
      tracerProvider: new BasicTracerProvider({
        spanProcessors: [new BatchSpanProcessor(spans, { scheduledDelayMillis: 1_000 })],
      }),
      meterProvider: new MeterProvider({
        readers: [
          new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 1_000 }),
        ],
      }),
    };
  }
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const server = createServer((req, res) => exporter.getMetricsRequestHandler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  // Prometheus scraping every second (ten times its usual rate), served by this process.
  setInterval(() => void fetch(url).then((r) => r.text()), 1_000).unref();
  return { meterProvider: new MeterProvider({ readers: [exporter] }) };
}
