// "Discuss in Symposium": a code action on any non-empty selection, and the command behind it,
// which opens a chat tab with the selection (or the current line) attached to its next prompt.
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextRef, TabId } from '../protocol/webview';

/** Offers "Discuss in Symposium" on any non-empty selection. */
export class DiscussCodeActions implements vscode.CodeActionProvider {
  static readonly kind = vscode.CodeActionKind.Empty.append('symposium').append('discuss');
  provideCodeActions(_doc: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    if (range.isEmpty) return [];
    const action = new vscode.CodeAction('Discuss in Symposium', DiscussCodeActions.kind);
    action.command = { command: 'symposium.discussSelection', title: 'Discuss in Symposium' };
    return [action];
  }
}

/** The selection of the active editor (or its current line), with its text. */
function currentSelection(): ContextRef | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return undefined;
  const s = editor.selection;
  const range = s.isEmpty ? editor.document.lineAt(s.active.line).range : s;
  return {
    kind: 'selection',
    uri: editor.document.uri.toString(),
    name: `${path.basename(editor.document.uri.fsPath)}:${range.start.line + 1}-${range.end.line + 1}`,
    range: { startLine: range.start.line + 1, endLine: range.end.line + 1 },
    text: editor.document.getText(range),
  };
}

/**
 * The symposium.discussSelection command: a new tab (opened by `openTab`, after the chat is shown)
 * with the selection attached. Returns the tab's ID, or undefined when there is nothing to discuss.
 */
export async function discussSelection(chat: {
  show(): Promise<void>;
  openTab(tabId: TabId): void;
  attach(tabId: TabId, item: ContextRef): void;
}): Promise<TabId | undefined> {
  const selection = currentSelection();
  if (!selection) {
    void vscode.window.showInformationMessage('Symposium: open a file and select the code to discuss.');
    return undefined;
  }
  await chat.show();
  const tabId = randomUUID();
  chat.openTab(tabId);
  chat.attach(tabId, selection);
  return tabId;
}
