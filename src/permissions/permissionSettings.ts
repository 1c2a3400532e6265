// The vscode side of permissions: the user's rules from `symposium.agents.<name>` (read on every
// request, from user settings only: a workspace cannot switch approvals off), "Bypass Permissions"
// written back to user settings, and the decision log the user can open (a LogOutputChannel, one
// line per decision, plus an in-memory list for tests).
import * as vscode from 'vscode';
import { BUILTIN_AGENT_NAME } from '../agents/agentConfiguration';
import { parsePermissionPolicy, type PermissionPolicy } from '../agents/agentSettings';
import type { UserSettings } from '../agents/userSettings';
import type { DecisionRecord, PermissionBrokerDeps } from './permissionBroker';

const MAX_KEPT = 1_000;

export class PermissionSettings implements Pick<PermissionBrokerDeps, 'policyFor' | 'enableBypass' | 'record'>, vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Symposium Permission Decisions', { log: true });
  private readonly decisions: DecisionRecord[] = [];

  constructor(private readonly settings: Pick<UserSettings, 'read'>) {}

  policyFor(agentName: string): PermissionPolicy {
    return parsePermissionPolicy(this.settings.read('agents'), agentName);
  }

  /** Sets `symposium.agents.<agent>.bypassPermissions: true` in user settings, keeping the rest. */
  async enableBypass(agentName: string): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('symposium');
    const user = cfg.inspect<Record<string, unknown>>('agents')?.globalValue ?? {};
    const entry = (user[agentName] ?? {}) as Record<string, unknown>;
    // Agents come from user settings only, so the entry (with its command) is already there; the
    // built-in agent's entry holds only permission settings. Nothing is copied from the workspace.
    if (agentName !== BUILTIN_AGENT_NAME && entry.command === undefined) throw new Error(`${agentName} is not an agent of your user settings`);
    await cfg.update('agents', { ...user, [agentName]: { ...entry, bypassPermissions: true } }, vscode.ConfigurationTarget.Global);
  }

  record(entry: DecisionRecord): void {
    this.decisions.push(entry);
    if (this.decisions.length > MAX_KEPT) this.decisions.splice(0, this.decisions.length - MAX_KEPT);
    const d = entry.decision;
    const choice = d.outcome === 'selected' ? `${d.optionName} (${d.optionKind}) by ${d.by}` : `cancelled: ${d.reason}`;
    this.channel.info(`${entry.agent} · ${entry.kind} · ${entry.tool} → ${choice}  [session ${entry.sessionId}]`);
  }

  list(): DecisionRecord[] {
    return [...this.decisions];
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
