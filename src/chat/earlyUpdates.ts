// Updates for a session whose tab is not bound yet. Agents send e.g. available_commands_update
// right after the session/new response, and the SDK may deliver it before the `await` that
// binds the tab resumes; holding it a little while (bounded) keeps it from being lost. A session
// being loaded (session/load replays the whole conversation before it answers) is captured
// without the bound until its replay is taken. Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { sessionKey } from '../protocol/sessionKey';

export class EarlyUpdates {
  private readonly held = new Map<string, SessionUpdate[]>();
  private readonly capturing = new Set<string>();

  constructor(
    private readonly maxPerSession = 100,
    private readonly keepMs = 10_000,
  ) {}

  hold(actorKey: string, sessionId: string, update: SessionUpdate): void {
    const key = sessionKey(actorKey, sessionId);
    const list = this.held.get(key) ?? [];
    if (this.capturing.has(key)) {
      list.push(update);
      this.held.set(key, list);
      return;
    }
    if (list.length === 0) setTimeout(() => this.held.delete(key), this.keepMs).unref?.();
    if (list.length < this.maxPerSession) list.push(update);
    this.held.set(key, list);
  }

  /** Keeps every update of this session (no bound, no expiry) until `take`. */
  capture(actorKey: string, sessionId: string): void {
    this.capturing.add(sessionKey(actorKey, sessionId));
  }

  take(actorKey: string, sessionId: string): SessionUpdate[] {
    const key = sessionKey(actorKey, sessionId);
    this.capturing.delete(key);
    const list = this.held.get(key) ?? [];
    this.held.delete(key);
    return list;
  }
}
