// Draws at most once per animation frame. A fast agent streams hundreds of updates a second, and
// mynah-ui re-renders a card's whole markdown body on every update it is given, so drawing once per
// host message costs a long reply O(n²) work and garbage. The model (model.ts) still takes every
// message at once; what each message changed is collected here, per tab, and drawn together on the
// next frame. Frames do not run while the page is hidden, so a timer draws then instead.

/** How a drawing is scheduled: the next animation frame, or FALLBACK_MS, whichever comes first. */
export type Schedule = (run: () => void) => void;

const FALLBACK_MS = 100;

export const nextFrame: Schedule = (run) => {
  let ran = false;
  const once = (): void => {
    if (ran) return;
    ran = true;
    run();
  };
  requestAnimationFrame(once);
  setTimeout(once, FALLBACK_MS);
};

export class FrameBatch<Tab extends string = string> {
  private readonly pending = new Map<Tab, Set<string>>();
  private scheduled = false;

  constructor(
    private readonly draw: (tabId: Tab, blockIds: ReadonlySet<string>) => void,
    private readonly schedule: Schedule = nextFrame,
  ) {}

  /** Notes that `blockIds` of `tabId` changed; they are drawn on the next frame. */
  add(tabId: Tab, blockIds: Iterable<string>): void {
    let ids = this.pending.get(tabId);
    if (!ids) this.pending.set(tabId, (ids = new Set()));
    for (const id of blockIds) ids.add(id);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Draws everything pending now (before answering what is on screen). */
  flush(): void {
    this.scheduled = false;
    const due = [...this.pending];
    this.pending.clear();
    for (const [tabId, ids] of due) this.draw(tabId, ids);
  }

  /** Forgets what is pending for `tabId` (it is redrawn whole, or gone). */
  drop(tabId: Tab): void {
    this.pending.delete(tabId);
  }
}
