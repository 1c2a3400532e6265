// Checkpoints between the host and the webview: after a turn that changed files, the tab shows a
// "N files changed" card (whatever changed them: the editor's fs/*, the agent's own tools, a command
// it ran). The card's file list has Keep / Revert per file; its buttons are Review changes and
// Revert all. Part of the webview protocol (webview.ts lists these in its unions). Pure.

export type ChangedFileKind = 'added' | 'modified' | 'deleted';

export interface ChangedFile {
  /** The workspace folder the file is in (absolute). */
  folder: string;
  /** Relative to `folder`, `/`-separated. */
  path: string;
  kind: ChangedFileKind;
  /** Lines added / removed; absent for binary files. */
  added?: number;
  removed?: number;
  /** What the user did with it on the card. */
  state?: 'kept' | 'reverted';
}

/** The card of turn `messageId` (sent again, whole, whenever it changes). */
export interface FilesChanged {
  type: 'files-changed';
  tabId: string;
  messageId: string;
  files: ChangedFile[];
  /** Files the checkpoint could not hold (too large, nested repositories), named. */
  leftOut?: string[];
  /** What the last action did, or why it could not ("b.txt has unsaved changes: not reverted"). */
  note?: string;
}

export type CheckpointActionKind = 'review' | 'revert-all' | 'revert' | 'keep' | 'open' | 'restore';
export const CHECKPOINT_ACTIONS: readonly CheckpointActionKind[] = ['review', 'revert-all', 'revert', 'keep', 'open', 'restore'];

/** Turn `messageId` has a checkpoint from before its prompt: the prompt offers Restore checkpoint. */
export interface TurnCheckpoint {
  type: 'turn-checkpoint';
  tabId: string;
  messageId: string;
}

/** Webview → host: a button or a file action of turn `messageId`'s card, or its prompt's Restore checkpoint. */
export interface CheckpointAction {
  type: 'checkpoint-action';
  tabId: string;
  messageId: string;
  action: CheckpointActionKind;
  /** For a file's own action: which file (the host checks it is one of the card's). */
  folder?: string;
  path?: string;
}

/** How a file of the card is named in the chat: its path, after its folder's name when there are several. */
export function changedFileLabel(file: Pick<ChangedFile, 'folder' | 'path'>, severalFolders: boolean): string {
  if (!severalFolders) return file.path;
  const name = file.folder.split(/[\\/]/).filter(Boolean).pop() ?? file.folder;
  return `${name}/${file.path}`;
}
