import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

// Spans nest through async calls only with a context manager (the Node SDK registers this one).
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** Collects on demand: what a scrape would read. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** In-memory providers for one checkout, and readers of what they hold. */
export function inMemoryTelemetry() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    options: { tracerProvider, meterProvider },
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async metrics(): Promise<MetricData[]> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The value of a counter's point whose attributes include `where` (0 when there is none). */
export function sumOf(metrics: MetricData[], name: string, where: Record<string, string> = {}) {
  const metric = metrics.find((m) => m.descriptor.name === name);
  if (!metric) return 0;
  return (metric.dataPoints as DataPoint<unknown>[])
    .filter((p) => Object.entries(where).every(([k, v]) => p.attributes[k] === v))
    .reduce((total, p) => total + (typeof p.value === 'number' ? p.value : 0), 0);
}
