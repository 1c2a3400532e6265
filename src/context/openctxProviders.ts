// The OpenCtx providers the user configured, as one client the @ menu, the editor annotations
// and (through the session's _meta) the conductor share. Reads `openctx.providers`, the setting
// OpenCtx's own extension reads (provider URI → settings, or true / false), and
// `symposium.openctx.enabled`. Module providers are code: they load only in a trusted workspace
// (and `openctx.providers` is a restricted setting, so an untrusted workspace cannot set it). A new
// client is made when the settings or the workspace trust change; its problems go to the log with
// the provider's URI.
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import { OpenCtxClient, parseProviderSettings, type OpenCtxProviderConfig } from '../node/openctxClient';

export interface OpenCtxConfiguration {
  providers: OpenCtxProviderConfig[];
  allowModules: boolean;
}

export class OpenCtxProviders implements vscode.Disposable {
  private client: OpenCtxClient | undefined;
  private config: OpenCtxConfiguration | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The providers (or their settings) changed: cached answers are stale. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly log: Log,
    private readonly timeoutMs?: number,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('openctx') || e.affectsConfiguration('symposium.openctx')) this.reset();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reset()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
    ];
  }

  /** What is configured now (empty when switched off). Also what the conductor gets at session start. */
  configuration(): OpenCtxConfiguration {
    if (this.config) return this.config;
    const allowModules = vscode.workspace.isTrusted;
    if (vscode.workspace.getConfiguration('symposium.openctx').get<boolean>('enabled') === false) {
      this.config = { providers: [], allowModules };
      return this.config;
    }
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const { providers, problems } = parseProviderSettings(vscode.workspace.getConfiguration('openctx').get<unknown>('providers'), base);
    for (const p of problems) this.log.warn('openctx', p);
    const usable = providers.filter((p) => {
      if (p.uri.startsWith('file:') && !allowModules) {
        this.log.warn('openctx', `${p.uri}: module providers are code; not loaded until the workspace is trusted`);
        return false;
      }
      return true;
    });
    this.config = { providers: usable, allowModules };
    this.log.info('openctx', 'providers', { providers: usable.map((p) => p.uri) });
    return this.config;
  }

  /** The client for the configured providers; undefined when there are none. */
  current(): OpenCtxClient | undefined {
    if (this.client) return this.client;
    const { providers, allowModules } = this.configuration();
    if (providers.length === 0) return undefined;
    this.client = new OpenCtxClient({
      providers,
      allowModules,
      ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
      onProblem: (provider, message) => this.log.warn('openctx', `${provider}: ${message}`),
    });
    return this.client;
  }

  private reset(): void {
    this.client?.dispose();
    this.client = undefined;
    this.config = undefined;
    this.changed.fire();
  }

  dispose(): void {
    this.client?.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
