// The webview → extension-host half of the message protocol (webview.ts has the host → webview
// half and the shared identities, and re-exports this file, so both directions are imported from
// one place). Every message is checked by `parseWebviewMessage` (webviewMessages.ts) before the
// host acts on it. Pure: no vscode, DOM or Node imports.
import type { ContextRef, MessageId, SettingsTarget, TabId } from './webview';
import type { CheckpointAction } from './checkpoints';
import type { SignInChoice, SignInDismiss } from './signIn';

/** Sent once mynah-ui is built (and again whenever the page becomes visible). */
export interface WebviewReady {
  type: 'webview-ready';
  lastSeenIndex: Record<TabId, number>;
  /** Tabs currently open in the webview (restored or fresh). */
  openTabs: TabId[];
}
export interface NewTab {
  type: 'new-tab';
  tabId: TabId;
}
export interface Prompt {
  type: 'prompt';
  tabId: TabId;
  messageId: MessageId;
  text: string;
  context?: ContextRef[];
  /** "Edit and resend" of that earlier prompt: its checkpoint is restored first, in a new session. */
  resendOf?: MessageId;
}
export interface Cancel {
  type: 'cancel';
  tabId: TabId;
}
/** The queued prompts' card: take the waiting prompts back (the webview returns them to the input). */
export interface WithdrawQueued {
  type: 'withdraw-queued';
  tabId: TabId;
}
/** The queued prompts' card: give the waiting prompts to the agent now, in its running turn (steering). */
export interface SteerQueued {
  type: 'steer-queued';
  tabId: TabId;
}
export interface CloseTab {
  type: 'close-tab';
  tabId: TabId;
}
export interface RestartAgent {
  type: 'restart-agent';
  tabId: TabId;
}
/** The tab's menu: "Export to Markdown" (the host opens the tab's conversation as Markdown). */
export interface ExportConversation {
  type: 'export-conversation';
  tabId: TabId;
}
/** The button of a read-only past conversation: a fresh session, the old transcript as context. */
export interface ContinueInNewSession {
  type: 'continue-in-new-session';
  tabId: TabId;
}
/** A setting notice's button: open the settings file (or trust editor) named by the notice. */
export interface OpenSettings {
  type: 'open-settings';
  tabId: TabId;
  target: SettingsTarget;
}
/** Indices the webview has durably saved (setState); the host may forget those messages. */
export interface Ack {
  type: 'ack';
  lastSeenIndex: Record<TabId, number>;
}
/** What one card shows, flattened to text for tests: header, status, buttons and collapsed details. */
export interface RenderedItem {
  type: string;
  messageId: string;
  body: string;
  header?: string;
  status?: string;
  buttons?: string[];
  details?: string;
  files?: string[];
}
export interface Rendered {
  type: 'rendered';
  tabId: TabId;
  requestId: string;
  items: RenderedItem[];
}
/** The longest feedback a rejection carries (a short message, not a prompt). */
export const MAX_FEEDBACK_CHARS = 2_000;
/** The user's answer on a permission card: one of the agent's options, or "Bypass Permissions". */
export interface PermissionAnswer {
  type: 'permission-answer';
  tabId: TabId;
  requestId: string;
  optionId?: string;
  bypass?: true;
  /** A few words for the agent with a reject option (never with an allow option or bypass). */
  feedback?: string;
}
/**
 * The user's answer on an elicitation card: Submit (`accept`, with the form's values as the card
 * holds them: strings; the host checks them against the form), Decline or Cancel; `open` for a URL
 * card's button (the host opens the URL it was given, never one from the webview).
 */
