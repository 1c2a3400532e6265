// Activation wiring of checkpoints (docs/checkpoints.md): the turn checkpoints in the workspace's
// storage, the "before the turn" side of the diff views (a read-only document per file and
// checkpoint, served only from repositories a turn opened), the Review changes view (VS Code's
// multi-file diff), and which editors have unsaved changes.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import { DEFAULT_LIMITS } from '../node/checkpointRepo';
import type { TabPayload } from '../protocol/webview';
import { type CheckpointEditor, type FileAtCheckpoint, TurnCheckpoints } from './turnCheckpoints';

export const CHECKPOINT_SCHEME = 'symposium-checkpoint';
export const UNDO_RESTORE_COMMAND = 'symposium.undoRestore';
const COMMIT = /^[0-9a-f]{40}$/;

export interface CheckpointSetupDeps {
  context: vscode.ExtensionContext;
  /** The extension's folder for this workspace's data: repositories go in `checkpoints/`. */
  storageDir: string;
  log: Log;
  enabled(): boolean;
  maxBytes(): number;
  foldersOf(tabId: string): string[];
  conversationOf(tabId: string): string | undefined;
  send(payload: TabPayload): void;
}

/** `symposium-checkpoint:/<path>?folder=…&commit=…` (no commit: the file is absent on that side). */
function beforeUri(f: FileAtCheckpoint | { folder: string; path: string; commit?: undefined }): vscode.Uri {
  const query = new URLSearchParams({ folder: f.folder, ...(f.commit ? { commit: f.commit } : {}) }).toString();
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${f.path}`, query });
}

export function createCheckpoints(deps: CheckpointSetupDeps): TurnCheckpoints {
  const nowUri = (f: FileAtCheckpoint): vscode.Uri => vscode.Uri.file(path.join(f.folder, f.path));
  const editor: CheckpointEditor = {
    unsavedFiles: () => vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => d.uri.fsPath),
    openDiff: async (f) => {
      await vscode.commands.executeCommand('vscode.diff', beforeUri(f), await nowSide(f), `${f.path} (before the turn ↔ now)`);
    },
    confirmRestore: async (files) => {
      const lines = files.map(
        (f) =>
          `${f.label}: ${f.kind === 'added' ? 'removed (added since)' : f.kind === 'deleted' ? 'brought back' : 'put back'}` +
          `${f.byUser ? ' (changed by you since)' : ''}${f.unsaved ? ' (unsaved in an editor: left alone)' : ''}`,
      );
      const detail = [...lines.slice(0, 30), ...(lines.length > 30 ? [`… and ${lines.length - 30} more`] : [])].join('\n');
      const restore = 'Restore';
      const includeUnsaved = 'Restore, Including Unsaved Files';
      const answer = await vscode.window.showWarningMessage(
        `Restore ${files.length} ${files.length === 1 ? 'file' : 'files'} to how they were before this prompt?`,
        { modal: true, detail },
        restore,
        ...(files.some((f) => f.unsaved) ? [includeUnsaved] : []),
      );
      return answer === restore ? 'restore' : answer === includeUnsaved ? 'include-unsaved' : undefined;
    },
    review: async (title, files) => {
      const rows = await Promise.all(files.map(async (f) => [nowUri(f), beforeUri(f), await nowSide(f)]));
      await vscode.commands.executeCommand('vscode.changes', title, rows);
    },
  };
  const checkpoints = new TurnCheckpoints({
    log: deps.log,
    storageRoot: deps.storageDir,
    enabled: deps.enabled,
    limits: () => ({ ...DEFAULT_LIMITS, maxCheckpointBytes: deps.maxBytes() }),
    maxBytes: deps.maxBytes,
    foldersOf: deps.foldersOf,
    conversationOf: deps.conversationOf,
    send: deps.send,
    editor,
  });
  const provider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent: async (uri) => {
      const params = new URLSearchParams(uri.query);
      const commit = params.get('commit');
      const repo = checkpoints.openedRepo(params.get('folder') ?? '');
      if (!repo || !commit || !COMMIT.test(commit)) return '';
      return (await repo.contentAt(commit, uri.path.slice(1)))?.toString('utf8') ?? '';
    },
  };
  deps.context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, provider),
    vscode.commands.registerCommand(UNDO_RESTORE_COMMAND, async () => {
      if (!(await checkpoints.undoLastRestore())) void vscode.window.showInformationMessage('There is no restore to undo in this window.');
    }),
  );
  return checkpoints;
}

/** The "now" side: the file, or an empty document when the turn deleted it. */
async function nowSide(f: FileAtCheckpoint): Promise<vscode.Uri> {
  const file = vscode.Uri.file(path.join(f.folder, f.path));
  try {
    await vscode.workspace.fs.stat(file);
    return file;
  } catch {
    return beforeUri({ folder: f.folder, path: f.path });
  }
}
