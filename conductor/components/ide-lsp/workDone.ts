// A language server's work-done progress (LSP `$/progress` begin / report / end with title,
// message and percentage): kept to know when a project load is over (workspace queries wait for
// it), and told step by step to whoever waits on the server, so an `ide` tool call's card can say
// "typescript-language-server: Initializing JS/TS language features — 40%".

/** What a server says it is doing (its `$/progress`, or starting), for a waiting tool call's card. */
export interface ServerActivity {
  /** The server's program, e.g. "typescript-language-server". */
  server: string;
  /** "Initializing JS/TS language features — 40%", "starting…". */
  message: string;
  percentage?: number;
  /** The work it names is over (a progress `end`, a finished start). */
  finished?: true;
}

/** One work-done progress in flight. */
interface WorkDone {
  title: string;
  message?: string;
  percentage?: number;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 200) : undefined);
const percent = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100 ? v : undefined);

/** "Initializing JS/TS language features: 3/10 files — 40%". */
export function workDoneText(w: WorkDone): string {
  const title = w.message ? w.title.replace(/(\u2026|\.\.\.)$/, '') : w.title;
  const what = w.message && w.message !== title ? (title ? `${title}: ${w.message}` : w.message) : title || 'working';
  return w.percentage !== undefined ? `${what} — ${Math.round(w.percentage)}%` : what;
}

export class WorkDoneProgress {
  private readonly inFlight = new Map<string | number, WorkDone>();
  private readonly listeners = new Set<(activity: ServerActivity) => void>();
  /** When the server last said something of its work (0: never). */
  lastStepAt = 0;

  constructor(private readonly server: string) {}

  /** Whether some work is under way. */
  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  /** The latest work in flight, if any. */
  get latest(): ServerActivity | undefined {
    const last = [...this.inFlight.values()].pop();
    return last ? this.activity(last) : undefined;
  }

  onStep(listener: (activity: ServerActivity) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes one `$/progress` notification's params (unchecked); returns the step it was, if any. */
  update(params: unknown): ServerActivity | undefined {
    const p = params as { token?: unknown; value?: Record<string, unknown> } | undefined;
    const token = p?.token;
    const value = p?.value;
    if ((typeof token !== 'string' && typeof token !== 'number') || typeof value !== 'object' || value === null) return undefined;
    const known = this.inFlight.get(token);
    let step: ServerActivity | undefined;
    if (value.kind === 'begin') {
      const begun: WorkDone = { title: text(value.title) ?? '' };
      const [message, percentage] = [text(value.message), percent(value.percentage)];
      if (message !== undefined) begun.message = message;
      if (percentage !== undefined) begun.percentage = percentage;
      this.inFlight.set(token, begun);
      step = this.activity(begun);
    } else if (value.kind === 'report' && known) {
      const [message, percentage] = [text(value.message), percent(value.percentage)];
      if (message !== undefined) known.message = message;
      if (percentage !== undefined) known.percentage = percentage;
      step = this.activity(known);
    } else if (value.kind === 'end' && known) {
      this.inFlight.delete(token);
      step = { ...this.activity({ title: known.title, message: 'done' }), finished: true };
    }
    if (step) {
      this.lastStepAt = Date.now();
      for (const l of [...this.listeners]) l(step);
    }
    return step;
  }

  clear(): void {
    this.inFlight.clear();
  }

  private activity(w: WorkDone): ServerActivity {
    return { server: this.server, message: workDoneText(w), ...(w.percentage !== undefined ? { percentage: w.percentage } : {}) };
  }
}
