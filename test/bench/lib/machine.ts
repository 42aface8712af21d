/** The machine a run came from, printed with every figure. */
import { cpus, loadavg, totalmem } from 'node:os';
import { availableParallelism } from 'node:os';

export function machine(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return [
    `${availableParallelism()} cores (${model})`,
    `${(totalmem() / 1024 ** 3).toFixed(1)} GB RAM`,
    `Node ${process.version}`,
    `load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
    new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  ].join(', ');
}
