// Chat tabs on past conversations from the history. What sets them apart from a fresh tab: the
// stored transcript shows at once and the tab stays read-only until the agent continues the old
// session (which way, and what the tab is told, is src/history/reopen.ts) or the user picks
// "Continue in a new session", after which the first prompt carries the old transcript. The chat
// controller still owns the tab, its queue and its sessions; this module keeps the tab's `past`
// state and gives reopen.ts what it needs from the chat. vscode-free.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentPool } from '../agents/agentPool';
import type { TabPayload } from '../protocol/webview';
import {
  continuePastSession,
  READ_ONLY_PROMPT_ERROR,
  transcriptContext,
  type PastConversation,
  type ReopenContext,
} from '../history/reopen';
import type { ChatControllerDeps } from './chatControllerDeps';
import type { ChatTab } from './chatTab';
import type { EarlyUpdates } from './earlyUpdates';
import type { TabMessages } from './tabMessages';

export interface PastTabsDeps {
  log: Log;
  messages: Pick<TabMessages, 'send' | 'restore'>;
  history?: Pick<NonNullable<ChatControllerDeps['history']>, 'adopt' | 'fork' | 'replaced'>;
  configure: ChatControllerDeps['configure'];
  pool: Pick<AgentPool, 'acquire'>;
  /** The controller's holder of updates for sessions no tab shows yet: a load's replay waits there. */
  early: EarlyUpdates;
  slowStartNoticeMs?: number;
}

/** How the controller binds this tab to a continued session, and whether the tab is gone (closed, or the extension going away). */
export type TabSession = Pick<ReopenContext, 'bind' | 'gone'>;

export class PastConversationTabs {
  constructor(private readonly deps: PastTabsDeps) {}

  /** A just-opened tab shows this conversation, read-only. Call after the webview was told of the tab. */
  show(tab: ChatTab, conversation: PastConversation): void {
    const past: NonNullable<ChatTab['past']> = { conversation, readOnly: true };
    tab.past = past;
    if (this.deps.history && !this.deps.history.adopt(tab.tabId, conversation.meta.id)) past.elsewhere = true;
    this.deps.messages.restore(tab.tabId, tab.title, conversation.entries);
    this.deps.log.info('session', 'past conversation reopened', { tabId: tab.tabId, conversation: conversation.meta.id });
  }

  /** Asks the agent to continue the tab's old session (reopen.ts says how); runs in the tab's queue. */
  async continueSession(tab: ChatTab, session: TabSession): Promise<void> {
    if (!tab.past) return;
    const { log, messages, history, early } = this.deps;
    const config = await continuePastSession(
      {
        log,
        configure: (folder, agentName) => this.deps.configure(folder, agentName),
        // The tab knows its configuration from here on: closed while the agent still starts (or
        // never answers), it releases the process rather than waiting for the resume to end.
        acquire: (c) => {
          tab.config ??= c;
          return this.deps.pool.acquire(c);
        },
        ...(this.deps.slowStartNoticeMs !== undefined ? { slowStartNoticeMs: this.deps.slowStartNoticeMs } : {}),
        send: (p) => messages.send(p),
        restore: (id, title, entries) => messages.restore(id, title, entries),
        replaced: (id, entries) => history?.replaced(id, entries),
        captureUpdates: (actorKey, sessionId) => {
          early.capture(actorKey, sessionId);
          return { take: () => early.take(actorKey, sessionId) };
        },
        bind: session.bind,
        gone: session.gone,
      },
      tab.tabId,
      tab.past,
    );
    tab.config ??= config;
  }

  /**
   * "Continue in a new session" on a read-only tab: from now on it takes prompts, and the next one
   * carries the transcript. True when the controller should start that new session.
   */
  continueInNewSession(tab: ChatTab): boolean {
    if (!tab.past?.readOnly) return false;
    tab.past.readOnly = false;
    tab.past.contextPending = true;
    // Open live in another window: never append to its file; this becomes a conversation of its own.
    if (tab.past.elsewhere) this.deps.history?.fork(tab.tabId, tab.past.conversation);
    const notice: TabPayload = {
      type: 'tab-notice',
      tabId: tab.tabId,
      level: 'info',
      text: 'A new session: the agent does not remember this conversation. Your next prompt carries its transcript as context.',
    };
    this.deps.messages.send(notice);
    return true;
  }
}

/** Why a prompt in this tab is refused (a past conversation nobody continued yet); undefined: it is not. Pure. */
export function pastPromptRefusal(tab: Pick<ChatTab, 'past'>): string | undefined {
  return tab.past?.readOnly ? READ_ONLY_PROMPT_ERROR : undefined;
}

/**
 * The old transcript for the first prompt after "Continue in a new session", once (then nothing):
 * an embedded resource when the agent takes those, else text. Pure apart from marking it taken.
 */
export function takePastTranscript(tab: Pick<ChatTab, 'past'>, embeddedContext: boolean): ContentBlock[] {
  if (!tab.past?.contextPending) return [];
  tab.past.contextPending = false;
  return [transcriptContext(tab.past.conversation, embeddedContext)];
}
