import { escapeHtml } from '../platform/html.js';
import { combine, ratesOf, type Interval } from '../platform/metrics/metrics-history.js';

const WIDTH = 240;
const HEIGHT = 56;
const PAD = 3;

interface Chart {
  title: string;
  /** The hour as one number, written large above the line. */
  headline: string;
  /** One value per interval, `undefined` where there was nothing to measure (a gap in the line). */
  values: (number | undefined)[];
  /** The top of the scale (a rate's is 1). */
  max: number;
  describe: string;
}

const percent = (rate: number | undefined) =>
  rate === undefined ? '–' : `${Math.round(rate * 1000) / 10}%`;

/** A line of `values` on a fixed scale, split where a value is missing; plain SVG, no script, no styles. */
function sparkline(chart: Chart, times: number[], from: number, to: number): string {
  const span = Math.max(1, to - from);
  const x = (at: number) => PAD + ((at - from) / span) * (WIDTH - 2 * PAD);
  const y = (v: number) => HEIGHT - PAD - (Math.min(v, chart.max) / chart.max) * (HEIGHT - 2 * PAD);
  const runs: string[][] = [[]];
  chart.values.forEach((value, i) => {
    if (value === undefined) runs.push([]);
    else runs.at(-1)!.push(`${x(times[i]!).toFixed(1)},${y(value).toFixed(1)}`);
  });
  const lines = runs
    .filter((run) => run.length > 0)
    .map((run) =>
      run.length === 1
        ? `<circle cx="${run[0]!.split(',')[0]}" cy="${run[0]!.split(',')[1]}" r="2" fill="currentColor"/>`
        : `<polyline points="${run.join(' ')}" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/>`,
    )
    .join('');
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(chart.describe)}">
<line x1="${PAD}" y1="${HEIGHT - PAD}" x2="${WIDTH - PAD}" y2="${HEIGHT - PAD}" stroke="currentColor" stroke-opacity="0.25"/>${lines}</svg>`;
}

/** At most this many points across a chart; each adds up a few samples, so a line is not all noise. */
const MAX_BINS = 30;

/** The intervals in equal slices of [from, now], two samples or more each; an empty slice is a gap. */
function binned(intervals: Interval[], from: number, now: number) {
  const count = Math.max(1, Math.min(MAX_BINS, Math.round(intervals.length / 2)));
  const width = Math.max(1, (now - from) / count);
  const bins: Interval[][] = Array.from({ length: count }, () => []);
  for (const interval of intervals)
    bins[Math.min(count - 1, Math.max(0, Math.floor((interval.at - from) / width)))]!.push(
      interval,
    );
  return {
    times: bins.map((_, i) => from + (i + 1) * width),
    values: bins.map((bin) => combine(bin)),
  };
}

/**
 * The back office's "last hour" panel: approval rate, challenge rate, challenges passed, gateway
 * p95 and hook deliveries waiting, each a number for the hour and a small line over it.
 */
export function renderCharts(view: { intervals: Interval[]; from: number }, now: number): string {
  const { intervals, from } = view;
  const total = combine(intervals);
  const hour = ratesOf(total);
  const { times, values } = binned(intervals, from, now);
  const rates = values.map((bin) =>
    bin && bin.ended + bin.challengesStarted > 0 ? ratesOf(bin) : undefined,
  );
  const p95s = values.map((bin) => (bin ? ratesOf(bin).gatewayP95Ms : undefined));
  const p95Max = Math.max(100, ...p95s.filter((v): v is number => v !== undefined));
  const waiting = values.map((bin) => bin?.waitingHooks);
  const waitingMax = Math.max(1, ...waiting.filter((v): v is number => v !== undefined));
  const minutes = Math.max(1, Math.round((now - from) / 60_000));
  const charts: Chart[] = [
    {
      title: 'Approval rate',
      headline: percent(hour.approvalRate),
      values: rates.map((r) => r?.approvalRate),
      max: 1,
      describe: `Approval rate over the last ${minutes} minutes: ${percent(hour.approvalRate)}`,
    },
    {
      title: '3-D Secure challenge rate',
      headline: percent(hour.challengeRate),
      values: rates.map((r) => r?.challengeRate),
      max: 1,
      describe: `Payments that met a challenge: ${percent(hour.challengeRate)}`,
    },
    {
      title: 'Challenges passed',
      headline: percent(hour.completionRate),
      values: rates.map((r) => r?.completionRate),
      max: 1,
      describe: `Challenges the shopper passed: ${percent(hour.completionRate)}`,
    },
    {
      title: 'Gateway p95',
      headline: hour.gatewayP95Ms === undefined ? '–' : `≤ ${hour.gatewayP95Ms} ms`,
      values: p95s,
      max: p95Max,
      describe: `95th percentile of gateway calls: ${hour.gatewayP95Ms ?? 'no calls'} ms at most`,
    },
    {
      title: 'Hook deliveries waiting',
      headline: String(total?.waitingHooks ?? 0),
      values: waiting,
      max: waitingMax,
      describe: `Hook deliveries waiting for a retry: ${total?.waitingHooks ?? 0}`,
    },
  ];
  const figures = charts
    .map(
      (chart) => `<figure class="chart">
<figcaption>${escapeHtml(chart.title)} <strong>${escapeHtml(chart.headline)}</strong></figcaption>
${sparkline(chart, times, from, now)}
</figure>`,
    )
    .join('\n');
  const ended = total?.ended ?? 0;
  return `<section aria-labelledby="charts-title" class="charts">
<h2 id="charts-title">Last hour</h2>
<p class="hint">${ended} payment${ended === 1 ? '' : 's'} ended in the last ${minutes} minute${minutes === 1 ? '' : 's'}; sampled in process from the checkout's OpenTelemetry metrics.</p>
<div class="chart-grid">
${figures}
</div>
</section>`;
}
