type Task = { at: number; seq: number; run: () => unknown };

/**
 * Sandbox time: real time plus an offset that tests move forward. Timed work (webhook retries,
 * subscription billing, hold reversals, pending refunds) is scheduled on it and runs either when
 * real time reaches it or at once when the clock is advanced past it.
 */
export class SandboxClock {
  private offset = 0;
  private seq = 0;
  private readonly tasks: Task[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private draining: Promise<void> | undefined;

  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  now(): number {
    return Date.now() + this.offset;
  }

  schedule(at: number, run: () => unknown): Task {
    const task = { at, seq: this.seq++, run };
    let lo = 0;
    let hi = this.tasks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tasks[mid]!.at <= at) lo = mid + 1;
      else hi = mid;
    }
    this.tasks.splice(lo, 0, task);
    this.arm();
    return task;
  }

  cancel(task: Task): void {
    const i = this.tasks.indexOf(task);
    if (i >= 0) this.tasks.splice(i, 1);
  }

  pending(): number {
    return this.tasks.length;
  }

  /**
   * Moves time forward, stepping through each due task at its own time (so a task that schedules
   * another sees the right "now"), and resolves once all of them ran.
   */
  async advance(ms: number): Promise<number> {
    const target = this.now() + ms;
    while (this.draining) await this.draining;
    await this.drain(target);
    if (this.now() < target) this.offset += target - this.now();
    return this.now();
  }

  /** Runs due tasks; concurrent callers share one drain so no task runs twice. */
  drain(target?: number): Promise<void> {
    if (!this.draining) {
      this.draining = this.runDue(target).finally(() => {
        this.draining = undefined;
        this.arm();
      });
    }
    return this.draining;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.tasks.length = 0;
  }

  private async runDue(target?: number): Promise<void> {
    while (
      !this.closed &&
      this.tasks.length > 0 &&
      this.tasks[0]!.at <= Math.max(target ?? 0, this.now())
    ) {
      const due = this.tasks[0]!.at;
      if (due > this.now()) this.offset += due - this.now();
      const now = this.now();
      const batch: Task[] = [];
      while (this.tasks.length > 0 && this.tasks[0]!.at <= now) batch.push(this.tasks.shift()!);
      // Tasks due at the same pass run together so one slow webhook does not hold back the rest.
      await Promise.all(
        batch.map(async (t) => {
          try {
            await t.run();
          } catch (err) {
            this.onError(err);
          }
        }),
      );
    }
  }

  private arm(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.tasks[0];
    if (!next || this.draining) return;
    const delay = Math.min(Math.max(0, next.at - this.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => void this.drain(), delay);
    this.timer.unref();
  }
}
