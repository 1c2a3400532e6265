// Updates for a session whose tab is not bound yet. Agents send e.g. available_commands_update
// right after the session/new response, and the SDK may deliver it before the `await` that
// binds the tab resumes; holding it a little while (bounded) keeps it from being lost. Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { sessionKey } from '../protocol/sessionKey';

export class EarlyUpdates {
  private readonly held = new Map<string, SessionUpdate[]>();

  constructor(
    private readonly maxPerSession = 100,
    private readonly keepMs = 10_000,
  ) {}

  hold(actorKey: string, sessionId: string, update: SessionUpdate): void {
    const key = sessionKey(actorKey, sessionId);
    const list = this.held.get(key) ?? [];
    if (list.length === 0) setTimeout(() => this.held.delete(key), this.keepMs).unref?.();
    if (list.length < this.maxPerSession) list.push(update);
    this.held.set(key, list);
  }

  take(actorKey: string, sessionId: string): SessionUpdate[] {
    const key = sessionKey(actorKey, sessionId);
    const list = this.held.get(key) ?? [];
    this.held.delete(key);
    return list;
  }
}
