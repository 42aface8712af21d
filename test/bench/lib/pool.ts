/** Runs `count` jobs with at most `concurrency` in flight; resolves when all are done. */
export async function pool(
  concurrency: number,
  count: number,
  job: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** The value at quantile `q` (0..1) of `values`, which it sorts. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(q * values.length))]!;
}

/** Prints rows as an aligned Markdown table, so a run can be pasted into BENCHMARKS.md. */
export function table(head: string[], rows: (string | number)[][]): void {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(cells[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of cells.slice(1)) console.log(line(r));
  console.log('');
}
