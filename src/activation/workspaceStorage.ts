// Where the extension keeps a workspace's data (the conversations, the checkpoints): in its folder
// of the workspace's own storage, for every window on that workspace. VS Code's extension host locks
// its workspace storage folder (`<id>/vscode.lock`); another window on the same workspace meanwhile
// gets `<id>-1` (up to `-9`), an empty folder. That other window is common in a browser or remote
// window: a window the user closed keeps its extension host for the server's reconnection grace
// (code-server: 3 hours), so opening the workspace again showed an empty history and no checkpoints
// until then. Both are made to be shared by windows (the history: one writer per conversation,
// src/history/ownership.ts; a checkpoint repository: one git at a time, under a file lock), so they
// stay in the workspace's own folder. vscode-free.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** VS Code's name for the n-th extra storage folder of workspace `id`: `<id>-<n>`, n from 1 to 9. */
const EXTRA_STORAGE = /^(.+)-[1-9]$/;

/**
 * The workspace's own storage folder for `storagePath` (the extension's `context.storageUri`): the
 * same path when it is the workspace's own, else the extension's folder in `<id>` once that exists.
 */
export function workspaceOwnStorage(storagePath: string): string {
  const slot = path.dirname(storagePath);
  const extra = EXTRA_STORAGE.exec(path.basename(slot));
  if (!extra) return storagePath;
  const own = path.join(path.dirname(slot), extra[1]!);
  try {
    if (!fs.statSync(own).isDirectory()) return storagePath;
  } catch {
    return storagePath;
  }
  return path.join(own, path.basename(storagePath));
}
