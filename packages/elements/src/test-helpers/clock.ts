import type { Clock } from '../shared/sleep.js';

/** Lets promises, Lit's renders and events queued on the real page settle. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** A clock a test moves by hand: timers run only inside `tick`, in the order they are due. */
export class HandClock implements Clock {
  now = 0;
  private readonly timers = new Map<number, { at: number; run: () => void }>();
  private lastId = 0;

  setTimeout(run: () => void, ms: number): number {
    this.lastId += 1;
    this.timers.set(this.lastId, { at: this.now + Math.max(0, ms), run });
    return this.lastId;
  }

  clearTimeout(timer: unknown): void {
    this.timers.delete(timer as number);
  }

  /** Timers waiting to run. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on by `ms`, running every timer due meanwhile and letting what it started settle. */
  async tick(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      await settle();
      let next: [number, { at: number; run: () => void }] | undefined;
      for (const entry of this.timers)
        if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.timers.delete(next[0]);
      this.now = next[1].at;
      next[1].run();
    }
    this.now = end;
    await settle();
  }
}
