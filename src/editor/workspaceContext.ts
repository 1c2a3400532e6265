// Context from the workspace for @-mentions: lists what can be attached (files, open editors,
// folders, symbols of open editors via VS Code's symbol providers, the current selection) for the
// webview's `@` menu, and turns the chosen items into ACP content blocks: embedded `resource`s
// when the agent accepts embedded context, `resource_link`s otherwise. Also "Discuss in
// Symposium" (command and code action), which opens a tab with the selection attached.
import * as path from 'node:path';
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import type { ContextRef } from '../protocol/webview';
import { confine } from '../node/confinement';

const MAX_FILES = 2_000;
const MAX_EMBED_CHARS = 200_000;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**,**/target/**}';

export class WorkspaceContext {
  /** The workspace's files; searched again only after files are created, deleted or renamed. */
  private files: Thenable<vscode.Uri[]> | undefined;

  constructor(private readonly allowedFolders: () => string[]) {}

  /** Files changed on disk: the next list() searches the workspace again. */
  invalidateFiles(): void {
    this.files = undefined;
  }

  /** Everything the `@` menu offers right now. */
  async list(): Promise<ContextRef[]> {
    const open = new Set(vscode.window.tabGroups.all.flatMap((g) => g.tabs.flatMap((t) => (t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'file' ? [t.input.uri.toString()] : []))));
    // Selection and editor changes refresh the menu often; the file search is the costly part.
    this.files ??= vscode.workspace.findFiles('**/*', EXCLUDE, MAX_FILES);
    const files = await this.files;
    const rel = (u: vscode.Uri): string => vscode.workspace.asRelativePath(u, false);
    const refs: ContextRef[] = [];
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.uri.scheme === 'file' && !editor.selection.isEmpty) {
      const s = editor.selection;
      refs.push({ kind: 'selection', uri: editor.document.uri.toString(), name: `${path.basename(editor.document.uri.fsPath)}:${s.start.line + 1}-${s.end.line + 1}`, range: { startLine: s.start.line + 1, endLine: s.end.line + 1 } });
    }
    const sorted = [...files].sort((a, b) => Number(open.has(b.toString())) - Number(open.has(a.toString())) || rel(a).localeCompare(rel(b)));
    for (const f of sorted) refs.push({ kind: 'file', uri: f.toString(), name: rel(f), ...(open.has(f.toString()) ? { open: true } : {}) });
    for (const f of sorted) if (IMAGE_TYPES[path.extname(f.fsPath).toLowerCase()]) refs.push({ kind: 'image', uri: f.toString(), name: rel(f) });
    const folders = new Set<string>();
    for (const f of files) {
      for (let d = path.dirname(f.fsPath); vscode.workspace.getWorkspaceFolder(vscode.Uri.file(d)) && !folders.has(d); d = path.dirname(d)) folders.add(d);
    }
    for (const d of [...folders].sort()) refs.push({ kind: 'folder', uri: vscode.Uri.file(d).toString(), name: `${rel(vscode.Uri.file(d)) || path.basename(d)}/` });
    for (const uri of [...open].map((u) => vscode.Uri.parse(u))) {
      const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', uri).then((s) => s ?? [], () => []);
      const walk = (list: vscode.DocumentSymbol[], prefix: string): void => {
        for (const s of list) {
          if (!('range' in s)) continue;
          refs.push({ kind: 'symbol', uri: uri.toString(), name: `${prefix}${s.name}`, range: { startLine: s.range.start.line + 1, endLine: s.range.end.line + 1 } });
          walk(s.children ?? [], `${prefix}${s.name}.`);
        }
      };
      walk(symbols, '');
    }
    return refs;
  }

  /** The selection of the active editor (or its current line), for "Discuss in Symposium". */
  currentSelection(): ContextRef | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== 'file') return undefined;
    const s = editor.selection;
    const range = s.isEmpty ? editor.document.lineAt(s.active.line).range : s;
    return {
      kind: 'selection', uri: editor.document.uri.toString(),
      name: `${path.basename(editor.document.uri.fsPath)}:${range.start.line + 1}-${range.end.line + 1}`,
      range: { startLine: range.start.line + 1, endLine: range.end.line + 1 },
      text: editor.document.getText(range),
    };
  }

  /** The chosen items as content blocks. Paths must lie in the chat's folder (or allowed ones). */
  async resolve(refs: ContextRef[], caps: PromptCapabilities, folder: string): Promise<ContentBlock[]> {
    const blocks: ContentBlock[] = [];
    for (const ref of refs) {
      const file = confine(vscode.Uri.parse(ref.uri).fsPath, [folder, ...this.allowedFolders()]);
      const uri = vscode.Uri.file(file);
      const fragment = ref.range ? `#L${ref.range.startLine}-L${ref.range.endLine}` : '';
      const link = (): ContentBlock => ({ type: 'resource_link', uri: `${uri.toString()}${fragment}`, name: ref.name, ...(ref.kind === 'folder' ? { mimeType: 'inode/directory' } : {}) });
      if (ref.kind === 'image') {
        const mimeType = IMAGE_TYPES[path.extname(file).toLowerCase()];
        const bytes = caps.image && mimeType ? await vscode.workspace.fs.readFile(uri) : undefined;
        if (bytes && mimeType && bytes.byteLength <= MAX_IMAGE_BYTES) blocks.push({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType, uri: uri.toString() });
        else blocks.push(link()); // the agent takes no images (or it is too large): a link instead
        continue;
      }
      if (ref.kind === 'folder' || !caps.embeddedContext) { blocks.push(link()); continue; }
      let text = ref.text;
      if (text === undefined) {
        const doc = await vscode.workspace.openTextDocument(uri);
        text = ref.range ? doc.getText(new vscode.Range(ref.range.startLine - 1, 0, ref.range.endLine, 0)) : doc.getText();
      }
      if (text.length > MAX_EMBED_CHARS) { blocks.push(link()); continue; }
      blocks.push({ type: 'resource', resource: { uri: `${uri.toString()}${fragment}`, text, mimeType: 'text/plain' } });
    }
    return blocks;
  }
}

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
