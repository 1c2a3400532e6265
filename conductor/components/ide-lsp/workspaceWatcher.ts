// The file watcher of one workspace folder (agent-lsp's row 13), shared by every language server
// of the folder: files created, changed or deleted on disk — by the agent's shell, git, a build —
// are told to the servers as `workspace/didChangeWatchedFiles` (each server gets what it
// registered for, watchedFiles.ts), and documents a server has open are re-read (`didChange`,
// or `didClose` when gone), so the next answer sees the disk as it is. One `fs.watch` per folder
// (not Node's recursive watch, which on Linux would also walk node_modules and build output):
// the folders the workspace scan walks (dot-folders and build output skipped; node_modules watched
// for packages coming and going, not descended into), bounded in number. Events are collected for
// a moment and then checked with `lstat` (an editor's save is a rename, a create may come as a
// change); a question flushes what is pending first, so it never races a change already seen.
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../../log';
import { FileChangeType, type FileChange } from './watchedFiles';
import { errorText } from '../../../src/protocol/errorText';
import { DisposableBase } from '../../../src/node/disposable';

/** Folders not descended into: build output and caches (node_modules is watched, shallowly). */
const SKIPPED = new Set(['__pycache__', 'target', 'dist', 'build', 'out', 'venv', 'vendor']);
const SHALLOW = new Set(['node_modules']);
const MAX_FOLDERS = 2000;
const MAX_FILES = 100_000;

export class WorkspaceWatcher extends DisposableBase {
  private readonly folders = new Map<string, FSWatcher>();
  private readonly files = new Set<string>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private warned = false;
  /** Settles when the first walk is done. */
  readonly ready: Promise<void>;

  constructor(
    readonly root: string,
    private readonly log: Logger,
    private readonly onChanges: (changes: FileChange[]) => void,
    private readonly debounceMs = 50,
  ) {
    super();
    this.ready = this.enqueue(() => this.walk(root, []));
  }

  /**
   * Handles every change seen so far, now (before a question is asked). A change the kernel has
   * not delivered yet is not waited for: the files a question names are checked on disk anyway
   * (documents.ts), and this runs on every question.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.queue;
    return this.enqueue(() => this.process());
  }

  override dispose(): void {
    super.dispose();
    clearTimeout(this.timer);
    for (const w of this.folders.values()) w.close();
    this.folders.clear();
    this.files.clear();
    this.pending.clear();
  }

  get watchedFolders(): number {
    return this.folders.size;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch((err: unknown) => this.log.warn(`file watcher: ${errorText(err)}`));
    return this.queue;
  }

  private skipped(name: string): boolean {
    return name.startsWith('.') || SKIPPED.has(name);
  }

  /** Watches `dir` and the folders below it; files found go to `created` (unless known already). */
  private async walk(dir: string, created: FileChange[], shallow = false): Promise<void> {
    if (this.isDisposed || this.folders.has(dir)) return;
    if (this.folders.size >= MAX_FOLDERS) {
      if (!this.warned) this.log.warn(`file watcher: watching the first ${MAX_FOLDERS} folders of ${this.root} only`);
      this.warned = true;
      return;
    }
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => this.seen(name ? path.join(dir, name.toString()) : dir));
      watcher.on('error', () => this.forget(dir, []));
      this.folders.set(dir, watcher);
    } catch (err) {
      this.log.debug(`file watcher: cannot watch ${dir}: ${(err as NodeJS.ErrnoException).code ?? errorText(err)}`);
      return;
    }
    if (shallow) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!this.skipped(e.name)) await this.walk(full, created, SHALLOW.has(e.name));
      } else if (!this.files.has(full) && this.files.size < MAX_FILES) {
        this.files.add(full);
        created.push({ file: full, type: FileChangeType.Created });
      }
    }
  }

  private seen(file: string): void {
    if (this.isDisposed) return;
    this.pending.add(file);
    this.timer ??= setTimeout(() => void this.flush(), this.debounceMs);
  }

  /** Stops watching `dir` and below; the files known there are deleted. */
  private forget(dir: string, changes: FileChange[]): void {
    const prefix = dir + path.sep;
    for (const [folder, w] of this.folders)
      if (folder === dir || folder.startsWith(prefix)) {
        w.close();
        this.folders.delete(folder);
      }
    for (const f of this.files)
      if (f.startsWith(prefix)) {
        this.files.delete(f);
        changes.push({ file: f, type: FileChangeType.Deleted });
      }
  }

  private async process(): Promise<void> {
    const touched = [...this.pending].sort();
    this.pending.clear();
    const changes: FileChange[] = [];
    for (const p of touched) {
      if (this.isDisposed) return;
      const info = await lstat(p).catch(() => undefined);
      const parent = path.dirname(p);
      if (info?.isDirectory()) {
        // A folder created or moved in: watched, and its files are new (unless under a shallow folder).
        const name = path.basename(p);
        if (!this.folders.has(p) && !this.skipped(name) && !SHALLOW.has(path.basename(parent)))
          await this.walk(p, changes, SHALLOW.has(name));
        else if (SHALLOW.has(path.basename(parent)) && !this.folders.has(p)) changes.push({ file: p, type: FileChangeType.Created });
      } else if (info) {
        if (this.files.has(p)) changes.push({ file: p, type: FileChangeType.Changed });
        else if (this.files.size < MAX_FILES) {
          this.files.add(p);
          changes.push({ file: p, type: FileChangeType.Created });
        }
      } else if (this.files.delete(p)) {
        changes.push({ file: p, type: FileChangeType.Deleted });
      } else if (this.folders.has(p)) {
        this.forget(p, changes);
      } else if (SHALLOW.has(path.basename(parent))) {
        changes.push({ file: p, type: FileChangeType.Deleted });
      }
    }
    if (changes.length > 0 && !this.isDisposed) {
      this.log.debug(`file watcher: ${changes.length} change(s)`, { first: changes.slice(0, 5) });
      this.onChanges(changes);
    }
  }
}
