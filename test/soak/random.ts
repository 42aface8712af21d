/**
 * The soak's one source of chance: a seeded generator (mulberry32), so a run's faults, pauses and
 * kills are drawn the same way every time. `SOAK_SEED` picks the seed (the soak sets a fixed one;
 * child processes inherit it); each caller names its own stream, so adding a draw in one place
 * does not shift the others.
 */
export const DEFAULT_SEED = 20261126;

export function seeded(
  stream: string,
  seed = Number(process.env.SOAK_SEED ?? DEFAULT_SEED),
): () => number {
  let state = seed >>> 0;
  for (const char of stream) state = Math.imul(state ^ char.charCodeAt(0), 0x9e3779b1) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
