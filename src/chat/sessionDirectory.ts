// The session directory: which chat tab shows which agent session, and where that session works
// (tab ↔ session ↔ workspace folder ↔ agent), plus the prompt turn running in the tab. Created at
// activation before everything that asks it: the chat controller binds and unbinds sessions, the
// editor's file and terminal handlers look sessions up (lookupSession), the permission broker
// finds the tab to ask in (turnFor). Ending a binding fires onDidEndSession, so nothing tied to a
// session (its terminals, its command approvals) outlives it. Pure.
import type { MessageId, TabId } from '../protocol/webview';
import { Emitter } from '../util/emitter';
import { Router, type SessionRef } from './router';
import { sessionFolders, type SessionInfo } from '../agents/clientHandlers';

export type { SessionRef } from './router';

/** A session as the editor's handlers see it: its tab, its workspace folder and its agent. */
type Where = Omit<SessionInfo, 'tabId'>;

export class SessionDirectory {
  private readonly router = new Router();
  private readonly where = new Map<TabId, Where>();
  private readonly turns = new Map<TabId, MessageId>();
  private readonly ended = new Emitter<SessionRef>();

  /** A tab's session ended (tab closed, restart, the agent process died). */
  readonly onDidEndSession = this.ended.event;

  /** The tab now shows this session, which works in `cwd` (and its additional directories) for `agentName`. */
  bind(tabId: TabId, ref: SessionRef, where: Where): void {
    this.router.bind(tabId, ref);
    this.where.set(tabId, { ...where, additionalDirectories: [...(where.additionalDirectories ?? [])] });
  }

  /** The folders of the session a tab shows (empty: no session). */
  foldersOf(tabId: TabId): string[] {
    const where = this.where.get(tabId);
    return where ? sessionFolders(where) : [];
  }

  sessionFor(tabId: TabId): SessionRef | undefined {
    return this.router.sessionFor(tabId);
  }

  tabFor(ref: SessionRef): TabId | undefined {
    return this.router.tabFor(ref);
  }

  /** Which tab and workspace folder a session belongs to (undefined: no tab shows it). */
  lookupSession(actorKey: string, sessionId: string): SessionInfo | undefined {
    const tabId = this.router.tabFor({ actorKey, sessionId });
    const where = tabId === undefined ? undefined : this.where.get(tabId);
    return tabId !== undefined && where ? { tabId, ...where } : undefined;
  }

  /** The tab showing a session and the prompt turn running there, if any. */
  turnFor(actorKey: string, sessionId: string): { tabId: TabId; messageId?: MessageId } | undefined {
    const tabId = this.router.tabFor({ actorKey, sessionId });
    return tabId === undefined ? undefined : { tabId, messageId: this.turns.get(tabId) };
  }

  /** A prompt turn started in the tab (its answers and approval cards belong to this message). */
  startTurn(tabId: TabId, messageId: MessageId): void {
    this.turns.set(tabId, messageId);
  }

  endTurn(tabId: TabId): void {
    this.turns.delete(tabId);
  }

  /** Ends the tab's session (if it has one); returns it. */
  unbindTab(tabId: TabId): SessionRef | undefined {
    const ref = this.router.unbindTab(tabId);
    this.where.delete(tabId);
    if (ref) this.ended.fire(ref);
    return ref;
  }

  /** Ends every session of one agent process (it died or restarts); returns their tabs. */
  unbindActor(actorKey: string): TabId[] {
    const tabs = this.router.tabsOf(actorKey);
    for (const tabId of tabs) this.unbindTab(tabId);
    return tabs;
  }
}
