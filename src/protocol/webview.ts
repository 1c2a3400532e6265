// The webview ⇄ extension-host message protocol: one typed union per direction, shared by both
// bundles. This folder imports nothing from vscode, the DOM or Node (type-only ACP imports are
// erased at build time), so the webview bundle and plain-Node unit tests can use it. The
// webview → host half is in webviewToHost.ts (re-exported here), its validation in
// webviewMessages.ts.
//
// Identity: tab IDs and message IDs are UUID v4 generated in the webview;
// session IDs belong to the agent and never reach the webview. Every host→webview message carries
// a per-tab `index` that only grows; the webview ignores anything at or below its lastSeenIndex.
import type {
  PermissionOption,
  SessionConfigOption,
  SessionModeState,
  SessionUpdate,
  StopReason,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import type { FilesChanged, TurnCheckpoint } from './checkpoints';
import type { SignInRequired, SignInUpdate } from './signIn';
import type { ElicitationPrompt } from './elicitation';
import type { ListsEvery, MustBeTrue } from './webviewToHost';

/** UUID v4, made by the webview (or by a test command standing in for it). */
export type TabId = string;
/** UUID v4 naming one prompt turn; every update of that turn carries it. */
export type MessageId = string;

/** Why an agent process is gone, shown in every tab it served. */
export interface AgentFailure {
  agentName: string;
  message: string;
  exitCode: number | null;
  signal: string | null;
  /** Last lines the agent/conductor wrote to stderr, the most useful clue. */
  stderrTail: string;
}

// ---------------------------------------------------------------------------------------------
// Host → webview. `TabPayload` is what the host produces; the outbox stamps `index` on it.

/** A tab the webview did not create (a test command, or the host re-opening a lost tab). */
export interface OpenTab {
  type: 'open-tab';
  tabId: TabId;
  title: string;
}
/** The tab's agent session exists; `agentName`/`cwd` are shown as tab info. */
export interface SessionReady {
  type: 'session-ready';
  tabId: TabId;
  agentName: string;
  cwd: string;
  controls?: SessionControls;
}

/** The older (pre-configOptions) model picker some agents still send in `session/new`. */
export interface LegacyModels {
  currentModelId: string;
  availableModels: { modelId: string; name: string; description?: string | null }[];
}

/** The session's pickers as the agent last described them (session/new, then updates). */
export interface SessionControls {
  modes?: SessionModeState | null;
  configOptions?: SessionConfigOption[] | null;
  models?: LegacyModels | null;
}
/** Replaces the named parts of the tab's controls (after a set_* call the host made succeeded). */
export interface ControlsChanged {
  type: 'controls-changed';
  tabId: TabId;
  controls: SessionControls;
}

/** Where words given with a rejection went: into the running turn, or before the next prompt's text. */
export type FeedbackDelivery = 'steered' | 'next-prompt';

/** How a permission request was settled, and by whom. */
export type PermissionDecision =
  | {
      outcome: 'selected';
      optionId: string;
      optionName: string;
      optionKind: PermissionOption['kind'];
      by: 'user' | 'bypass' | 'auto-approve';
      /** The user's words with a rejection, once delivered. */
      feedback?: { text: string; delivery: FeedbackDelivery };
    }
  | { outcome: 'cancelled'; reason: string };

/** The agent asks before running a tool (ACP session/request_permission); the card blocks the agent. */
export interface PermissionRequested {
  type: 'permission-requested';
  tabId: TabId;
  messageId?: MessageId;
  requestId: string;
  toolCall: ToolCallUpdate;
  options: PermissionOption[];
}
export interface PermissionResolved {
  type: 'permission-resolved';
  tabId: TabId;
  messageId?: MessageId;
  requestId: string;
  decision: PermissionDecision;
}
/** The agent asks the user for input (ACP elicitation/create): a form card or a URL card, kept until resolved. */
export interface ElicitationRequested {
  type: 'elicitation-requested';
  tabId: TabId;
  messageId?: MessageId;
  requestId: string;
  prompt: ElicitationPrompt;
  toolCallId?: string;
}
/** How an elicitation ended: the user's action, or why it was cancelled; `opened` for a URL the user opened. */
export interface ElicitationResolved {
  type: 'elicitation-resolved';
  tabId: TabId;
  messageId?: MessageId;
  requestId: string;
  outcome: ElicitationOutcome;
}
export type ElicitationOutcome =
  | { action: 'accept' | 'decline' | 'cancel'; reason?: string }
  /** A URL the user opened: waiting for the agent's elicitation/complete, then `completed`. */
  | { action: 'opened' | 'completed' };
/** What a terminal the editor runs for the agent has printed so far (replaces earlier output). */
export interface TerminalOutput {
  type: 'terminal-output';
  tabId: TabId;
  terminalId: string;
  command: string;
  output: string;
  truncated: boolean;
  exitStatus?: { exitCode: number | null; signal: string | null };
}
/** Something the user asked for in the tab failed (a picker change, opening a diff). */
export interface TabNotice {
  type: 'tab-notice';
  tabId: TabId;
  level: 'info' | 'warning' | 'error';
  text: string;
  /**
   * A past conversation the agent cannot continue: the notice offers "Continue in a new session
   * with the transcript as context" (the button sends `continue-in-new-session`).
   */
  offer?: 'continue-in-new-session';
  /** A setting the user wrote was not honoured: the notice offers to open the file (or editor) that fixes it. */
  settings?: SettingsTarget;
}
/** Where a setting problem is fixed: the User or Remote settings file, or the workspace trust editor. */
export type SettingsTarget = 'user' | 'remote' | 'trust';
export const SETTINGS_TARGETS: readonly SettingsTarget[] = ['user', 'remote', 'trust'];
/** The host accepted a prompt (echo, so prompts sent by test commands show up too). */
export interface PromptStarted {
  type: 'prompt-started';
  tabId: TabId;
  messageId: MessageId;
  text: string;
  attachments?: string[];
}

/** A prompt sent while the tab was busy: it waits for the running turn (and any before it). */
export interface QueuedPrompt {
  messageId: MessageId;
  text: string;
  /** The running turn's agent takes input into it: the card offers "Send now (steer)". */
  steerable?: true;
}
/**
 * The prompts waiting in the tab, in order: sent whenever that list changes (empty: none wait).
 * A waiting prompt is not in the conversation yet; its `prompt-started` comes when its turn does.
 */
export interface PromptQueue {
  type: 'prompt-queue';
  tabId: TabId;
  waiting: QueuedPrompt[];
}

/**
 * Something from the workspace the user can @-mention: the host lists them, the webview offers
 * them in the `@` menu and sends the chosen ones back with the prompt; the host then turns each
 * into an ACP content block (embedded `resource` or `resource_link`, as the agent accepts).
 */
export interface ContextRef {
  kind: 'file' | 'folder' | 'symbol' | 'selection' | 'image' | 'openctx';
  /** `file:` URI (for symbols and selections, of their document); an OpenCtx mention's own URI. */
  uri: string;
  name: string;
  /** 1-based, inclusive lines of a symbol or selection. */
  range?: { startLine: number; endLine: number };
  /** For a selection attached by "Discuss in Symposium": the text as it was then. */
  text?: string;
  /** A file open in an editor (listed first in the `@` menu). */
  open?: boolean;
  /** An OpenCtx mention: the URI of the provider that offered it (docs/openctx.md). */
  provider?: string;
  /** An OpenCtx mention: the provider's name, the menu entry it is listed under. */
  providerName?: string;
  /** An OpenCtx mention's description. */
  description?: string;
}
/**
 * Every tab's `@` menu: workspace files, folders, symbols of open editors, the selection. Global,
 * not part of any tab's sequence: sent as it changes and again on every `webview-ready`.
 */
export interface ContextItems {
  type: 'context-items';
  items: ContextRef[];
}
/** "Discuss in Symposium": attach this to the tab's next prompt. */
export interface AttachContext {
  type: 'attach-context';
  tabId: TabId;
  item: ContextRef;
}
/** One ACP `session/update`, attributed to the prompt turn it belongs to (if any). */
export interface AgentUpdate {
  type: 'agent-update';
  tabId: TabId;
  messageId?: MessageId;
  update: SessionUpdate;
}
export interface PromptEnded {
  type: 'prompt-ended';
  tabId: TabId;
  messageId: MessageId;
  stopReason: StopReason;
}
export interface PromptFailed {
  type: 'prompt-failed';
  tabId: TabId;
  messageId: MessageId;
  error: string;
}
/** The agent process died (or never started); the card offers Restart. */
export interface AgentFailed {
  type: 'agent-failed';
  tabId: TabId;
  noticeId: string;
  failure: AgentFailure;
}
/** A restart gave the tab a fresh session; resolves the failure card `noticeId` if any. */
export interface AgentRestarted {
  type: 'agent-restarted';
  tabId: TabId;
  noticeId?: string;
  agentName: string;
}
/** Test hook: the webview answers with a `rendered` message once everything before it is applied. */
export interface QueryRendered {
  type: 'query-rendered';
  tabId: TabId;
  requestId: string;
}

/** Messages that make up a tab's conversation; a resync replays a list of them. */
export type ConversationPayload =
  | SessionReady
  | PromptStarted
  | AgentUpdate
  | PromptEnded
  | PromptFailed
  | AgentFailed
  | AgentRestarted
  | ControlsChanged
  | PermissionRequested
  | PermissionResolved
  | ElicitationRequested
  | ElicitationResolved
  | TabNotice
  | TerminalOutput
  | SignInRequired
  | SignInUpdate
  | FilesChanged
  | TurnCheckpoint;
export type ConversationEntry = DistributiveOmit<ConversationPayload, 'tabId'>;

/**
 * Replaces the tab's whole conversation. Sent instead of buffered messages when the buffer passed
 * its size limit, or when the webview lost a tab the host still has.
 */
export interface Resync {
  type: 'resync';
  tabId: TabId;
  title: string;
  entries: ConversationEntry[];
  /** The prompts waiting in the tab then (the last `prompt-queue`), when any. */
  queued?: QueuedPrompt[];
}

export type TabPayload = OpenTab | ConversationPayload | Resync | QueryRendered | AttachContext | PromptQueue;
/** A tab's message with its per-tab index (what the outbox buffers and replays). */
export type IndexedHostMessage = TabPayload & { index: number };
export type HostToWebview = IndexedHostMessage | ContextItems;

/**
 * Every host→webview message type, listed once: the webview's guard accepts only these. The
 * compiler keeps the list and the union in step (`satisfies` rejects a type the union lacks,
 * `ListsEveryHostType` a union member missing here).
 */
export const HOST_TO_WEBVIEW_TYPES = [
  'open-tab',
  'session-ready',
  'prompt-started',
  'agent-update',
  'prompt-ended',
  'prompt-failed',
  'agent-failed',
  'agent-restarted',
  'resync',
  'query-rendered',
  'controls-changed',
  'permission-requested',
  'permission-resolved',
  'elicitation-requested',
  'elicitation-resolved',
  'tab-notice',
  'terminal-output',
  'sign-in-required',
  'sign-in-update',
  'files-changed',
  'turn-checkpoint',
  'attach-context',
  'prompt-queue',
  'context-items',
] as const satisfies readonly HostToWebview['type'][];
/** Fails to compile (naming the missing types) when a host→webview type is not in the list. */
export type ListsEveryHostType = MustBeTrue<ListsEvery<HostToWebview['type'], typeof HOST_TO_WEBVIEW_TYPES>>;

// prompt-queue: what waits is the tab's state, not its conversation (not recorded, not in the history).
const NOT_CONVERSATION = new Set<TabPayload['type']>(['open-tab', 'resync', 'query-rendered', 'attach-context', 'prompt-queue']);
/** Whether a message is part of the tab's conversation (recorded for resync, applied to the model). */
export const isConversationPayload = <T extends { type: string }>(p: T): p is Extract<T, { type: ConversationPayload['type'] }> =>
  !NOT_CONVERSATION.has(p.type as TabPayload['type']);

export * from './webviewToHost';

/** Omit that distributes over a union (plain Omit collapses the union into one object type). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
