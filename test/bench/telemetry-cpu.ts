/**
 * What OpenTelemetry costs the middleware per card payment, in one process (issue 27): telemetry
 * off, the API installed with no SDK, the trace and metrics SDKs with in-memory exporters, and the
 * metrics SDK with the Prometheus exporter, each a copy of this tree's checkout of its own, the
 * gateway answered in memory, in interleaved rounds.
 */
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
import type { ServerResponse } from 'node:http';
import { bundleCheckout, REPO } from './lib/bundle-tree.js';
import { interleave, roundRatio } from './lib/interleave.js';
import { checkoutPayer } from './middleware-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const PER_ROUND = 1_000;
const WARM_UP = 2_000;
// Exports come from each round's flush, never from a timer that would fire in another's round.
const NEVER_BY_TIMER = 3_600_000;

export const TELEMETRY_CPU_MODES = ['off', 'no-sdk', 'sdk', 'prometheus'] as const;

/** One Prometheus scrape without the socket: the exporter collects and serializes. */
const scrape = (exporter: PrometheusExporter) =>
  new Promise<void>((resolve) =>
    exporter.getMetricsRequestHandler(
      undefined as never,
      {
        statusCode: 0,
        setHeader: () => undefined,
        end: () => resolve(),
      } as never as ServerResponse,
    ),
  );

export async function benchTelemetryCpu() {
  const copy = (name: string) => bundleCheckout(REPO, `telemetry-${name}`);
  const [off, noSdk, sdk, prometheus] = await Promise.all(TELEMETRY_CPU_MODES.map(copy));

  // What the Node SDK registers: spans follow async calls. Disabled after each round that uses
  // it, so its async hook does not slow the other setups' rounds.
  const manager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(manager);

  const spans = new InMemorySpanExporter();
  const points = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(spans, { scheduledDelayMillis: NEVER_BY_TIMER })],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: points,
        exportIntervalMillis: NEVER_BY_TIMER,
      }),
    ],
  });
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const prometheusMeters = new MeterProvider({ readers: [exporter] });

  const results = await interleave(
    [
      { name: 'off', run: checkoutPayer(off, { telemetry: { enabled: false } }) },
      { name: 'no-sdk', run: checkoutPayer(noSdk) },
      {
        name: 'sdk',
        run: checkoutPayer(sdk, { telemetry: { tracerProvider, meterProvider } }),
        // The round's spans and metric points exported, then dropped, as a collector takes them.
        settle: async () => {
          await tracerProvider.forceFlush();
          await meterProvider.forceFlush();
          spans.reset();
          points.reset();
        },
        after: () => manager.disable(),
      },
      {
        name: 'prometheus',
        run: checkoutPayer(prometheus, { telemetry: { meterProvider: prometheusMeters } }),
        settle: () => scrape(exporter),
        after: () => manager.disable(),
      },
    ],
    { warmUp: WARM_UP, perRound: PER_ROUND, rounds: ROUNDS },
  );
  await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown(), exporter.shutdown()]);
  context.disable();
  const base = results[0]!;
  return {
    rounds: ROUNDS,
    perRound: PER_ROUND,
    modes: results.map((r) => ({ mode: r.name, ms: r.ms, ratio: roundRatio(r, base) })),
  };
}
