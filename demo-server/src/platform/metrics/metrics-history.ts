import {
  AggregationTemporality,
  MetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';

/** The checkout's cumulative counts at one moment: what the back office's charts are drawn from. */
export interface Sample {
  at: number;
  approved: number;
  /** Attempts that ended: approved, declined or failed. */
  ended: number;
  challengesStarted: number;
  challengesCompleted: number;
  challengesApproved: number;
  /** Gateway call durations: bucket upper bounds (seconds) and cumulative counts per bucket. */
  boundaries: number[];
  buckets: number[];
  waitingHooks: number;
}

/** What changed between two samples (counts), and the gauge at the end of it. */
export interface Interval {
  at: number;
  approved: number;
  ended: number;
  challengesStarted: number;
  challengesApproved: number;
  /** Gateway calls per duration bucket (upper bounds in `boundaries`, seconds). */
  buckets: number[];
  boundaries: number[];
  waitingHooks: number;
}

/** The rates an interval (or several added up) shows; `undefined` where there was nothing to measure. */
export interface Rates {
  approvalRate: number | undefined;
  challengeRate: number | undefined;
  completionRate: number | undefined;
  gatewayP95Ms: number | undefined;
}

const HOUR_MS = 60 * 60_000;

class HistoryReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

type Points = DataPoint<unknown>[];

const sum = (
  metrics: MetricData[],
  name: string,
  where: (a: Record<string, unknown>) => boolean = () => true,
) =>
  ((metrics.find((m) => m.descriptor.name === name)?.dataPoints ?? []) as Points)
    .filter((p) => where(p.attributes))
    .reduce((total, p) => total + (typeof p.value === 'number' ? p.value : 0), 0);

/** Every gateway operation's histogram added up: p95 of all gateway calls. */
function durations(metrics: MetricData[]): { boundaries: number[]; buckets: number[] } {
  const points = (metrics.find((m) => m.descriptor.name === 'pg_checkout.gateway.call.duration')
    ?.dataPoints ?? []) as DataPoint<Histogram>[];
  const boundaries = points[0]?.value.buckets.boundaries ?? [];
  const buckets = Array<number>(boundaries.length + 1).fill(0);
  for (const point of points) point.value.buckets.counts.forEach((c, i) => (buckets[i]! += c));
  return { boundaries, buckets };
}

/** The upper bound (ms) of the bucket holding the 95th percentile of calls in `counts`. */
function p95Ms(boundaries: number[], counts: number[]): number | undefined {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i]!;
    if (seen >= 0.95 * total) return Math.round((boundaries[i] ?? boundaries.at(-1) ?? 0) * 1000);
  }
  return undefined;
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : undefined);

/** Intervals added up into one (the waiting gauge: its last value). */
export function combine(intervals: Interval[]): Interval | undefined {
  if (intervals.length === 0) return undefined;
  const last = intervals.at(-1)!;
  const add = (key: 'approved' | 'ended' | 'challengesStarted' | 'challengesApproved') =>
    intervals.reduce((n, i) => n + i[key], 0);
  return {
    at: last.at,
    approved: add('approved'),
    ended: add('ended'),
    challengesStarted: add('challengesStarted'),
    challengesApproved: add('challengesApproved'),
    boundaries: last.boundaries,
    buckets: last.boundaries
      .concat(Infinity)
      .map((_, b) => intervals.reduce((n, i) => n + (i.buckets[b] ?? 0), 0)),
    waitingHooks: last.waitingHooks,
  };
}

export function ratesOf(interval: Interval | undefined): Rates {
  if (!interval)
    return {
      approvalRate: undefined,
      challengeRate: undefined,
      completionRate: undefined,
      gatewayP95Ms: undefined,
    };
  return {
    approvalRate: ratio(interval.approved, interval.ended),
    challengeRate: ratio(interval.challengesStarted, interval.ended),
    completionRate: ratio(interval.challengesApproved, interval.challengesStarted),
    gatewayP95Ms: p95Ms(interval.boundaries, interval.buckets),
  };
}

/**
 * The last hour of the checkout's metrics, kept in process for the back office: a sample of the
 * cumulative counts every `sampleMs` (a minute by default), plus one taken when a page is drawn.
 */
export class MetricsHistory {
  readonly reader = new HistoryReader();
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly sampleMs = 60_000) {}

  start(): void {
    this.timer ??= setInterval(() => void this.sample().catch(() => undefined), this.sampleMs);
    this.timer.unref();
    void this.sample().catch(() => undefined);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads the counts now and keeps them, dropping what is older than an hour. */
  async sample(now = Date.now()): Promise<Sample> {
    const { resourceMetrics } = await this.reader.collect();
    const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    const attempts = 'pg_checkout.payment.attempts';
    const outcome = (o: string) => (a: Record<string, unknown>) => a['pg_checkout.outcome'] === o;
    const sample: Sample = {
      at: now,
      approved: sum(metrics, attempts, outcome('approved')),
      ended:
        sum(metrics, attempts, outcome('approved')) +
        sum(metrics, attempts, outcome('declined')) +
        sum(metrics, attempts, outcome('failed')),
      challengesStarted: sum(metrics, 'pg_checkout.three_ds.challenges.started'),
      challengesCompleted: sum(metrics, 'pg_checkout.three_ds.challenges.completed'),
      challengesApproved: sum(
        metrics,
        'pg_checkout.three_ds.challenges.completed',
        outcome('approved'),
      ),
      ...durations(metrics),
      waitingHooks: sum(metrics, 'pg_checkout.hook.deliveries.waiting'),
    };
    this.samples.push(sample);
    this.samples = this.samples.filter((s) => s.at > now - HOUR_MS - this.sampleMs);
    return sample;
  }

  /** The intervals of the last hour, oldest first, the last one ending now; and when the view begins. */
  async lastHour(now = Date.now()): Promise<{ intervals: Interval[]; from: number }> {
    const kept = this.samples.filter((s) => s.at >= now - HOUR_MS && s.at < now);
    const latest = await this.sample(now);
    const series = [...kept, latest];
    const intervals: Interval[] = [];
    for (let i = 1; i < series.length; i++) intervals.push(between(series[i - 1]!, series[i]!));
    return { intervals, from: series[0]!.at };
  }
}

function between(from: Sample, to: Sample): Interval {
  return {
    at: to.at,
    approved: to.approved - from.approved,
    ended: to.ended - from.ended,
    challengesStarted: to.challengesStarted - from.challengesStarted,
    challengesApproved: to.challengesApproved - from.challengesApproved,
    boundaries: to.boundaries,
    buckets: to.buckets.map((c, i) => c - (from.buckets[i] ?? 0)),
    waitingHooks: to.waitingHooks,
  };
}
