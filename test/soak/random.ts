/**
 * The soak's one source of chance: a seeded generator (mulberry32), so a run's faults, pauses and
 * kills are drawn the same way every time. `SOAK_SEED` picks the seed (the soak sets a fixed one;
 * child processes inherit it); each caller names its own stream, so adding a draw in one place
 * does not shift the others.
 */
import { seededRandom } from '@pg-checkout/sandbox';

export const DEFAULT_SEED = 20261126;

export function seeded(
  stream: string,
  seed = Number(process.env.SOAK_SEED ?? DEFAULT_SEED),
): () => number {
  let state = seed >>> 0;
  for (const char of stream) state = Math.imul(state ^ char.charCodeAt(0), 0x9e3779b1) >>> 0;
  // The sandbox's own generator, so its `random` option and the soak draw alike.
  return seededRandom(state);
}
