// The permission decision log: one line per decision (who decided what for which tool call) in
// the "Symposium Permission Decisions" output channel the user can open, plus the recent decisions
// in memory for the tests.
import * as vscode from 'vscode';
import type { DecisionRecord } from './permissionBroker';

const MAX_KEPT = 1_000;

export class DecisionLog implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Symposium Permission Decisions', { log: true });
  private readonly decisions: DecisionRecord[] = [];

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
