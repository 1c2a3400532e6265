// Tab ↔ session routing: the webview names tabs, the agent names sessions; the host keeps both
// directions, changed together and removed together. Session IDs are only unique within one
// agent process, so the reverse key includes the agent actor's key. Pure.
import { sessionKey } from '../protocol/sessionKey';
import type { TabId } from '../protocol/webview';

export interface SessionRef {
  actorKey: string;
  sessionId: string;
}

const reverseKey = (r: SessionRef): string => sessionKey(r.actorKey, r.sessionId);

export class Router {
  private readonly byTab = new Map<TabId, SessionRef>();
  private readonly bySession = new Map<string, TabId>();

  /** Binds a tab to a new session, replacing any previous binding of either side. */
  bind(tabId: TabId, ref: SessionRef): void {
    this.unbindTab(tabId);
    const previousTab = this.bySession.get(reverseKey(ref));
    if (previousTab !== undefined) this.unbindTab(previousTab);
    this.byTab.set(tabId, { ...ref });
    this.bySession.set(reverseKey(ref), tabId);
  }

  sessionFor(tabId: TabId): SessionRef | undefined {
    const r = this.byTab.get(tabId);
    return r && { ...r };
  }

  tabFor(ref: SessionRef): TabId | undefined {
    return this.bySession.get(reverseKey(ref));
  }

  /** Removes the tab's binding (both directions); returns what it was bound to. */
  unbindTab(tabId: TabId): SessionRef | undefined {
    const r = this.byTab.get(tabId);
    if (!r) return undefined;
    this.byTab.delete(tabId);
    this.bySession.delete(reverseKey(r));
    return r;
  }

  tabsOf(actorKey: string): TabId[] {
    return [...this.byTab].filter(([, r]) => r.actorKey === actorKey).map(([t]) => t);
  }

  /** Both maps, for tests and invariants: they always have the same size. */
  sizes(): { tabs: number; sessions: number } {
    return { tabs: this.byTab.size, sessions: this.bySession.size };
  }
}
