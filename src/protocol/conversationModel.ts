// The model of one tab's conversation: turns (a prompt and what the agent did in answer), notices,
// and the session's state the tab shows. conversation.ts folds the host's conversation messages
// into it; the webview renders it and saves it with its state, the history exporter writes it. Pure.
import type { AvailableCommand, PermissionOption, SessionUpdate, StopReason, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type {
  AgentFailure,
  ContextRef,
  MessageId,
  ElicitationOutcome,
  PermissionDecision,
  QueuedPrompt,
  SessionControls,
  SettingsTarget,
  TerminalOutput,
} from './webview';
import type { FilesChanged } from './checkpoints';
import type { SignInMethod, SignInUpdate } from './signIn';
import type { SessionUsage } from './usage';
import type { ElicitationPrompt } from './elicitation';

export interface Turn {
  kind: 'turn';
  messageId: MessageId;
  prompt: string;
  /** Names of what was attached to the prompt (@-mentions). */
  attachments?: string[];
  /** The turn's ACP updates in arrival order, streamed chunks merged. */
  updates: SessionUpdate[];
  status: 'running' | 'done' | 'failed';
  stopReason?: StopReason;
  error?: string;
  /** The host has a checkpoint from before this prompt (the prompt offers Restore checkpoint). */
  checkpoint?: true;
  /** Approval cards of this turn, each shown after the update that preceded it. */
  permissions: PermissionCard[];
  /** The agent's requests for input (forms, URLs), placed like approval cards. */
  elicitations?: ElicitationCard[];
  /**
   * Sparkle's embodiment turn (updates marked `_meta.symposium.sparkle = 'embodiment'`), shown as
   * one collapsed section after the prompt: the user's first prompt waits behind it, so its updates
   * may arrive during this turn. A block of its own (no prompt) when no user turn was running.
   */
  embodiment?: SessionUpdate[];
}

export interface PermissionCard {
  requestId: string;
  /** Shown after `updates[position - 1]` (updates only append, so positions stay valid). */
  position: number;
  toolCall: ToolCallUpdate;
  options: PermissionOption[];
  decision?: PermissionDecision;
}

export interface ElicitationCard {
  requestId: string;
  /** Shown after `updates[position - 1]`. */
  position: number;
  prompt: ElicitationPrompt;
  toolCallId?: string;
  outcome?: ElicitationOutcome;
}

export interface Notice {
  kind: 'notice';
  id: string;
  level: 'error' | 'info' | 'warning';
  agentName: string;
  failure?: AgentFailure;
  /** A plain message (a refused picker change, a missing diff) instead of an agent failure. */
  text?: string;
  /** An error notice stops offering Restart once a restart resolved it. */
  resolved: boolean;
  /** A past conversation's notice offers to continue in a new session. */
  offer?: 'continue-in-new-session';
  /** A setting the user wrote was not honoured: the notice's button opens where it is fixed. */
  settings?: SettingsTarget;
  /** A sign-in card: the agent's auth methods, and how signing in goes. */
  signIn?: SignInCard;
  /** A "files changed" card: what turn `changes.messageId` changed (checkpointCard.ts). */
  changes?: Omit<FilesChanged, 'type' | 'tabId'>;
}

export interface SignInCard {
  requestId: string;
  message: string;
  optional?: true;
  methods: SignInMethod[];
  state?: SignInUpdate['state'];
  text?: string;
}

export type Block = Turn | Notice;

export interface Conversation {
  blocks: Block[];
  agentName?: string;
  cwd?: string;
  /** The session's pickers (modes, config options, older models). */
  controls?: SessionControls;
  /** Slash commands the agent offers (available_commands_update). */
  commands?: AvailableCommand[];
  /** The agent's title for the session (`session_info_update`), when it gave one. */
  title?: string;
  /** How much of its context window the session uses, and its cost so far (`usage_update`). */
  usage?: SessionUsage;
  /** Attached by "Discuss in Symposium", sent with the next prompt. */
  attached?: ContextRef[];
  /** Prompts sent while the tab was busy, waiting their turn (the host's `prompt-queue`). */
  queued?: QueuedPrompt[];
  /** Output of terminals the editor runs for the agent, by terminal ID (shown in tool cards). */
  terminals?: Record<string, TerminalView>;
  /** A past conversation the agent did not continue: no prompts until a new session is ready. */
  readOnly?: boolean;
  /** The block holding this session's Sparkle embodiment section (a new session starts a new one). */
  embodimentBlock?: MessageId;
}

export type TerminalView = Omit<TerminalOutput, 'type' | 'tabId' | 'terminalId'>;

export const emptyConversation = (): Conversation => ({ blocks: [] });

export const blockId = (b: Block): string => (b.kind === 'turn' ? b.messageId : `notice:${b.id}`);

/** Whether a prompt is running (the Stop button shows). */
export const isBusy = (c: Conversation): boolean => c.blocks.some((b) => b.kind === 'turn' && b.status === 'running');
