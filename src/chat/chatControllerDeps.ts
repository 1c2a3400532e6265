// What the chat controller is built with (src/extension.ts and the tests' chat harness wire it):
// the collaborators it shares with the editor side, and the optional features around the chat
// (context, history, checkpoints, sign-in terminals), each absent in a setup that has none.
import type { ContentBlock, NewSessionRequest, PromptCapabilities } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { ContextRef, ConversationEntry, MessageId, TabId } from '../protocol/webview';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { AgentPool } from '../agents/agentPool';
import type { PastConversation } from '../history/reopen';
import type { PromptTurnDeps, TurnCheckpointHooks } from './promptTurn';
import type { Elicitations } from './elicitations';
import type { SessionDirectory } from './sessionDirectory';
import type { SignInDeps } from './signIn';
import type { TabMessages } from './tabMessages';
import type { EditorActions } from './tabRequests';

export interface ChatControllerDeps {
  log: Log;
  /** Tab ↔ session ↔ folder ↔ agent; the controller binds and unbinds, others look up. */
  sessions: SessionDirectory;
  /** Everything sent to a tab goes through here. */
  messages: TabMessages;
  permissions: PermissionBroker;
  feedback?: PromptTurnDeps['feedback'];
  /** The agent's requests for input (elicitations.ts): answered from cards, cancelled like approvals. */
  elicitations?: Pick<Elicitations, 'answer' | 'cancelTab' | 'cancelActor'>;
  /** The agent processes (one per configuration); the controller subscribes to each new one. */
  pool: AgentPool;
  /**
   * The configuration for a new session: current settings, and the workspace folder (the
   * previous one on restart; otherwise asks the user when there are several). undefined = none.
   */
  configure: (previousFolder?: string, agentName?: string) => Promise<AgentConfiguration | undefined>;
  /** @-mentions → ACP content blocks, as the agent's prompt capabilities allow. */
  resolveContext?: (refs: ContextRef[], caps: PromptCapabilities, folder: string, message: string) => Promise<ContentBlock[]>;
  /** Adds to a new session's params what the conductor's components need (OpenCtx providers), given the chain. */
  decorateSession?: (params: NewSessionRequest, conductorComponents: string[]) => NewSessionRequest;
  /** How long a new session may take before the tab says what runs (slowStart.ts); tests shorten it. */
  slowStartNoticeMs?: number;
  /** A tab was opened (its `@` menu needs filling). */
  onTabOpened?: (tabId: TabId) => void;
  editor?: EditorActions;
  /** symposium.allowedFolders: besides a tab's folder, where tool-call locations may be opened. */
  allowedFolders?: () => string[];
  /** Runs an agent's terminal sign-in in an editor terminal (signIn.ts); absent: terminal methods are not offered. */
  runSignInTerminal?: SignInDeps['runInTerminal'];
  /** Checkpoints (src/checkpoints/): one per prompt (the card's actions go to them directly). */
  checkpoints?: TurnCheckpointHooks & {
    /** "Edit and resend": restores the turn's checkpoint (after a confirmation); false: the user said no. */
    restoreForResend?(tabId: TabId, messageId: MessageId): Promise<boolean>;
  };
  /** The conversation history (src/history/): which stored conversation a reopened tab continues. */
  history?: {
    /** Whether this window now owns the conversation (false: open live in another window). */
    adopt(tabId: TabId, conversationId: string): boolean;
    /** The tab's read-only copy goes on as a new conversation (a new file, the transcript copied). */
    fork(tabId: TabId, conversation: PastConversation): void;
    replaced(tabId: TabId, entries: ConversationEntry[]): void;
    close(tabId: TabId): void;
  };
}