export interface ElicitationAnswer {
  type: 'elicitation-answer';
  tabId: TabId;
  requestId: string;
  action: 'accept' | 'decline' | 'cancel' | 'open';
  values?: Record<string, string>;
}
export interface SetMode {
  type: 'set-mode';
  tabId: TabId;
  modeId: string;
}
export interface SetConfigOption {
  type: 'set-config-option';
  tabId: TabId;
  configId: string;
  /** A select's value id, or a boolean option's new state (ACP `SessionConfigBoolean`). */
  value: string | boolean;
}
export interface SetModel {
  type: 'set-model';
  tabId: TabId;
  modelId: string;
}
/** Opens VS Code's diff view for a `diff` content item of a tool call the host routed to this tab. */
export interface OpenDiff {
  type: 'open-diff';
  tabId: TabId;
  toolCallId: string;
  path: string;
}
/** Reveals a file (and line) a tool call pointed at. */
export interface OpenLocation {
  type: 'open-location';
  tabId: TabId;
  path: string;
  line?: number;
}
/**
 * An image pasted or dropped onto a tab's prompt. `data` is the base64 of exactly `size` bytes; the
 * webview leaves it out when the image is over the limit it was given, so the host can say so. The
 * host checks the limit again (symposium.maxImageBytes) and answers `attach-context` or a notice.
 */
/**
 * What the user typed after `@` in a prompt (empty when the menu closes): the host asks OpenCtx
 * providers for mentions matching it and sends a new `context-items` (debounced; a newer query
 * cancels an older one).
 */
export interface ContextQuery {
  type: 'context-query';
  query: string;
}
export interface AttachImage {
  type: 'attach-image';
  tabId: TabId;
  name: string;
  mimeType: string;
  size: number;
  data?: string;
}
/** Images an agent may get pasted: what ACP `image` blocks commonly carry. */
export const IMAGE_MIME_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** The URI scheme of a pasted image's context item (the host keeps the bytes under this id). */
export const PASTED_IMAGE_SCHEME = 'symposium-image:';
/** Webview-side errors, forwarded to the extension log. */
export interface WebviewLog {
  type: 'log';
  level: 'info' | 'warn' | 'error';
  message: string;
}

export type WebviewToHost =
  | WebviewReady
  | NewTab
  | Prompt
  | Cancel
  | WithdrawQueued
  | SteerQueued
  | ElicitationAnswer
  | CloseTab
  | RestartAgent
  | ContinueInNewSession
  | OpenSettings
  | ExportConversation
  | Ack
  | Rendered
  | WebviewLog
  | PermissionAnswer
  | SetMode
  | SetConfigOption
  | SetModel
  | OpenDiff
  | OpenLocation
  | AttachImage
  | ContextQuery
  | SignInChoice
  | SignInDismiss
  | CheckpointAction;

/**
 * Every webview→host message type, listed once (docs/extension.md's table is checked against it).
 * The compiler keeps the list and the union in step, as HOST_TO_WEBVIEW_TYPES does.
 */
export const WEBVIEW_TO_HOST_TYPES = [
  'webview-ready',
  'new-tab',
  'prompt',
  'cancel',
  'withdraw-queued',
  'steer-queued',
  'close-tab',
  'restart-agent',
  'continue-in-new-session',
  'export-conversation',
  'open-settings',
  'ack',
  'rendered',
  'log',
  'permission-answer',
  'elicitation-answer',
  'set-mode',
  'set-model',
  'set-config-option',
  'open-diff',
  'open-location',
  'context-query',
  'attach-image',
  'sign-in',
  'sign-in-dismiss',
  'checkpoint-action',
] as const satisfies readonly WebviewToHost['type'][];
/** `true` when `List` names every member of `Union`; otherwise the missing ones, which fail MustBeTrue. */
export type ListsEvery<Union extends string, List extends readonly string[]> = [Exclude<Union, List[number]>] extends [never]
  ? true
  : { missing: Exclude<Union, List[number]> };
export type MustBeTrue<T extends true> = T;
/** Fails to compile (naming the missing types) when a webview→host type is not in the list. */
export type ListsEveryWebviewType = MustBeTrue<ListsEvery<WebviewToHost['type'], typeof WEBVIEW_TO_HOST_TYPES>>;
