// The agent's state at a glance: one status-bar item with the current agent's name and state
// (not started, starting, ready, working, error). It follows the pool's most recently changed
// actor of the current agent (symposium.currentAgent), so a restart (a new actor) takes over at
// once. After a crash it shows the first line of the failure. A click opens a menu: switch agent,
// restart, show logs, open chat. Starting (and restarting) also shows as window progress. The
// text itself is computed by the pure `statusText`.
import * as vscode from 'vscode';
import { CAN_SIGN_OUT_CONTEXT, SIGN_OUT_COMMAND } from './signOut';
import type { AgentActor } from '../agents/agentActor';
import type { AgentPool } from '../agents/agentPool';
import { SETTINGS_TARGET_COMMANDS, type SettingProblem } from '../settings/settingProblems';

export type AgentStatus = 'not started' | 'starting' | 'ready' | 'working' | 'stopped' | 'error';

/** What the item shows for an actor (or none yet). */
export function statusOf(actor: AgentActor | undefined): { status: AgentStatus; detail?: string } {
  if (!actor) return { status: 'not started' };
  const failure = actor.failure;
  if (failure) return { status: 'error', detail: failure.message.split('\n')[0]?.slice(0, 80) };
  switch (actor.currentState) {
    case 'idle':
      return { status: 'not started' };
    case 'starting':
      return { status: 'starting' };
    case 'running':
      return { status: actor.runningPromptCount > 0 ? 'working' : 'ready' };
    default:
      return { status: 'stopped' };
  }
}

/**
 * Only the short `starting` spins. A turn can run for minutes, and an endless animation makes the
 * page recomposite many times a second: in a browser without GPU compositing (code-server on a
 * VM, our CI) the status bar's spinner alone took most of a core while an agent worked, and a
 * 5000-chunk reply reached the screen in 0.51–0.82 s with the page's animations off against
 * 0.72–1.03 s with them on. The chat shows the turn's progress itself.
 */
const ICONS: Record<AgentStatus, string> = {
  'not started': '$(comment-discussion)',
  starting: '$(loading~spin)',
  ready: '$(comment-discussion)',
  working: '$(pulse)',
  stopped: '$(debug-stop)',
  error: '$(error)',
};

export function statusText(agentName: string, actor: AgentActor | undefined): string {
  const { status, detail } = statusOf(actor);
  return `${ICONS[status]} ${agentName}: ${detail ? `${status} — ${detail}` : status}`;
}

export const AGENT_MENU_COMMAND = 'symposium.agentMenu';

