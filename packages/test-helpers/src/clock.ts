import { mock, type MockTracker } from 'node:test';

/**
 * Holds `Date` still from this moment (timers still run) until `release`, or until the end of the
 * test whose `t.mock` was given. The limits count in fixed windows of the wall clock: a test that
 * expects its flood to be refused at the Nth request fails now and then when the flood crosses a
 * window's edge (a 3.5 s flood in a 60 s window: about one run in twenty, once seen in CI). Hold
 * the clock before the app is built: the checkout and its store keep the `Date.now` they found.
 */
export function holdClock(tracker: MockTracker = mock): {
  /** Moves the held clock on, as a wait of `ms` would. */
  tick(ms: number): void;
  release(): void;
} {
  tracker.timers.enable({ apis: ['Date'], now: Date.now() });
  return {
    tick: (ms) => tracker.timers.tick(ms),
    release: () => tracker.timers.reset(),
  };
}
