// "Symposium: Show Protocol Traffic": a webview panel with the live JSON-RPC messages of one chat
// tab's session at every hop of its conductor (editor ↔ editor-edge, each component ↔ the next,
// agent-edge ↔ agent): direction, method, time, request ↔ response pairing with durations, a
// filter, large payloads collapsed, credentials and env values masked. Rows come from the
// TrafficStore as the conductor streams them (src/protocol/traffic.ts builds them). "Save trace"
// writes the session's entries as JSON lines (the conductor's trace format) for bug reports.
// Bundled apart (out/trafficViewer.js, trafficViewerBundle.ts), loaded when first used.
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import {
  parseTrafficToHost,
  RowBuilder,
  savedLine,
  SessionFilter,
  type HostToTraffic,
  type RenderedTrafficRow,
  type TrafficEntry,
} from '../protocol/traffic';
import { trafficHtml } from './trafficHtml';
import type { TrafficStore } from './trafficStore';
import { errorText } from '../protocol/errorText';

/** A chat tab with a session, as the viewer offers it. */
export interface TrafficTab {
  tabId: string;
  title: string;
  agentName: string;
  /** The agent configuration (conductor process) serving it. */
  key: string;
  sessionId: string;
}

export interface TrafficViewerDeps {
  extensionUri: vscode.Uri;
  store: TrafficStore;
  log: Log;
  tabs: () => TrafficTab[];
  testMode: boolean;
}

interface Showing {
  panel: vscode.WebviewPanel;
  tab: TrafficTab;
  /** Per-render state: rebuilt when the webview (re)loads. */
  filter: SessionFilter;
  rows: RowBuilder;
  subscriptions: vscode.Disposable[];
}

export class TrafficViewer implements vscode.Disposable {
  private showing: Showing | undefined;
  private rendered: { filter: string; rows: RenderedTrafficRow[] } | undefined;
  private readonly renderedEvents = new vscode.EventEmitter<void>();

  constructor(private readonly deps: TrafficViewerDeps) {}

  /** What the viewer last said it shows (tests; only reported in test mode). */
  get lastRendered(): { filter: string; rows: RenderedTrafficRow[] } | undefined {
    return this.rendered;
  }
  readonly onDidRender = this.renderedEvents.event;

  /** Test mode: sets the viewer's filter box. */
  setFilter(filter: string): void {
    if (this.showing) this.post(this.showing, { type: 'set-filter', filter });
  }

