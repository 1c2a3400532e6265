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
    /** The wait, or how to tell it at each schedule() (see SpacedByCost). */
    private readonly ms: number | (() => number),
    private readonly debounce: boolean,
    private readonly timers: Timers = realTimers,
  ) {}

  schedule(): void {
    if (this.pending && !this.debounce) return;
    this.cancel();
    this.pending = true;
    this.handle = this.timers.setTimeout(
      () => {
        this.pending = false;
        this.run();
      },
      typeof this.ms === 'number' ? this.ms : this.ms(),
    );
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

/**
 * A wait that keeps a repeated call's share of the thread small: `factor` times what the call last
 * took, within [minMs, maxMs]. How the webview spaces its state saves in a long reply: a save
 * copies every tab, so as the conversation grows each costs more, and they come further apart.
 * Nothing waits on them: the host keeps every message until a save acknowledges it, and a page
 * being hidden or torn down saves at once.
 */
export class SpacedByCost {
  private lastMs = 0;

  constructor(private readonly bounds: { minMs: number; maxMs: number; factor: number }) {}

  /** What the call took the last time. */
  record(ms: number): void {
    this.lastMs = ms;
  }

  get ms(): number {
    const { minMs, maxMs, factor } = this.bounds;
    return Math.min(maxMs, Math.max(minMs, factor * this.lastMs));
  }
}
