// The embodiment gate: while a session's embodiment turn runs, the user's prompts for that session
// wait here, in arrival order, and are released together when the turn ends. Held prompts are never
// dropped: each leaves either by release (forwarded to the agent) or by cancellation (answered
// here). Pure bookkeeping, no I/O, so the rules are unit-tested on their own.

export class EmbodimentGate<T> {
  private readonly closed = new Map<string, T[]>();

  /** The session's embodiment starts: prompts are held from now on. */
  close(sessionId: string): void {
    if (!this.closed.has(sessionId)) this.closed.set(sessionId, []);
  }

  isClosed(sessionId: string): boolean {
    return this.closed.has(sessionId);
  }

  /** Holds `item` if the gate is closed; false means "not held, forward it now". */
  hold(sessionId: string, item: T): boolean {
    const held = this.closed.get(sessionId);
    if (!held) return false;
    held.push(item);
    return true;
  }

  /** Removes one held item (its request was cancelled); false if it was not held (any more). */
  remove(sessionId: string, item: T): boolean {
    const held = this.closed.get(sessionId);
    const i = held?.indexOf(item) ?? -1;
    if (i < 0) return false;
    held!.splice(i, 1);
    return true;
  }

  /** Takes every held item out, leaving the gate closed (a session/cancel answers them). */
  takeHeld(sessionId: string): T[] {
    const held = this.closed.get(sessionId);
    if (!held) return [];
    return held.splice(0);
  }

  heldCount(sessionId: string): number {
    return this.closed.get(sessionId)?.length ?? 0;
  }

  /** The embodiment ended: opens the gate and returns what waited, in arrival order. */
  open(sessionId: string): T[] {
    const held = this.closed.get(sessionId) ?? [];
    this.closed.delete(sessionId);
    return held;
  }

  /** Every session's held items (the component is disposed); the gate is empty afterwards. */
  drain(): T[] {
    const all = [...this.closed.values()].flat();
    this.closed.clear();
    return all;
  }
}