  async show(tabId?: string): Promise<void> {
    const tab = await this.chooseTab(tabId, 'Show the protocol traffic of which chat?');
    if (!tab) return;
    this.close();
    const panel = vscode.window.createWebviewPanel('symposium.traffic', `Protocol Traffic: ${tab.title}`, vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(this.deps.extensionUri, 'out')],
    });
    const showing: Showing = { panel, tab, filter: new SessionFilter(tab.sessionId), rows: new RowBuilder(), subscriptions: [] };
    this.showing = showing;
    this.rendered = undefined;
    const webview = panel.webview;
    webview.html = trafficHtml({
      nonce: randomBytes(16).toString('base64'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, 'out', 'traffic.js')).toString(),
      testMode: this.deps.testMode,
    });
    showing.subscriptions.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(showing, raw)),
      this.deps.store.onDidAppend((e) => {
        if (this.showing !== showing || e.key !== tab.key) return;
        const rows = this.rowsFor(showing, e.entries);
        // A gap in the conductor's trace has no rows but changes what the count says.
        if (rows.length || e.entries.length === 0)
          this.post(showing, { type: 'append', rows, dropped: e.dropped, unrecorded: e.unrecorded });
      }),
      panel.onDidDispose(() => {
        if (this.showing === showing) this.close();
      }),
    );
    this.deps.log.info('traffic', 'showing protocol traffic', { tabId: tab.tabId, sessionId: tab.sessionId });
  }

  /** Writes the session's trace to `target` (asks where when not given). */
  async save(tabId?: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const tab = tabId || !this.showing ? await this.chooseTab(tabId, 'Save the protocol trace of which chat?') : this.showing.tab;
    if (!tab) return undefined;
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        title: 'Save protocol trace',
        filters: { 'JSON lines': ['jsonl'] },
        defaultUri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir()),
          `symposium-trace-${tab.sessionId}.jsonl`,
        ),
      }));
    if (!uri) return undefined;
    const filter = new SessionFilter(tab.sessionId);
    const { entries, dropped, unrecorded } = this.deps.store.entries(tab.key);
    const lines = entries
      .flatMap((e) => filter.accept(e))
      .sort((a, b) => a.seq - b.seq)
      .map(savedLine);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(lines.map((l) => `${l}\n`).join('')));
    this.deps.log.info('traffic', 'saved protocol trace', {
      tabId: tab.tabId,
      path: uri.fsPath,
      messages: lines.length,
      dropped,
      unrecorded,
    });
    if (!target) void vscode.window.showInformationMessage(`Symposium: saved ${lines.length} messages to ${uri.fsPath}`);
    return uri;
  }

  private async chooseTab(tabId: string | undefined, placeHolder: string): Promise<TrafficTab | undefined> {
    const tabs = this.deps.tabs();
    if (tabId !== undefined) {
      const tab = tabs.find((t) => t.tabId === tabId);
      if (!tab) throw new Error(`no chat tab ${tabId} with a session`);
      return tab;
    }
    if (tabs.length === 0) {
      void vscode.window.showInformationMessage('Symposium: no chat has a session yet; open a chat first.');
      return undefined;
    }
    if (tabs.length === 1) return tabs[0];
    const picked = await vscode.window.showQuickPick(
      tabs.map((tab) => ({ label: tab.title, description: `${tab.agentName} · session ${tab.sessionId}`, tab })),
      { placeHolder },
    );
    return picked?.tab;
  }

  private receive(showing: Showing, raw: unknown): void {
    const parsed = parseTrafficToHost(raw);
    if (!parsed.ok) return this.deps.log.warn('traffic', 'invalid message from the traffic viewer dropped', { error: parsed.error });
    const message = parsed.message;
    if (message.type === 'save') return void this.save(showing.tab.tabId).catch((err: unknown) => this.failed('save', err));
    if (message.type === 'rendered') {
      this.rendered = { filter: message.filter, rows: message.rows };
      this.renderedEvents.fire();
      return;
    }
    // (Re)loaded: everything so far, from scratch.
    showing.filter = new SessionFilter(showing.tab.sessionId);
    showing.rows = new RowBuilder();
    const { entries, dropped, unrecorded } = this.deps.store.entries(showing.tab.key);
    const title = `${showing.tab.title} — ${showing.tab.agentName}, session ${showing.tab.sessionId}`;
    this.post(showing, { type: 'reset', title, rows: this.rowsFor(showing, entries), dropped, unrecorded });
  }

  private rowsFor(showing: Showing, entries: readonly TrafficEntry[]): ReturnType<RowBuilder['row']>[] {
    return entries.flatMap((e) => showing.filter.accept(e)).map((e) => showing.rows.row(e));
  }

  private post(showing: Showing, message: HostToTraffic): void {
    void showing.panel.webview.postMessage(message);
  }

  private failed(what: string, err: unknown): void {
    const text = errorText(err);
    this.deps.log.error('traffic', `${what} failed`, { error: text });
    void vscode.window.showErrorMessage(`Symposium: ${what} failed: ${text}`);
  }

  private close(): void {
    const showing = this.showing;
    this.showing = undefined;
    if (!showing) return;
    for (const s of showing.subscriptions) s.dispose();
    showing.panel.dispose();
  }

  dispose(): void {
    this.close();
    this.renderedEvents.dispose();
  }
}