export class AgentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('symposium.agentStatus', vscode.StatusBarAlignment.Left, 100);
  private readonly subscriptions: vscode.Disposable[] = [];
  private actor: AgentActor | undefined;
  /** Actors starting, with what ends their window progress. */
  private readonly starting = new Map<AgentActor, () => void>();
  /** The last 50 texts shown, latest last, and how many were shown in all (tests check sequences). */
  private readonly history: string[] = [];
  private shownCount = 0;
  /** The last 20 window progresses started (agent starts), latest last (tests check them). */
  private readonly progressLog: { title: string; ended: boolean }[] = [];

  constructor(
    private readonly pool: AgentPool,
    private readonly currentAgent: () => string,
    /** "Switch agent…": the agent picker (Symposium: Choose Agent…). */
    private readonly chooseAgent: () => Thenable<unknown>,
    /** Settings the user wrote that new chats cannot honour (an unknown agent, one held back while untrusted). */
    private readonly settingProblems: () => SettingProblem[] = () => [],
  ) {
    this.item.name = 'Symposium agent';
    this.item.command = AGENT_MENU_COMMAND;
    this.subscriptions.push(
      this.item,
      pool.onDidChangeActorState((a) => {
        if (a.agentName === this.currentAgent()) this.actor = a;
        this.followStart(a);
        this.update();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('symposium')) this.update();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
      vscode.commands.registerCommand(AGENT_MENU_COMMAND, () => this.showMenu()),
    );
    this.update();
    this.item.show();
  }

  /** The item's text and tooltip (the test command reads them). */
  get shown(): { text: string; tooltip: string; history: string[]; count: number; progress: { title: string; ended: boolean }[] } {
    const tooltip = typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
    const progress = this.progressLog.map((p) => ({ ...p }));
    return { text: this.item.text, tooltip, history: [...this.history], count: this.shownCount, progress };
  }

  /** Agent start (and restart) as window progress in the status bar, until the agent is ready or gone. */
  private followStart(actor: AgentActor): void {
    const done = this.starting.get(actor);
    if (actor.currentState === 'starting') {
      if (done) return;
      const record = { title: `Starting ${actor.agentName}…`, ended: false };
      this.progressLog.push(record);
      if (this.progressLog.length > 20) this.progressLog.shift();
      const ended = new Promise<void>((resolve) =>
        this.starting.set(actor, () => {
          record.ended = true;
          resolve();
        }),
      );
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: record.title }, () => ended);
    } else if (done) {
      this.starting.delete(actor);
      done();
    }
  }

  private update(): void {
    const name = this.currentAgent();
    // Switched to an agent that already runs (it changes no state, so no event names it): find it.
    if (this.actor?.agentName !== name) this.actor = [...this.pool.all()].reverse().find((a) => a.agentName === name);
    const actor = this.actor;
    this.item.text = statusText(name, actor);
    void vscode.commands.executeCommand('setContext', CAN_SIGN_OUT_CONTEXT, !!actor?.canSignOut);
    const failure = actor?.failure;
    const problems = failure ? [] : this.settingProblems();
    if (problems.length) {
      // The agent runs, but not the one the user's settings ask for: say so where the user looks.
      this.item.text = `$(warning) ${this.item.text.replace(/^\$\([^)]*\)\s*/, '')} — settings ignored`;
      this.item.tooltip = `${problems.map((p) => p.text).join('\n\n')}\n\nClick to open the settings.`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      this.item.tooltip = failure ? `${failure.message}\n\n${failure.stderrTail}`.trim() : `Symposium: ${name} — click for agent actions`;
      this.item.backgroundColor = failure ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    }
    if (this.history.at(-1) !== this.item.text) {
      this.history.push(this.item.text);
      this.shownCount++;
      if (this.history.length > 50) this.history.shift();
    }
  }

  private async showMenu(): Promise<void> {
    const labels = { user: 'Open User Settings', remote: 'Open Remote Settings', trust: 'Manage Workspace Trust' } as const;
    const actions: Array<vscode.QuickPickItem & { run: () => unknown }> = [
      ...this.settingProblems().map((p) => ({
        label: `$(gear) ${labels[p.target]}`,
        detail: p.text,
        run: () => vscode.commands.executeCommand(SETTINGS_TARGET_COMMANDS[p.target]),
      })),
      { label: '$(arrow-swap) Switch agent…', run: () => this.chooseAgent() },
      { label: '$(debug-restart) Restart agent', run: () => vscode.commands.executeCommand('symposium.restartAgent') },
      { label: '$(output) Show logs', run: () => vscode.commands.executeCommand('symposium.showLogs') },
      { label: '$(comment-discussion) Open chat', run: () => vscode.commands.executeCommand('symposium.openChat') },
      { label: '$(account) Sign in to the agent…', run: () => vscode.commands.executeCommand('symposium.signIn') },
      // Only when the agent offers it (ACP `auth.logout`).
      ...(this.actor?.canSignOut
        ? [{ label: `$(sign-out) Sign Out of ${this.currentAgent()}`, run: () => vscode.commands.executeCommand(SIGN_OUT_COMMAND) }]
        : []),
    ];
    const picked = await vscode.window.showQuickPick(actions, { title: this.item.text.replace(/\$\([^)]*\)\s*/, '') });
    await picked?.run();
  }

  dispose(): void {
    for (const done of this.starting.values()) done();
    this.starting.clear();
    for (const d of this.subscriptions) d.dispose();
  }
}
