// Turns the experimental LM provider on and off with `symposium.enableExperimentalLM`, live: on,
// the `symposium` vendor's provider and the `symposium-agent-action` tool are registered; off, both
// are unregistered and the `vscodelm` process (if any ever started) is stopped. In an untrusted
// workspace only the user's own value counts (Settings.enableExperimentalLM); granting trust
// applies the workspace's. Also re-announces the models when `symposium.agents` changes.
import * as vscode from 'vscode';
import { AGENT_ACTION_APPROVED, AGENT_ACTION_TOOL, type AgentActionInput } from '../protocol/lm';
import { agentActionConfirmation } from './agentActionConfirmation';
import { vscodelmSpawnSpec } from '../agents/agentConfiguration';
import { type Runtime } from '../settings/agentDefinition';
import type { Log } from '../log/logEvent';
import type { LmProcess } from './lmProcess';
import { SymposiumLmProvider, type LmAgents } from './provider';
import { requireBundle } from '../node/lazyBundle';

type LmBundle = typeof import('./lmBundle');
let lmBundle: LmBundle | undefined;
/** out/lm.js (lmBundle.ts), loaded the first time the provider is turned on. */
function loadLmBundle(extensionPath: string): LmBundle {
  return (lmBundle ??= requireBundle<LmBundle>(extensionPath, 'lm'));
}

export const LM_VENDOR = 'symposium';

export interface LmRegistrationOptions {
  enabled(): boolean;
  source: LmAgents;
  runtime: Runtime;
  log: Log;
  onStderrLine(line: string): void;
}

export class LmRegistration implements vscode.Disposable {
  private active: { provider: SymposiumLmProvider; process: LmProcess; disposables: vscode.Disposable[] } | undefined;
  private readonly watch: vscode.Disposable;

  constructor(private readonly options: LmRegistrationOptions) {
    const trustGranted = vscode.workspace.onDidGrantWorkspaceTrust(() => this.sync());
    const configChanged = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('symposium.enableExperimentalLM')) this.sync();
      else if (
        e.affectsConfiguration('symposium.agents') ||
        e.affectsConfiguration('symposium.enabledComponents') ||
        e.affectsConfiguration('symposium.lm')
      )
        this.active?.provider.refresh();
    });
    this.watch = vscode.Disposable.from(trustGranted, configChanged);
    this.sync();
  }

  get registered(): boolean {
    return this.active !== undefined;
  }

  /** Whether the `vscodelm` process is running (tests: nothing spawns while off). */
  get processRunning(): boolean {
    return this.active?.process.running === true;
  }

  /** What the provider announces now (tests: VS Code's API does not show consumers the capabilities). */
  get models(): vscode.LanguageModelChatInformation[] {
    return this.active?.provider.provideLanguageModelChatInformation() ?? [];
  }

  /** Announces the models again (an agent's capabilities became known). */
  refreshModels(): void {
    this.active?.provider.refresh();
  }

  /** The `vscodelm` process's id while it runs (tests: kill it, the next request recovers). */
  get processPid(): number | undefined {
    return this.active?.process.pid;
  }

  private sync(): void {
    const want = this.options.enabled();
    if (want && !this.active) {
      const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
      const { LmProcess } = loadLmBundle(this.options.runtime.extensionPath);
      const process_ = new LmProcess({
        spec: vscodelmSpawnSpec(this.options.runtime, cwd),
        log: this.options.log,
        onStderrLine: this.options.onStderrLine,
      });
      const provider = new SymposiumLmProvider(process_, this.options.source);
      const disposables = [
        vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, provider),
        vscode.lm.registerTool<AgentActionInput>(AGENT_ACTION_TOOL, agentActionTool),
        provider,
      ];
      this.active = { provider, process: process_, disposables };
      this.options.log.info('lm', 'provider registered (symposium.enableExperimentalLM is on)');
    } else if (!want && this.active) {
      this.stop();
      this.options.log.info('lm', 'provider unregistered (symposium.enableExperimentalLM is off)');
    }
  }

  private stop(): void {
    const a = this.active;
    this.active = undefined;
    if (!a) return;
    for (const d of a.disposables) d.dispose();
    a.process.dispose();
  }

  dispose(): void {
    this.watch.dispose();
    this.stop();
  }
}

/**
 * The agent's own actions that need permission, as a tool call the consumer invokes: VS Code's
 * confirmation (prepareInvocation's message) is the approval; its result answers the agent's
 * `session/request_permission`. A consumer that does not confirm gets `rejected` back from VS Code.
 */
const agentActionTool: vscode.LanguageModelTool<AgentActionInput> = {
  prepareInvocation(options) {
    const { invocationMessage, title, message } = agentActionConfirmation(options.input);
    return { invocationMessage, confirmationMessages: { title, message: new vscode.MarkdownString(message) } };
  },
  invoke() {
    // Reached only once VS Code's confirmation (if shown) was accepted.
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(AGENT_ACTION_APPROVED)]);
  },
};
