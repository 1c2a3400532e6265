// Where each validated webview → host message goes. Built once at activation from two halves: what
// the chat controller answers (the tab lifecycle, the per-tab message channel's ready and acks,
// sign-in, the tab's own requests: permissions, pickers, diffs, locations in tabRequests.ts) and the
// features beside the chat (history export, settings, pasted images, OpenCtx @-queries, checkpoint
// cards), which never pass through the controller. Only routing: no message is interpreted here.
// vscode-free.
import type { Log } from '../log/logEvent';
import type { CheckpointAction } from '../protocol/checkpoints';
import type { AttachImage, MessageId, SettingsTarget, TabId, WebviewToHost, ContextRef } from '../protocol/webview';
import type { SignInFlow } from './signIn';
import { handleTabRequest, type TabRequestContext } from './tabRequests';
import type { TabMessages } from './tabMessages';

/** What the chat controller does for the tabs. */
export interface TabLifecycle {
  openTab(tabId: TabId, title: string, announce: boolean): void;
  prompt(tabId: TabId, messageId: MessageId, text: string, context?: ContextRef[], resendOf?: MessageId): void;
  cancel(tabId: TabId): void;
  withdrawQueued(tabId: TabId): void;
  steerQueued(tabId: TabId): void;
  closeTab(tabId: TabId): void;
  restartTabConfiguration(tabId: TabId): Promise<void>;
  continueInNewSession(tabId: TabId): void;
}

/** The chat controller's half. */
export interface ChatInbox {
  /** False once the chat is disposed: nothing is routed after that. */
  open(): boolean;
  log: Log;
  messages: TabMessages;
  tabs: TabLifecycle;
  knowsTab(tabId: TabId): boolean;
  signIn: SignInFlow;
  tabRequests: TabRequestContext;
}

/** The half of the features beside the chat; a setup without one of them ignores its messages. */
export interface FeatureInbox {
  exportTab(tabId: TabId): void;
  openSettings(target: SettingsTarget): void;
  attachImage(m: AttachImage): void;
  contextQuery(query: string): void;
  checkpointAction(m: CheckpointAction): void;
}

export type WebviewInbox = ChatInbox & FeatureInbox;

/** For a setup that has none of the features beside the chat (node tests of the chat alone). */
export const NO_FEATURES: FeatureInbox = {
  exportTab: () => {},
  openSettings: () => {},
  attachImage: () => {},
  contextQuery: () => {},
  checkpointAction: () => {},
};

export function routeWebviewMessage(m: WebviewToHost, to: WebviewInbox): void {
  if (!to.open()) return;
  switch (m.type) {
    case 'webview-ready': {
      to.log.info('webview', 'ready', { lastSeenIndex: m.lastSeenIndex, openTabs: m.openTabs });
      to.messages.webviewReady(m.lastSeenIndex, m.openTabs);
      // Tabs the webview has and we do not (a fresh webview's first tab): give them sessions.
      for (const tabId of m.openTabs) if (!to.knowsTab(tabId)) to.tabs.openTab(tabId, 'Chat', false);
      return;
    }
    case 'new-tab':
      to.tabs.openTab(m.tabId, 'Chat', false);
      return;
    case 'prompt':
      to.tabs.prompt(m.tabId, m.messageId, m.text, m.context, m.resendOf);
      return;
    case 'cancel':
      to.tabs.cancel(m.tabId);
      return;
    case 'withdraw-queued':
      to.tabs.withdrawQueued(m.tabId);
      return;
    case 'steer-queued':
      to.tabs.steerQueued(m.tabId);
      return;
    case 'close-tab':
      to.tabs.closeTab(m.tabId);
      return;
    case 'restart-agent':
      void to.tabs.restartTabConfiguration(m.tabId);
      return;
    case 'continue-in-new-session':
      to.tabs.continueInNewSession(m.tabId);
      return;
    case 'export-conversation':
      to.exportTab(m.tabId);
      return;
    case 'open-settings':
      to.openSettings(m.target);
      return;
    case 'ack':
      to.messages.ack(m.lastSeenIndex);
      return;
    case 'rendered':
      return; // answers a test query; read by the test inspector (src/testing/)
    case 'log':
      to.log[m.level]('webview', m.message);
      return;
    case 'attach-image':
      to.attachImage(m);
      return;
    case 'context-query':
      to.contextQuery(m.query);
      return;
    case 'sign-in':
      void to.signIn.choose(m);
      return;
    case 'sign-in-dismiss':
      to.signIn.dismiss(m);
      return;
    case 'checkpoint-action':
      to.checkpointAction(m);
      return;
    case 'permission-answer':
    case 'elicitation-answer':
    case 'set-mode':
    case 'set-config-option':
    case 'set-model':
    case 'open-diff':
    case 'open-location':
      handleTabRequest(to.tabRequests, m);
      return;
  }
}
