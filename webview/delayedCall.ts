// A call made a little later, at most one pending at a time: how the webview batches state saves
// (a burst of host messages, or of keystrokes, becomes one setState). Timers are injected so tests
// can run them by hand. Pure.

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class DelayedCall {
  private handle: unknown;
  private pending = false;

  /**
   * `debounce`: each `schedule()` restarts the wait, so the call runs once the calls pause (typing);
   * otherwise the first `schedule()` sets the time and later ones join it (a burst of messages).
   */
  constructor(
    private readonly run: () => void,
    private readonly ms: number,
    private readonly debounce: boolean,
    private readonly timers: Timers = realTimers,
  ) {}

  schedule(): void {
    if (this.pending && !this.debounce) return;
    this.cancel();
    this.pending = true;
    this.handle = this.timers.setTimeout(() => {
      this.pending = false;
      this.run();
    }, this.ms);
  }

  /** Runs a pending call now (the page may be torn down any moment). */
  flush(): void {
    if (!this.pending) return;
    this.cancel();
    this.run();
  }

  /** Drops a pending call (a save that already happened covers it). */
  cancel(): void {
    if (!this.pending) return;
    this.timers.clearTimeout(this.handle);
    this.pending = false;
  }

  isPending(): boolean {
    return this.pending;
  }
}
