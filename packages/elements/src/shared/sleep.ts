/** The timers a flow waits with: the page's, or a test's hand clock. */
export interface Clock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const pageClock: Clock = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** Waits `ms`, or less when `signal` aborts; never rejects, so callers check `signal.aborted`. */
export function sleep(ms: number, signal: AbortSignal, clock: Clock = pageClock): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = clock.setTimeout(done, ms);
    function done(): void {
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
