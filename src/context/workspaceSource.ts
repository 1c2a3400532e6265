// The workspace as a context source for @-mentions: it lists what can be attached (the selection,
// files with open editors first, images, folders, and the symbols of open editors from VS Code's
// symbol providers) and turns chosen items into ACP content blocks: embedded `resource`s when the
// agent accepts embedded context, `resource_link`s otherwise, `image`s when it takes images. Its
// list changes when the active editor or selection changes, and when files are created or deleted
// on disk (by anyone, agents' commands included).
import * as path from 'node:path';
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import type { ContextRef } from '../protocol/webview';
import { confine } from '../node/confinement';
import { readRegularFile } from '../node/containedFile';
import type { ContextSource } from './contextSource';

const MAX_FILES = 2_000;
const MAX_EMBED_CHARS = 200_000;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**,**/target/**}';

export class WorkspaceSource implements ContextSource {
  readonly name = 'workspace';
  readonly kinds = ['file', 'folder', 'symbol', 'selection', 'image'] as const;
  /** The workspace's files; searched again only after files are created, deleted or renamed. */
  private files: Thenable<vscode.Uri[]> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChange = this.changed.event;

  /** `allowedFolders`: besides the chat's folder, where attached items may come from. */
  constructor(private readonly allowedFolders: () => string[]) {
    const changed = (): void => this.changed.fire();
    const filesChanged = (): void => {
      this.files = undefined;
      changed();
    };
    // Created and deleted on disk by anyone (agents' commands included; a rename is both).
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(changed),
      vscode.window.onDidChangeTextEditorSelection(changed),
      watcher,
      watcher.onDidCreate(filesChanged),
      watcher.onDidDelete(filesChanged),
    ];
  }

  /** Everything the `@` menu offers from the workspace right now. */
  async list(): Promise<ContextRef[]> {
    const open = new Set(
      vscode.window.tabGroups.all.flatMap((g) =>
        g.tabs.flatMap((t) => (t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'file' ? [t.input.uri.toString()] : [])),
      ),
    );
    // Selection and editor changes refresh the menu often; the file search is the costly part.
    this.files ??= vscode.workspace.findFiles('**/*', EXCLUDE, MAX_FILES);
    const files = await this.files;
    const rel = (u: vscode.Uri): string => vscode.workspace.asRelativePath(u, false);
    const refs: ContextRef[] = [];
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.uri.scheme === 'file' && !editor.selection.isEmpty) {
      const s = editor.selection;
      refs.push({
        kind: 'selection',
        uri: editor.document.uri.toString(),
        name: `${path.basename(editor.document.uri.fsPath)}:${s.start.line + 1}-${s.end.line + 1}`,
        range: { startLine: s.start.line + 1, endLine: s.end.line + 1 },
      });
    }
    const sorted = [...files].sort(
      (a, b) => Number(open.has(b.toString())) - Number(open.has(a.toString())) || rel(a).localeCompare(rel(b)),
    );
    for (const f of sorted) refs.push({ kind: 'file', uri: f.toString(), name: rel(f), ...(open.has(f.toString()) ? { open: true } : {}) });
    for (const f of sorted)
      if (IMAGE_TYPES[path.extname(f.fsPath).toLowerCase()]) refs.push({ kind: 'image', uri: f.toString(), name: rel(f) });
    const folders = new Set<string>();
    for (const f of files) {
      for (let d = path.dirname(f.fsPath); vscode.workspace.getWorkspaceFolder(vscode.Uri.file(d)) && !folders.has(d); d = path.dirname(d))
        folders.add(d);
    }
    for (const d of [...folders].sort())
      refs.push({ kind: 'folder', uri: vscode.Uri.file(d).toString(), name: `${rel(vscode.Uri.file(d)) || path.basename(d)}/` });
    for (const uri of [...open].map((u) => vscode.Uri.parse(u))) {
      const symbols = await vscode.commands
        .executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', uri)
        .then(
          (s) => s ?? [],
          () => [],
        );
      const walk = (list: vscode.DocumentSymbol[], prefix: string): void => {
        for (const s of list) {
          if (!('range' in s)) continue;
          refs.push({
            kind: 'symbol',
            uri: uri.toString(),
            name: `${prefix}${s.name}`,
            range: { startLine: s.range.start.line + 1, endLine: s.range.end.line + 1 },
          });
          walk(s.children ?? [], `${prefix}${s.name}.`);
        }
      };
      walk(symbols, '');
    }
    return refs;
  }

  /** The chosen items as content blocks. Paths must lie in the chat's folder (or allowed ones). */
  async resolve(refs: ContextRef[], caps: PromptCapabilities, folder: string): Promise<ContentBlock[]> {
    const blocks: ContentBlock[] = [];
    for (const ref of refs) {
      const file = confine(vscode.Uri.parse(ref.uri).fsPath, [folder, ...this.allowedFolders()]);
      const uri = vscode.Uri.file(file);
      const fragment = ref.range ? `#L${ref.range.startLine}-L${ref.range.endLine}` : '';
      const link = (): ContentBlock => ({
        type: 'resource_link',
        uri: `${uri.toString()}${fragment}`,
        name: ref.name,
        ...(ref.kind === 'folder' ? { mimeType: 'inode/directory' } : {}),
      });
      if (ref.kind === 'image') {
        const mimeType = IMAGE_TYPES[path.extname(file).toLowerCase()];
        // Regular files only, and no further than the cap: a FIFO or a huge file becomes a link.
        const bytes =
          caps.image && mimeType
            ? await readRegularFile(file, { maxBytes: MAX_IMAGE_BYTES }).then(
                (r) => r.bytes,
                () => undefined,
              )
            : undefined;
        if (bytes && mimeType && bytes.byteLength <= MAX_IMAGE_BYTES)
          blocks.push({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType, uri: uri.toString() });
        else blocks.push(link()); // the agent takes no images (or it is too large): a link instead
        continue;
      }
      if (ref.kind === 'folder' || !caps.embeddedContext) {
        blocks.push(link());
        continue;
      }
      let text = ref.text;
      if (text === undefined) {
        const doc = await vscode.workspace.openTextDocument(uri);
        text = ref.range ? doc.getText(new vscode.Range(ref.range.startLine - 1, 0, ref.range.endLine, 0)) : doc.getText();
      }
      if (text.length > MAX_EMBED_CHARS) {
        blocks.push(link());
        continue;
      }
      blocks.push({ type: 'resource', resource: { uri: `${uri.toString()}${fragment}`, text, mimeType: 'text/plain' } });
    }
    return blocks;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
