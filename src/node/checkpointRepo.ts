// A folder's checkpoints: each a commit of the whole folder (what .gitignore does not exclude, within
// the size limits) in a shadow repository (checkpointGit.ts), named by a ref per conversation
// (refs/symposium/<conversation>/<checkpoint>). The shadow index is git's stat cache: a snapshot
// asks `git status` what changed since the last one and hashes only those files, so a turn on a
// large folder costs a directory walk and a few small writes. Every window on a workspace shares a
// folder's repository: one git at a time, across processes, under a file lock in its git directory.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CheckpointGit, nulFields } from './checkpointGit';
import { withFileLock } from './fileLock';

export interface CheckpointLimits {
  /** A file larger than this is left out of a checkpoint. */
  maxFileBytes: number;
  /** New content one checkpoint may add; files past it are left out. */
  maxCheckpointBytes: number;
}

/** A folder's first checkpoint holds all of it: the per-checkpoint limit is the folder's whole budget (symposium.checkpoints.maxMegabytes). */
export const DEFAULT_LIMITS: CheckpointLimits = { maxFileBytes: 5 * 1024 * 1024, maxCheckpointBytes: 500 * 1024 * 1024 };

export type LeftOutReason = 'file too large' | 'checkpoint size limit' | 'nested git repository' | 'changed before it was read';

export interface LeftOut {
  path: string;
  reason: LeftOutReason;
}

export interface Checkpoint {
  conversation: string;
  id: string;
  commit: string;
  /** Files of the folder this checkpoint does not hold (and that a restore therefore leaves alone). */
  leftOut: LeftOut[];
  createdAt: number;
}

export type ChangeKind = 'added' | 'modified' | 'deleted';

export interface FileChange {
  /** Relative to the folder, with `/`. */
  path: string;
  kind: ChangeKind;
  /** Lines added and removed; undefined for binary files. */
  added?: number;
  removed?: number;
}

const NAME = /^[A-Za-z0-9_-]{1,120}$/;
const REF_ROOT = 'refs/symposium';

function refName(conversation: string, id?: string): string {
  if (!NAME.test(conversation) || (id !== undefined && !NAME.test(id)))
    throw new Error(`Not a checkpoint name: ${conversation}/${id ?? ''}`);
  return id === undefined ? `${REF_ROOT}/${conversation}/` : `${REF_ROOT}/${conversation}/${id}`;
}

/** Which moment a snapshot stands for (see `snapshot`). */
export interface StageAs {
  before?: number;
  keepDeleted?: boolean;
}

/** What a staging of "now" found: the files it could not hold. */
interface Staged {
  leftOut: LeftOut[];
}

/** How long an operation waits for another window's (a folder's first reading can take this long on a large one). */
const LOCK_WAIT_MS = 120_000;

export class CheckpointRepo {
  readonly git: CheckpointGit;

  constructor(
    storageRoot: string,
    folder: string,
    readonly limits: CheckpointLimits = DEFAULT_LIMITS,
  ) {
    this.git = new CheckpointGit(storageRoot, folder);
  }

  get folder(): string {
    return this.git.workTree;
  }

