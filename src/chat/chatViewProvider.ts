// The "Chat" WebviewView and its lifecycle: builds the HTML, validates every incoming message and
// passes it on (onDidReceiveMessage: the chat controller, and in tests the inspector), and tells
// the tab message channel when the webview cannot receive (hidden, disposed, reloading) so
// messages are buffered until the webview says `webview-ready` again.
//
// No retainContextWhenHidden: a hidden webview is destroyed and rebuilt from the state it saved
// (webview state persistence), which costs nothing while the chat is out of sight.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../log/logger';
import { type WebviewToHost } from '../protocol/webview';
import { parseWebviewMessage } from '../protocol/webviewMessages';
import { loadAcpSdk } from '../agents/acpSdk';
import { chatHtml } from './chatHtml';
import type { TabMessages } from './tabMessages';

export const CHAT_VIEW_ID = 'symposium.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private viewDisposables: vscode.Disposable[] = [];
  private generation = 0;
  /** The view's title: "Chat · <the agent new chats talk to>" (a lone view's description is not shown). */
  private title: string | undefined;
  private readonly received = new vscode.EventEmitter<WebviewToHost>();

  private readonly resolved = new vscode.EventEmitter<void>();

  /** Every valid message from the webview, in order. */
  readonly onDidReceiveMessage = this.received.event;
  /** The view was resolved (opened, or shown again): its page is loading. */
  readonly onDidResolveView = this.resolved.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sessionId: string,
    private readonly messages: TabMessages,
    private readonly log: Logger,
    private readonly testMode: boolean,
    private readonly maxImageBytes?: () => number,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    // VS Code resolves again when the view moves between containers: drop the old one's listeners.
    this.disposeView();
    this.view = view;
    if (this.title) view.title = this.title;
    const generation = ++this.generation;
    this.log.info('webview', 'resolved', { generation, visible: view.visible });
    this.messages.webviewUnavailable('created');
    const out = vscode.Uri.joinPath(this.extensionUri, 'out');
    view.webview.options = { enableScripts: true, localResourceRoots: [out] };
    view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw), null, this.viewDisposables);
    view.onDidChangeVisibility(
      () => {
        this.log.info('webview', 'visibility changed', { visible: view.visible });
        // Hidden: the page is torn down. Visible: it reloads and sends `webview-ready`.
        if (!view.visible) this.messages.webviewUnavailable('hidden');
      },
      null,
      this.viewDisposables,
    );
    view.onDidDispose(
      () => {
        // A stale view's dispose must not detach the current one.
        if (this.view !== view) return;
        this.log.info('webview', 'disposed', { generation });
        this.disposeView();
        this.messages.webviewUnavailable('disposed');
      },
      null,
      this.viewDisposables,
    );
    this.messages.setPost((m) => {
      void view.webview.postMessage(m).then(
        (delivered) => {
          if (!delivered)
            this.log.debug('webview', 'message not delivered (kept for replay)', {
              type: m.type,
              ...('tabId' in m ? { tabId: m.tabId, index: m.index } : {}),
            });
        },
        (e: unknown) => this.log.warn('webview', 'postMessage failed', e),
      );
    });
    view.webview.html = chatHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(24).toString('base64url'),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(out, 'webview.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(out, 'webview.css')).toString(),
      sessionId: this.sessionId,
      testMode: this.testMode,
      maxImageBytes: this.maxImageBytes?.(),
    });
    // Tabs start their sessions once the page is ready; meanwhile the agent starts (earlyAgentStart.ts)
    // and its protocol's code loads (acpSdk.ts), after the HTML is on its way.
    setTimeout(() => {
      void loadAcpSdk();
      this.resolved.fire();
    }, 0);
  }

  /** Entry point for every message from the webview (also used by a test command). */
  receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      let preview: string;
      try {
        preview = JSON.stringify(raw)?.slice(0, 300) ?? String(raw);
      } catch {
        preview = String(raw);
      }
      this.log.warn('webview', 'invalid message dropped', { error: parsed.error, message: preview });
      return;
    }
    if (parsed.message.type !== 'ack') this.log.debug('webview', 'received', { type: parsed.message.type });
    this.received.fire(parsed.message);
  }

  get state(): { resolved: boolean; visible: boolean; generation: number; title?: string } {
    return {
      resolved: this.view !== undefined,
      visible: this.view?.visible ?? false,
      generation: this.generation,
      title: this.view?.title,
    };
  }

  /** Names the current agent in the view's title. */
  setAgentName(name: string): void {
    this.title = `Chat · ${name}`;
    if (this.view) this.view.title = this.title;
  }

  /** Reveals the chat view (resolving it if needed). */
  async show(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  private disposeView(): void {
    for (const d of this.viewDisposables.splice(0)) d.dispose();
    this.view = undefined;
    this.messages.setPost(undefined);
  }

  dispose(): void {
    this.disposeView();
    this.received.dispose();
    this.resolved.dispose();
  }
}
