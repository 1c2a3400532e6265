// Restore checkpoint: every folder of a tab back as it was before one of its prompts, after a
// confirmation that lists the files (those changed since by the user, and unsaved ones, named), and
// Undo Last Restore, which puts back what the latest restore replaced (itself a restore, so it can be
// undone in turn). The checkpoints are on disk, so this works for any prompt still in the history.
import * as fs from 'node:fs';
import type { Checkpoint } from '../node/checkpointRepo';
import type { Checkpoints } from '../node/checkpointRestore';
import { changedFileLabel } from '../protocol/checkpoints';
import type { Log } from '../log/logEvent';
import type { TabPayload } from '../protocol/webview';

/** The command that undoes the latest restore (package.json: symposium.undoRestore). */
export const UNDO_RESTORE_TITLE = 'Symposium: Undo Last Restore';

/** A file a restore would put back, as the confirmation names it. */
export interface RestorePreview {
  label: string;
  kind: 'added' | 'modified' | 'deleted';
  /** Changed after the agent's last turn ended: by the user (or another program), not the agent. */
  byUser: boolean;
  /** Has unsaved changes in an editor (left alone unless the user includes them). */
  unsaved: boolean;
}

/** What a restore needs of the editor (turnCheckpoints.ts: CheckpointEditor). */
interface RestoreEditor {
  unsavedFiles(): string[];
  confirmRestore(files: RestorePreview[]): Promise<'restore' | 'include-unsaved' | undefined>;
}

interface LastRestore {
  tabId: string;
  /** Each folder's checkpoint of how it was just before the restore. */
  backups: { repo: Checkpoints; backup: Checkpoint }[];
}

/** Where a tab's checkpoints are: its conversation's name and its folders' repositories. */
export interface TabFolders {
  conversation: string;
  folders: string[];
  repoFor(folder: string): Checkpoints;
}

export class TurnRestores {
  /** The latest restore (or undo) of this window, which Undo Last Restore reverses. */
  private lastRestore: LastRestore | undefined;

  constructor(private readonly deps: { log: Log; send(payload: TabPayload): void; editor?: RestoreEditor }) {}

  async restore(tabId: string, messageId: string, tab: TabFolders): Promise<'restored' | 'nothing' | 'declined'> {
    const { conversation, folders, repoFor } = tab;
    const unsaved = new Set((this.deps.editor?.unsavedFiles() ?? []).map(realOrSame));
    const plans: { repo: Checkpoints; target: Checkpoint; unsaved: string[] }[] = [];
    const preview: RestorePreview[] = [];
    for (const folder of folders) {
      const repo = repoFor(folder);
      const all = await repo.list(conversation);
      const target = all.find((c) => c.id === messageId);
      if (!target) continue;
      const changes = await repo.changesSince(target);
      const lastEnd = all.filter((c) => c.id.endsWith('-end')).at(-1);
      const byUser = new Set(lastEnd ? (await repo.changesSince(lastEnd)).map((c) => c.path) : []);
      const skip = changes.filter((c) => unsaved.has(`${repo.folder}/${c.path}`)).map((c) => c.path);
      for (const c of changes)
        preview.push({
          label: changedFileLabel({ folder: repo.folder, path: c.path }, folders.length > 1),
          kind: c.kind,
          byUser: byUser.has(c.path),
          unsaved: skip.includes(c.path),
        });
      plans.push({ repo, target, unsaved: skip });
    }
    const notice = (text: string): void => this.deps.send({ type: 'tab-notice', tabId, level: 'info', text });
    if (plans.length === 0) {
      notice('There is no checkpoint from before this prompt any more.');
      return 'nothing';
    }
    if (preview.length === 0) {
      notice('Nothing to restore: the files are as they were before this prompt.');
      return 'nothing';
    }
    const answer = await this.deps.editor?.confirmRestore(preview);
    if (!answer) return 'declined';
    let restored = 0;
    const skipped: string[] = [];
    const backups: LastRestore['backups'] = [];
    for (const { repo, target, unsaved: skip } of plans) {
      const result = await repo.restore(target, { skip: answer === 'include-unsaved' ? [] : skip });
      restored += result.written.length + result.deleted.length;
      skipped.push(...result.skipped.map((s) => s.path));
      backups.push({ repo, backup: result.backup });
      this.deps.log.info('checkpoints', 'restored', { folder: repo.folder, messageId, backup: result.backup.id, skipped: result.skipped });
    }
    this.lastRestore = { tabId, backups };
    notice(
      `Restored ${restored} ${restored === 1 ? 'file' : 'files'} to how they were before this prompt` +
        (skipped.length ? ` (left alone: ${skipped.join(', ')})` : '') +
        `. The files as they were just before are kept as a checkpoint: ${UNDO_RESTORE_TITLE} puts them back.`,
    );
    return 'restored';
  }

  /**
   * Undoes the latest restore of this window: every folder it changed back as it was just before
   * (itself a restore, so it can be undone in turn). False when there is none.
   */
  async undoLast(): Promise<boolean> {
    const last = this.lastRestore;
    if (!last) return false;
    this.lastRestore = undefined;
    const backups: LastRestore['backups'] = [];
    let changed = 0;
    for (const { repo, backup } of last.backups) {
      const result = await repo.restore(backup);
      changed += result.written.length + result.deleted.length;
      backups.push({ repo, backup: result.backup });
      this.deps.log.info('checkpoints', 'restore undone', { folder: repo.folder, backup: backup.id });
    }
    this.lastRestore = { tabId: last.tabId, backups };
    this.deps.send({
      type: 'tab-notice',
      tabId: last.tabId,
      level: 'info',
      text: `Undid the restore: ${changed} ${changed === 1 ? 'file is' : 'files are'} as they were before it (${UNDO_RESTORE_TITLE} again redoes it).`,
    });
    return true;
  }
}

/** A path with its links resolved, when it exists (editors name files by the path they were opened with). */
export function realOrSame(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}