  /**
   * Runs `fn` after every operation started before it, in this process and in any other window's:
   * one git at a time on the shadow index (git's own index.lock would fail the second instead).
   */
  protected exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock(path.join(this.git.gitDir, 'symposium-operation'), fn, { timeoutMs: LOCK_WAIT_MS });
  }

  /**
   * Records the folder as it is now under `conversation`/`id`. With `as.before` (a time, ms): the
   * folder as it was before then, as far as known — a file changed at or after `before` (and, with
   * `as.keepDeleted`, a deleted one) keeps what the last snapshot saw (the agent's first write can come before git has
   * read the file; the checkpoint must not hold the agent's version).
   */
  snapshot(conversation: string, id: string, as: StageAs = {}): Promise<Checkpoint> {
    return this.exclusive(() => this.snapshotNow(conversation, id, as));
  }

  protected async snapshotNow(conversation: string, id: string, as: StageAs = {}): Promise<Checkpoint> {
    const ref = refName(conversation, id);
    const { leftOut } = await this.stageNow(as);
    const tree = await this.git.text(['write-tree']);
    const createdAt = Date.now();
    const message = `checkpoint ${conversation}/${id}\n\n${JSON.stringify({ leftOut, createdAt })}\n`;
    const commit = await this.git.text(['commit-tree', tree], message);
    await this.git.run(['update-ref', ref, commit]);
    return { conversation, id, commit, leftOut, createdAt };
  }

  /**
   * Brings the shadow index to the folder as it is now: files git's stat cache says changed are
   * hashed (within the limits), deleted ones dropped. Ignored files are never looked at.
   */
  protected async stageNow({ before, keepDeleted }: StageAs = {}): Promise<Staged> {
    const status = await this.git.run([
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      '--no-renames',
      '--ignore-submodules=all',
    ]);
    const update: string[] = [];
    const drop: string[] = [];
    const leftOut: LeftOut[] = [];
    let budget = this.limits.maxCheckpointBytes;
    for (const entry of nulFields(status.stdout)) {
      const xy = entry.slice(0, 2);
      const rel = entry.slice(3);
      const tracked = xy !== '??';
      if (rel.endsWith('/')) {
        // An untracked folder git will not enter: another repository (its own .git) inside this one.
        leftOut.push({ path: rel.slice(0, -1), reason: 'nested git repository' });
        continue;
      }
      if (tracked && xy[1] === 'D') {
        if (!keepDeleted) update.push(rel);
        continue;
      }
      if (tracked && xy[1] !== 'M' && xy[1] !== 'T') continue;
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(path.join(this.folder, rel));
      } catch {
        update.push(rel); // gone since git looked: --remove drops it
        continue;
      }
      if (!stat.isSymbolicLink() && !stat.isFile()) continue;
      if (before !== undefined && stat.mtimeMs >= before) {
        // Changed after the checkpoint's moment, before git read it: a known file keeps what the
        // last snapshot saw; a file made after that moment is new; any other was there, with a
        // content nobody read (left out: never reported as added, never deleted by a restore).
        if (!tracked && !(stat.birthtimeMs >= before)) leftOut.push({ path: rel, reason: 'changed before it was read' });
        continue;
      }
      const size = stat.isSymbolicLink() ? 0 : stat.size;
      const reason: LeftOutReason | undefined =
        size > this.limits.maxFileBytes ? 'file too large' : size > budget ? 'checkpoint size limit' : undefined;
      if (reason) {
        leftOut.push({ path: rel, reason });
        // An older version in the index would be taken for this file's content: drop it.
        if (tracked) drop.push(rel);
        continue;
      }
      budget -= size;
      update.push(rel);
    }
    if (update.length > 0) await this.git.run(['update-index', '--add', '--remove', '-z', '--stdin'], nulJoin(update));
    if (drop.length > 0) await this.git.run(['update-index', '--force-remove', '-z', '--stdin'], nulJoin(drop));
    return { leftOut };
  }

  /**
   * Reads the folder into the shadow index without recording a checkpoint (the next one starts
   * from it); files changed at or after `before` are left for later.
   */
  prepare(before?: number): Promise<void> {
    return this.exclusive(async () => {
      await this.stageNow({ before });
    });
  }

  /** The checkpoints of a conversation, oldest first. */
  list(conversation: string): Promise<Checkpoint[]> {
    return this.exclusive(() => this.listNow(refName(conversation)));
  }

  protected async listNow(prefix: string): Promise<Checkpoint[]> {
    const out = await this.git.text(['for-each-ref', '--format=%(refname)%00%(objectname)', prefix]);
    const found: Checkpoint[] = [];
    for (const line of out ? out.split('\n') : []) {
      const [ref = '', commit = ''] = line.split('\0');
      const [conversation = '', id = ''] = ref.slice(REF_ROOT.length + 1).split('/');
      const meta = await this.metaOf(commit);
      found.push({ conversation, id, commit, ...meta });
    }
    return found.sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The left-out list and time a checkpoint's commit carries. */
  protected async metaOf(commit: string): Promise<{ leftOut: LeftOut[]; createdAt: number }> {
    const text = await this.git.text(['cat-file', 'commit', commit]);
    const body = text.slice(text.indexOf('\n\n') + 2).split('\n\n')[1] ?? '{}';
    try {
      const meta = JSON.parse(body) as { leftOut?: LeftOut[]; createdAt?: number };
      return {
        leftOut: Array.isArray(meta.leftOut) ? meta.leftOut : [],
        createdAt: typeof meta.createdAt === 'number' ? meta.createdAt : 0,
      };
    } catch {
      return { leftOut: [], createdAt: 0 };
    }
  }

  /**
   * What differs between a checkpoint and the folder now (lines +/- per text file). A file the
   * checkpoint left out is not reported as added: it was there, its content just was not saved.
   */
  changesSince(base: Pick<Checkpoint, 'commit' | 'leftOut'>): Promise<FileChange[]> {
    return this.exclusive(async () => {
      const { leftOut } = await this.stageNow();
      const unsavedThen = new Set(base.leftOut.map((l) => l.path));
      return (await this.changesAgainstIndex(base.commit, leftOut)).filter((c) => c.kind !== 'added' || !unsavedThen.has(c.path));
    });
  }

  /** What differs between two checkpoints of this folder (a turn's start and its end). */
  changesBetween(base: Pick<Checkpoint, 'commit' | 'leftOut'>, end: Pick<Checkpoint, 'commit' | 'leftOut'>): Promise<FileChange[]> {
    return this.exclusive(async () => {
      const unsavedThen = new Set(base.leftOut.map((l) => l.path));
      return (await this.changesAgainstIndex(base.commit, end.leftOut, end.commit)).filter(
        (c) => c.kind !== 'added' || !unsavedThen.has(c.path),
      );
    });
  }

  /** `commit` ↔ the index, or ↔ the commit `against`. */
  protected async changesAgainstIndex(commit: string, nowLeftOut: readonly LeftOut[], against?: string): Promise<FileChange[]> {
    const options = ['-z', '--no-renames', '--no-ext-diff', '--no-textconv'];
    const base = against ? ['diff-tree', '-r', ...options] : ['diff-index', '--cached', ...options];
    const sides = against ? [commit, against] : [commit];
    const kinds = nulFields((await this.git.run([...base, '--name-status', ...sides, '--'])).stdout);
    const stats = nulFields((await this.git.run([...base, '--numstat', ...sides, '--'])).stdout);
    const lines = new Map<string, { added?: number; removed?: number }>();
    for (const stat of stats) {
      const [added = '-', removed = '-', rel = ''] = stat.split('\t');
      if (!rel) continue;
      lines.set(rel, added === '-' ? {} : { added: Number(added), removed: Number(removed) });
    }
    const unsaved = new Set(nowLeftOut.map((l) => l.path));
    const changes: FileChange[] = [];
    for (let i = 0; i + 1 < kinds.length; i += 2) {
      const letter = kinds[i]!;
      const rel = kinds[i + 1]!;
      let kind: ChangeKind = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
      // Left out of "now" but on disk: it is there, its content just was not hashed.
      if (kind === 'deleted' && unsaved.has(rel)) kind = 'modified';
      changes.push({ path: rel, kind, ...(lines.get(rel) ?? {}) });
    }
    return changes.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** A file's bytes in a checkpoint (undefined when it held none); a link's target as text. */
  contentAt(commit: string, rel: string): Promise<Buffer | undefined> {
    return this.exclusive(async () => {
      try {
        return (await this.git.run(['cat-file', 'blob', `${commit}:${rel}`])).stdout;
      } catch {
        return undefined;
      }
    });
  }

  /** Removes every checkpoint of a conversation and the content no other checkpoint holds. */
  deleteConversation(conversation: string): Promise<void> {
    return this.exclusive(async () => {
      const refs = await this.listNow(refName(conversation));
      await this.deleteRefs(refs.map((c) => refName(c.conversation, c.id)));
      await this.git.run(['prune', '--expire=now']);
    });
  }

  private async deleteRefs(refs: readonly string[]): Promise<void> {
    if (refs.length === 0) return;
    await this.git.run(['update-ref', '--stdin'], refs.map((r) => `delete ${r}\n`).join(''));
  }

  /** Bytes the shadow repository takes on disk. */
  sizeOnDisk(): number {
    return duBytes(this.git.gitDir);
  }

  /**
   * Deletes the oldest checkpoints (of any conversation) until the repository fits in `maxBytes`;
   * the newest checkpoint is always kept. Returns the checkpoints removed.
   */
  capSize(maxBytes: number): Promise<Checkpoint[]> {
    return this.exclusive(async () => {
      const removed: Checkpoint[] = [];
      const all = await this.listNow(`${REF_ROOT}/`);
      while (this.sizeOnDisk() > maxBytes && all.length > 1) {
        const oldest = all.shift()!;
        await this.deleteRefs([refName(oldest.conversation, oldest.id)]);
        await this.git.run(['prune', '--expire=now']);
        removed.push(oldest);
      }
      return removed;
    });
  }
}

export function nulJoin(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}

function duBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += duBytes(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}
