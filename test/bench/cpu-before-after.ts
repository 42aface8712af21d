/**
 * The middleware's CPU per card payment, an older tree against this one, in one process (issue
 * 26's "before and after"): each tree bundled with its own packages, with no hook and with a
 * no-op `onPaymentCompleted`, four variants in interleaved rounds. The older tree is a directory
 * holding its `packages/`, e.g. `git archive <commit> packages | tar -x -C /tmp/before`; "after"
 * is this tree unless another is given the same way.
 */
import { resolve } from 'node:path';
import { bundleCheckout, REPO } from './lib/bundle-tree.js';
import { interleave, roundRatio } from './lib/interleave.js';
import { checkoutPayer } from './middleware-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 1_000);
const WARM_UP = 2_000;

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const hook = { onPaymentCompleted: async () => undefined };

export async function benchCpuBeforeAfter(beforeDir: string, afterDir = REPO) {
  // A copy of each tree per variant: no variant's JIT feedback shapes another's code.
  const tree = (root: string, name: string) => bundleCheckout(resolve(root), name);
  const [before, beforeHooked, after, afterHooked] = await Promise.all([
    tree(beforeDir, 'before'),
    tree(beforeDir, 'before-hook'),
    tree(afterDir, 'after'),
    tree(afterDir, 'after-hook'),
  ]);
  const results = await interleave(
    [
      { name: 'before, no hook', run: checkoutPayer(before, { logger: quiet }) },
      { name: 'after, no hook', run: checkoutPayer(after, { logger: quiet }) },
      { name: 'before, no-op hook', run: checkoutPayer(beforeHooked, { logger: quiet, ...hook }) },
      { name: 'after, no-op hook', run: checkoutPayer(afterHooked, { logger: quiet, ...hook }) },
    ],
    { warmUp: WARM_UP, perRound: PER_ROUND, rounds: ROUNDS },
  );
  const [b, a, bh, ah] = results as [
    (typeof results)[0],
    (typeof results)[0],
    (typeof results)[0],
    (typeof results)[0],
  ];
  return {
    rounds: ROUNDS,
    perRound: PER_ROUND,
    noHook: { before: b.ms, after: a.ms, ratio: roundRatio(a, b) },
    hook: { before: bh.ms, after: ah.ms, ratio: roundRatio(ah, bh) },
  };
}
