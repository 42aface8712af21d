/**
 * CPU per call of several variants loaded in one process, measured in interleaved rounds (the
 * first variant moving each round) so every variant sees the same machine load; the figure to
 * read is the median of per-round ratios (`roundRatio`), which survives a busy machine far better
 * than alternating whole runs.
 */
export interface Variant {
  name: string;
  run: () => Promise<void>;
  /** Work the variant owes at the end of its round (an exporter's flush), counted in its CPU. */
  settle?: () => Promise<void>;
  /** After its round, outside the measurement: undo what would cost the other variants. */
  after?: () => void;
}

export interface VariantResult {
  name: string;
  /** CPU ms per call in each round. */
  rounds: number[];
  /** Median CPU ms per call over the rounds. */
  ms: number;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** `a` against `b` within each round: the median, the smallest and the largest. */
export function roundRatio(a: VariantResult, b: VariantResult) {
  const ratios = a.rounds.map((ms, round) => ms / b.rounds[round]!);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

async function measure(variant: Variant, calls: number): Promise<number> {
  // Collected before each round, so a round pays less for the garbage of the one before.
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await variant.run();
  await variant.settle?.();
  const used = process.cpuUsage(before);
  variant.after?.();
  return (used.user + used.system) / 1000 / calls;
}

export async function interleave(
  variants: Variant[],
  { warmUp, perRound, rounds }: { warmUp: number; perRound: number; rounds: number },
): Promise<VariantResult[]> {
  for (const variant of variants) await measure(variant, warmUp);
  const table: number[][] = variants.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < variants.length; k++) {
      const i = (k + round) % variants.length;
      table[i]!.push(await measure(variants[i]!, perRound));
    }
  return variants.map((variant, i) => ({
    name: variant.name,
    rounds: table[i]!,
    ms: median(table[i]!),
  }));
}
