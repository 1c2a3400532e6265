// Review of agent writes before they land (`symposium.reviewAgentEdits`): the proposed content is
// shown in VS Code's diff view, and the user accepts or rejects it with the diff editor's title
// buttons (Symposium: Accept Agent Edit / Reject Agent Edit) or the notification. The agent's
// write waits for the answer; cancelling the request (or closing the diff) rejects it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import type { DiffView } from './diffView';

interface PendingReview {
  id: string;
  path: string;
  proposal: vscode.Uri;
  settle: (accepted: boolean) => void;
}

export class EditReview implements vscode.Disposable {
  private readonly pending = new Map<string, PendingReview>();
  private counter = 0;

  constructor(
    private readonly diffView: DiffView,
    private readonly log: Log,
  ) {}

  async ask(r: { path: string; oldText: string | null; newText: string; agentName: string; signal: AbortSignal }): Promise<boolean> {
    const id = String(++this.counter);
    const title = `${path.basename(r.path)}: ${r.agentName} wants to ${r.oldText === null ? 'create it' : 'change it'} (review)`;
    const proposal = await this.diffView.show(r.path, r.oldText, r.newText, title);
    void vscode.commands.executeCommand('setContext', 'symposium.reviewPending', true);
    return new Promise<boolean>((resolve) => {
      const settle = (accepted: boolean): void => {
        if (!this.pending.delete(id)) return;
        r.signal.removeEventListener('abort', onAbort);
        void vscode.commands.executeCommand('setContext', 'symposium.reviewPending', this.pending.size > 0);
        this.log.info('files', accepted ? 'edit accepted' : 'edit rejected', { path: r.path });
        // Close the review's diff editor.
        for (const g of vscode.window.tabGroups.all)
          for (const t of g.tabs) {
            if (t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposal.toString())
              void vscode.window.tabGroups.close(t);
          }
        resolve(accepted);
      };
      const onAbort = (): void => settle(false);
      this.pending.set(id, { id, path: r.path, proposal, settle });
      r.signal.addEventListener('abort', onAbort, { once: true });
      void vscode.window
        .showInformationMessage(`${r.agentName} wants to write ${r.path}. Apply the edit?`, 'Accept', 'Reject')
        .then((choice) => {
          if (choice) settle(choice === 'Accept');
        });
    });
  }

  /** Accept / Reject from the command palette or the diff editor title: the active review, else the oldest. */
  answer(accepted: boolean, uri?: vscode.Uri): boolean {
    const active = uri ?? vscode.window.activeTextEditor?.document.uri;
    const target =
      [...this.pending.values()].find((p) => active && p.proposal.toString() === active.toString()) ?? this.pending.values().next().value;
    if (!target) return false;
    target.settle(accepted);
    return true;
  }

  pendingPaths(): string[] {
    return [...this.pending.values()].map((p) => p.path);
  }

  dispose(): void {
    for (const p of [...this.pending.values()]) p.settle(false);
  }
}
