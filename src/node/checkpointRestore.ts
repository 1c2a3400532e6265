// Putting files back as a checkpoint had them: one file (Revert) or every changed file (Restore).
// Nothing is lost:
//   - the folder as it is now is checkpointed first, so a restore can itself be undone;
//   - a file is deleted only if that checkpoint of now holds it (never one left out for its size,
//     never one the target checkpoint left out, never an ignored one: git never saw those);
//   - the plan is written to a journal before the first file changes; if the process dies half way,
//     `recover()` on the next start carries the same plan out to the end (every step is idempotent:
//     "make this path hold the target's content" or "make this path absent").
// Paths come from git (relative, `/`-separated); a file is written by git itself (which never
// writes through a link on the way) and deleted only when no link sits on its way.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Checkpoint, CheckpointRepo, type FileChange, nulJoin } from './checkpointRepo';
import { randomHex } from './randomHex';
import { writeFileAtomicSync } from './atomicWrite';

export interface RestoreOptions {
  /** Only these paths (Revert one file); all changed paths when absent. */
  only?: readonly string[];
  /** Paths to leave as they are (the user's unsaved editors, unless confirmed). */
  skip?: readonly string[];
  /** Called after each step is done (tests end the process here to interrupt a restore). */
  afterStep?: (step: string) => void;
}

export interface SkippedFile {
  path: string;
  reason: 'asked to skip' | 'not saved in a checkpoint';
}

export interface RestoreResult {
  /** The checkpoint of the folder taken just before: restoring it undoes this restore. */
  backup: Checkpoint;
  written: string[];
  deleted: string[];
  skipped: SkippedFile[];
}

interface Journal {
  target: string;
  backup: string;
  write: string[];
  remove: string[];
}

const JOURNAL = 'restore-journal.json';

export class Checkpoints extends CheckpointRepo {
  private get journalFile(): string {
    return path.join(this.git.gitDir, JOURNAL);
  }

  /** Puts the folder (or `options.only`) back as `target` had it. */
  restore(target: Checkpoint, options: RestoreOptions = {}): Promise<RestoreResult> {
    return this.exclusive(async () => {
      const backup = await this.snapshotNow(target.conversation, `before-restore-${Date.now()}-${randomHex(3)}`);
      const changes = await this.changesAgainstIndex(target.commit, backup.leftOut);
      const plan = planRestore(changes, target, backup, options);
      const journal: Journal = { target: target.commit, backup: backup.commit, write: plan.write, remove: plan.remove };
      writeJournal(this.journalFile, journal);
      options.afterStep?.('journal');
      await this.apply(journal, options.afterStep);
      fs.rmSync(this.journalFile, { force: true });
      return { backup, written: plan.write, deleted: plan.remove, skipped: plan.skipped };
    });
  }

  /** Finishes a restore a previous process did not; returns its plan, or undefined when none was pending. */
  recover(): Promise<{ written: string[]; deleted: string[] } | undefined> {
    return this.exclusive(async () => {
      let journal: Journal;
      try {
        journal = JSON.parse(fs.readFileSync(this.journalFile, 'utf8')) as Journal;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        fs.rmSync(this.journalFile, { force: true }); // torn before the first change: nothing to finish
        return undefined;
      }
      await this.apply(journal);
      fs.rmSync(this.journalFile, { force: true });
      return { written: journal.write, deleted: journal.remove };
    });
  }

  private async apply(journal: Journal, afterStep?: (step: string) => void): Promise<void> {
    if (journal.write.length > 0) {
      await this.git.run(['checkout', journal.target, '--pathspec-from-file=-', '--pathspec-file-nul'], nulJoin(journal.write));
    }
    afterStep?.('write');
    for (const rel of journal.remove) {
      this.removeFile(rel);
      await this.removeEmptyFolders(journal.target, rel);
      afterStep?.(`remove ${rel}`);
    }
    if (journal.remove.length > 0) await this.git.run(['update-index', '--remove', '-z', '--stdin'], nulJoin(journal.remove));
  }

  /** Deletes a file or link of the folder, never through a link on its way (that could lead out). */
  private removeFile(rel: string): void {
    const full = path.join(this.folder, rel);
    const parent = path.dirname(full);
    let realParent: string;
    try {
      realParent = fs.realpathSync.native(parent);
    } catch {
      return; // its folder is gone: so is the file
    }
    if (realParent !== parent) return;
    try {
      const stat = fs.lstatSync(full);
      if (stat.isFile() || stat.isSymbolicLink()) fs.unlinkSync(full);
    } catch {
      // already gone (a finished step being redone)
    }
  }

  /** Removes the folders a deleted file leaves empty, unless the target checkpoint has them. */
  private async removeEmptyFolders(target: string, rel: string): Promise<void> {
    let dir = path.posix.dirname(rel);
    while (dir !== '.' && dir !== '/') {
      const listed = await this.git.run(['ls-tree', '--name-only', target, '--', `${dir}/`]);
      if (listed.stdout.length > 0) return;
      try {
        fs.rmdirSync(path.join(this.folder, dir));
      } catch {
        return; // not empty (or not ours to remove)
      }
      dir = path.posix.dirname(dir);
    }
  }
}

/** Which paths a restore writes back, deletes, and leaves alone (and why). */
export function planRestore(
  changes: readonly FileChange[],
  target: Pick<Checkpoint, 'leftOut'>,
  now: Pick<Checkpoint, 'leftOut'>,
  options: Pick<RestoreOptions, 'only' | 'skip'>,
): { write: string[]; remove: string[]; skipped: SkippedFile[] } {
  const only = options.only ? new Set(options.only) : undefined;
  const skip = new Set(options.skip ?? []);
  const unsavedNow = new Set(now.leftOut.map((l) => l.path));
  const unsavedThen = new Set(target.leftOut.map((l) => l.path));
  const write: string[] = [];
  const remove: string[] = [];
  const skipped: SkippedFile[] = [];
  for (const change of changes) {
    if (only && !only.has(change.path)) continue;
    if (skip.has(change.path)) skipped.push({ path: change.path, reason: 'asked to skip' });
    else if (unsavedNow.has(change.path)) skipped.push({ path: change.path, reason: 'not saved in a checkpoint' });
    else if (change.kind !== 'added') write.push(change.path);
    else if (unsavedThen.has(change.path)) skipped.push({ path: change.path, reason: 'not saved in a checkpoint' });
    else remove.push(change.path);
  }
  return { write, remove, skipped };
}

function writeJournal(file: string, journal: Journal): void {
  writeFileAtomicSync(file, JSON.stringify(journal));
}
