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
import { bundleCheckout, REPO, type CheckoutPackages } from './lib/bundle-tree.js';
import { interleave, roundRatio, type Variant } from './lib/interleave.js';
import { checkoutPayer } from './middleware-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 1_000);
const WARM_UP = 2_000;
// Exports come from each round's flush, never from a timer that would fire in another's round.
const NEVER_BY_TIMER = 3_600_000;

/**
 * The four setups of the issue, then four that say where the SDK's cost goes: telemetry off in a
 * request context of the SDK's context manager (what its HTTP instrumentation gives every
 * request), the trace and metrics SDKs alone, and both with `gatewaySpans: 'never'`.
 * `BENCH_MODES=off,sdk,...` picks some; `off` is always measured, first, as the base.
 */
export const TELEMETRY_CPU_MODES = [
  'off',
  'no-sdk',
  'sdk',
  'prometheus',
  'off-in-context',
  'trace-only',
  'metrics-only',
  'sdk-no-gateway-spans',
] as const;
type Mode = (typeof TELEMETRY_CPU_MODES)[number];

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
  const picked = process.env.BENCH_MODES?.split(',');
  const modes = TELEMETRY_CPU_MODES.filter((m) => m === 'off' || !picked || picked.includes(m));
  const copies = await Promise.all(modes.map((m) => bundleCheckout(REPO, `telemetry-${m}`)));

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

  const flush = async () => {
    await tracerProvider.forceFlush();
    await meterProvider.forceFlush();
    spans.reset();
    points.reset();
  };
  const disable = () => manager.disable();
  const request = context.active().setValue(Symbol('request'), true);
  const setups: Record<Mode, (copy: CheckoutPackages) => Omit<Variant, 'name'>> = {
    off: (copy) => ({ run: checkoutPayer(copy, { telemetry: { enabled: false } }) }),
    'no-sdk': (copy) => ({ run: checkoutPayer(copy) }),
    // The round's spans and metric points exported, then dropped, as a collector takes them.
    sdk: (copy) => ({
      run: checkoutPayer(copy, { telemetry: { tracerProvider, meterProvider } }),
      settle: flush,
      after: disable,
    }),
    prometheus: (copy) => ({
      run: checkoutPayer(copy, { telemetry: { meterProvider: prometheusMeters } }),
      settle: () => scrape(exporter),
      after: disable,
    }),
    'off-in-context': (copy) => {
      const pay = checkoutPayer(copy, { telemetry: { enabled: false } });
      return { run: () => context.with(request, pay), after: disable };
    },
    'trace-only': (copy) => ({
      run: checkoutPayer(copy, { telemetry: { tracerProvider } }),
      settle: flush,
      after: disable,
    }),
    'metrics-only': (copy) => ({
      run: checkoutPayer(copy, { telemetry: { meterProvider } }),
      settle: flush,
      after: disable,
    }),
    'sdk-no-gateway-spans': (copy) => ({
      run: checkoutPayer(copy, {
        telemetry: { tracerProvider, meterProvider, gatewaySpans: 'never' },
      }),
      settle: flush,
      after: disable,
    }),
  };

  const results = await interleave(
    modes.map((mode, i) => ({ name: mode, ...setups[mode](copies[i]!) })),
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
