// Reasons to stop reading one input. Backpressure pauses an input while some output it feeds is
// full; with external proxies in the chain one input feeds several outputs (the editor's, the
// agent's, each proxy's), so the input reads again only once every reason to hold it is gone.
export class Holds {
  private readonly reasons = new Set<string>();

  constructor(private readonly apply: (held: boolean) => void) {}

  set(reason: string, held: boolean): void {
    const before = this.reasons.size > 0;
    if (held) this.reasons.add(reason);
    else this.reasons.delete(reason);
    const after = this.reasons.size > 0;
    if (after !== before) this.apply(after);
  }

  get held(): boolean {
    return this.reasons.size > 0;
  }
}
