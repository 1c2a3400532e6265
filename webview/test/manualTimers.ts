// Test support: timers that run only when a test says so, for code that takes a `Timers`
// (delayedCall.ts). Pure.
import type { Timers } from '../delayedCall';

export class ManualTimers implements Timers {
  private next = 0;
  private readonly due = new Map<number, () => void>();
  /** The wait each setTimeout asked for, in order. */
  readonly asked: number[] = [];

  setTimeout(run: () => void, ms: number): unknown {
    this.asked.push(ms);
    const handle = ++this.next;
    this.due.set(handle, run);
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  get pending(): number {
    return this.due.size;
  }

  /** Runs every timer set so far (and any they set), as if their time had come. */
  runAll(): void {
    while (this.due.size > 0) {
      const [handle, run] = this.due.entries().next().value as [number, () => void];
      this.due.delete(handle);
      run();
    }
  }
}
