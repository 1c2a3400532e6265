// A chat tab as the chat controller keeps it: its agent configuration, its prompt queue, the turn
// that is running, the failure card it shows, its pickers and, for a tab reopened from the history,
// the past conversation. In its own file so that the controller's helpers (pastConversationTabs.ts,
// agentRestart.ts) share this one shape without importing the controller. Pure.
import type { AgentActor } from '../agents/agentActor';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { MessageId, SessionControls, TabId } from '../protocol/webview';
import type { PastState } from '../history/reopen';
import type { UserPrompt } from './promptTurn';
import { currentMode } from '../protocol/sessionMode';

export interface ChatTab {
  tabId: TabId;
  title: string;
  config?: AgentConfiguration;
  /** Session creation, then every prompt, chained: prompts within a tab run one at a time. */
  queue: Promise<void>;
  active?: ActiveTurn;
  queued: number;
  /**
   * The queued prompts not shown yet (sent while the tab was busy), in order; the webview shows
   * them above its input (`prompt-queue`), and the user can take them back before they start.
   */
  waiting: UserPrompt[];
  /** The failure card currently shown (its Restart resolves it). */
  failureNotice?: string;
  /** The session's pickers, as the agent last described them. */
  controls: SessionControls;
  closed: boolean;
  /** A conversation reopened from the history (read-only until continued). */
  past?: PastState;
  /** Setting problems already shown in this tab (each is said once). */
  settingNotices: Set<string>;
}

/** The prompt turn a tab is running. */
export interface ActiveTurn {
  messageId: MessageId;
  actor: AgentActor;
  sessionId: string;
  /**
   * Resolves at the turn's first update from the agent, or at its end. Before it the agent may not
   * have the turn yet (a proxy in the chain can still hold the prompt), so it would answer a
   * steering request "no turn running".
   */
  heard: Promise<void>;
  wasHeard: boolean;
  hear(): void;
}

/** A turn just sent to the agent, not heard from yet. */
export function newActiveTurn(messageId: MessageId, actor: AgentActor, sessionId: string): ActiveTurn {
  let resolve!: () => void;
  const heard = new Promise<void>((r) => (resolve = r));
  const turn: ActiveTurn = {
    messageId,
    actor,
    sessionId,
    heard,
    wasHeard: false,
    hear() {
      turn.wasHeard = true;
      resolve();
    },
  };
  return turn;
}

/** A tab just opened: no configuration or session yet, nothing queued. */
export function newChatTab(tabId: TabId, title: string): ChatTab {
  return { tabId, title, queue: Promise.resolve(), queued: 0, waiting: [], closed: false, controls: {}, settingNotices: new Set() };
}

/**
 * The mode a new session of `agentName` for this tab is put in: a tab that goes on in a new session
 * of the same agent (a restart, Edit and resend, a past conversation continued anew) stays in the
 * mode it was in, since a new session begins in the agent's default, which may ask less.
 */
export function modeToKeep(tab: Pick<ChatTab, 'config' | 'controls' | 'past'>, agentName: string): string | undefined {
  if (tab.config?.agent.name === agentName) {
    const mode = currentMode(tab.controls);
    if (mode) return mode;
  }
  const past = tab.past?.conversation.meta;
  return past?.agentName === agentName ? past.mode : undefined;
}
