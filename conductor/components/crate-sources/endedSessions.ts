// Research sessions that ended, remembered for a while: an agent may still send a cancelled
// session's last updates or requests, and they must not reach the user's chat (component.ts).
// Forgotten after a grace period, so the set does not grow for the conductor's lifetime, and so
// that once no research runs the component stops asking for every message toward the editor
// (its wantsRequest / wantsNotification): a user's stream then passes it by again.

/** How long an ended research session's late messages are still kept from the user's chat. */
export const ENDED_GRACE_MS = 60_000;

export class EndedSessions {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly graceMs = ENDED_GRACE_MS) {}

  add(sessionId: string): void {
    clearTimeout(this.timers.get(sessionId));
    const timer = setTimeout(() => this.timers.delete(sessionId), this.graceMs);
    timer.unref(); // a remembered session never keeps the conductor alive
    this.timers.set(sessionId, timer);
  }

  has(sessionId: string): boolean {
    return this.timers.has(sessionId);
  }

  get size(): number {
    return this.timers.size;
  }

  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
