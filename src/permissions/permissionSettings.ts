// The vscode side of permissions: the user's rules from `symposium.agents.<name>` (read on every
// request), "Bypass Permissions" written back to user settings, and the decision log the user can
// open (a LogOutputChannel, one line per decision, plus an in-memory list for tests).
import * as vscode from 'vscode';
import { BUILTIN_AGENT_NAME } from '../agents/agentConfiguration';
import { parsePermissionPolicy, type PermissionPolicy } from '../agents/agentSettings';
import type { DecisionRecord, PermissionBrokerDeps } from './permissionBroker';

const MAX_KEPT = 1_000;

export class PermissionSettings implements Pick<PermissionBrokerDeps, 'policyFor' | 'enableBypass' | 'record'>, vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Symposium Permission Decisions', { log: true });
  private readonly decisions: DecisionRecord[] = [];

  policyFor(agentName: string): PermissionPolicy {
    return parsePermissionPolicy(vscode.workspace.getConfiguration('symposium').get('agents'), agentName);
  }

  /** Sets `symposium.agents.<agent>.bypassPermissions: true` in user settings, keeping the rest. */
  async enableBypass(agentName: string): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('symposium');
    const user = cfg.inspect<Record<string, unknown>>('agents')?.globalValue ?? {};
    const entry = (user[agentName] ?? {}) as Record<string, unknown>;
    // The built-in agent's entry holds only permission settings; others keep their command.
    const next = { ...user, [agentName]: { ...entry, bypassPermissions: true } };
    if (agentName !== BUILTIN_AGENT_NAME && entry.command === undefined) {
      const effective = cfg.get<Record<string, Record<string, unknown>>>('agents')?.[agentName];
      next[agentName] = { ...effective, ...entry, bypassPermissions: true };
    }
    await cfg.update('agents', next, vscode.ConfigurationTarget.Global);
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
