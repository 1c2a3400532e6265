// Opens VS Code's diff view for a tool call's `diff` content: both sides are virtual documents
// (`symposium-diff:` URIs backed by a Map), because the agent may describe an edit it has not made
// (or made differently) and the file on disk is not the "before" any more after a write.
import * as path from 'node:path';
import * as vscode from 'vscode';

const DIFF_SCHEME = 'symposium-diff';

export class DiffView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  async openDiff(d: { toolCallId: string; path: string; oldText: string | null; newText: string; title: string }): Promise<void> {
    await this.show(d.path, d.oldText, d.newText, `${path.basename(d.path)} (${d.oldText === null ? 'new file' : 'agent edit'})`);
  }

  /** Opens a diff of two texts; returns the right side's URI (it names a review). */
  async show(filePath: string, oldText: string | null, newText: string, title: string): Promise<vscode.Uri> {
    const id = String(++this.counter);
    // Keep the file name (and so the language) on both sides; the query tells them apart.
    const side = (s: string): vscode.Uri => vscode.Uri.from({ scheme: DIFF_SCHEME, path: filePath, query: `side=${s}&id=${id}` });
    const left = side('old');
    const right = side('new');
    this.docs.set(left.toString(), oldText ?? '');
    this.docs.set(right.toString(), newText);
    // Bounded: only the most recent diffs stay openable.
    while (this.docs.size > 200) this.docs.delete(this.docs.keys().next().value!);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false, preserveFocus: false });
    return right;
  }

  async openLocation(filePath: string, line?: number): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(filePath));
    const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.docs.clear();
  }
}
