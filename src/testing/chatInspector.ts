// The test inspector: a read-only view of the chat for the integration tests (the symposium.test.*
// commands) and the plain-Node chat tests. It reads the tabs and their sessions, waits until a tab
// is idle, collects the agent text a tab received (captures), asks the webview what it rendered,
// and reports delivery stats, pending permissions, pickers and agent processes. It changes
// nothing in the chat: it only watches what is sent and received. Created only outside production
// mode (and by the tests). vscode-free.
import { randomUUID } from 'node:crypto';
import type { AgentPool } from '../agents/agentPool';
import type { ChatController } from '../chat/chatController';
import type { SessionDirectory } from '../chat/sessionDirectory';
import type { TabMessages } from '../chat/tabMessages';
import type { OutboxStats } from '../chat/outbox';
import type { PendingPermission, PermissionBroker } from '../permissions/permissionBroker';
import type { RenderedItem, SessionControls, TabId, WebviewToHost } from '../protocol/webview';
import { sparkleMarkOf } from '../protocol/symposium-ext';
import { DisposableStore, type Disposable } from '../node/disposable';
import type { Event } from '../util/emitter';

/** One tab as a test sees it. */
export interface TabInfo {
  tabId: TabId;
  title: string;
  agentName?: string;
  cwd?: string;
  sessionId?: string;
  /** The conductor process serving the tab's session. */
  agentPid?: number;
  busy: boolean;
  failed: boolean;
}

export interface ChatInspectorDeps {
  chat: Pick<ChatController, 'openTabs' | 'tab'>;
  sessions: Pick<SessionDirectory, 'sessionFor'>;
  pool: Pick<AgentPool, 'get' | 'all'>;
  messages: Pick<TabMessages, 'send' | 'onDidSend' | 'isOpen' | 'stats' | 'whenPosted'>;
  permissions: Pick<PermissionBroker, 'pendingFor'>;
  /** Messages from the webview (the `rendered` answers). */
  fromWebview?: Event<WebviewToHost>;
}

export class ChatInspector implements Disposable {
  private readonly captures = new Map<TabId, string[]>();
  private readonly pendingRendered = new Map<string, (items: RenderedItem[]) => void>();
  private readonly subscriptions = new DisposableStore();

  constructor(private readonly deps: ChatInspectorDeps) {
    this.subscriptions.add(
      deps.messages.onDidSend((p) => {
        const capture = this.captures.get(p.tabId);
        // Sparkle's embodiment turn is not the agent's answer to anyone (the chat shows it apart).
        if (
          capture &&
          p.type === 'agent-update' &&
          p.update.sessionUpdate === 'agent_message_chunk' &&
          p.update.content.type === 'text' &&
          !sparkleMarkOf(p.update)
        )
          capture.push(p.update.content.text);
      }),
    );
    if (deps.fromWebview) {
      this.subscriptions.add(
        deps.fromWebview((m) => {
          if (m.type === 'rendered') this.pendingRendered.get(m.requestId)?.(m.items);
        }),
      );
    }
  }

  getTabs(): TabInfo[] {
    return this.deps.chat.openTabs().map((t) => {
      const ref = this.deps.sessions.sessionFor(t.tabId);
      return {
        tabId: t.tabId,
        title: t.title,
        agentName: t.config?.agent.name,
        cwd: t.config?.workspaceFolder,
        sessionId: ref?.sessionId,
        agentPid: ref ? this.deps.pool.get(ref.actorKey)?.pid : undefined,
        busy: t.active !== undefined || t.queued > 0,
        failed: t.failureNotice !== undefined,
      };
    });
  }

  /**
   * Resolves once the tab's session exists, every queued prompt has finished, and what they sent
   * the webview has been posted (the outbox posts at the end of the turn it was sent in).
   */
  async whenIdle(tabId: TabId): Promise<void> {
    for (;;) {
      const q = this.deps.chat.tab(tabId)?.queue;
      if (!q) break;
      await q;
      if (this.deps.chat.tab(tabId)?.queue === q) break;
    }
    await this.deps.messages.whenPosted();
  }

  hasActivePrompt(tabId: TabId): boolean {
    const t = this.deps.chat.tab(tabId);
    return !!t && (t.active !== undefined || t.queued > 0);
  }

  /** From now on, collects the agent's message text sent to the tab. */
  startCapturing(tabId: TabId): void {
    this.captures.set(tabId, []);
  }

  getCaptured(tabId: TabId): string {
    // A closed tab's capture goes with it.
    if (!this.deps.messages.isOpen(tabId)) this.captures.delete(tabId);
    return (this.captures.get(tabId) ?? []).join('');
  }

  stopCapturing(tabId: TabId): string {
    const s = this.getCaptured(tabId);
    this.captures.delete(tabId);
    return s;
  }

  /** What the webview shows for the tab, once it has applied everything sent before this query. */
  async rendered(tabId: TabId, timeoutMs: number): Promise<RenderedItem[] | undefined> {
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<RenderedItem[] | undefined>((resolve) => {
        this.pendingRendered.set(requestId, resolve);
        timer = setTimeout(() => resolve(undefined), timeoutMs);
        this.deps.messages.send({ type: 'query-rendered', tabId, requestId });
      });
    } finally {
      clearTimeout(timer);
      this.pendingRendered.delete(requestId);
    }
  }

  outboxStats(): OutboxStats {
    return this.deps.messages.stats();
  }
  pendingPermissions(tabId?: TabId): PendingPermission[] {
    return this.deps.permissions.pendingFor(tabId);
  }
  sessionControls(tabId: TabId): SessionControls | undefined {
    return this.deps.chat.tab(tabId)?.controls;
  }
  agentProcesses(): { key: string; agentName: string; pid: number | undefined; state: string }[] {
    return this.deps.pool.all().map((a) => ({ key: a.key, agentName: a.agentName, pid: a.pid, state: a.currentState }));
  }

  dispose(): void {
    this.subscriptions.dispose();
  }
}
