import { pageClock, type Clock } from '../shared/sleep.js';

/** How long before a challenge's end the shopper is warned: a fifth of the time, and 20 s at least (WCAG 2.2.1). */
export function warnAhead(ms: number): number {
  return Math.min(ms, Math.max(20_000, ms / 5));
}

export interface ChallengeDeadline {
  /** Resolves when the time is up; never once the signal aborted. */
  ended: Promise<void>;
  /** Starts the whole time again (the shopper asked for more). */
  extend(): void;
}

/** A challenge's time limit that says, `warnAhead(ms)` before its end, how many seconds are left. */
export function challengeDeadline(
  ms: number,
  signal: AbortSignal,
  warn: (secondsLeft: number) => void,
  clock: Clock = pageClock,
): ChallengeDeadline {
  let timers: unknown[] = [];
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const clear = (): void => timers.forEach((timer) => clock.clearTimeout(timer));
  const extend = (): void => {
    clear();
    if (signal.aborted) return;
    const ahead = warnAhead(ms);
    timers = [
      clock.setTimeout(() => warn(Math.round(ahead / 1000)), ms - ahead),
      clock.setTimeout(end, ms),
    ];
  };
  signal.addEventListener('abort', clear, { once: true });
  extend();
  return { ended, extend };
}
