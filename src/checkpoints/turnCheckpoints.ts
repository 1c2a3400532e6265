// A checkpoint of every folder a session may touch, taken when each prompt starts, and the
// "N files changed" card when the turn ends (docs/checkpoints.md). The checkpoint never holds the
// prompt back: the prompt is sent at once and the snapshot runs beside it (only a prompt that
// follows a turn at once waits for that turn's end to be recorded: `lastTurnRecorded`). An agent write through
// the editor's fs/write_text_file waits for a snapshot still running on its folder (`beforeWrite`),
// and for the end of the turn before it to be recorded, so the checkpoint holds the file as it was
// before the turn and the card lists only the turn's own changes; the agent's own writes (its tools,
// its commands) race the snapshot as they would any observer. vscode-free: the editor side
// (unsaved editors, diff views) comes in as `CheckpointEditor`.
import * as fs from 'node:fs';
import type { Log } from '../log/logEvent';
import { isInside } from '../node/confinement';
import type { Checkpoint, CheckpointLimits } from '../node/checkpointRepo';
import { Checkpoints } from '../node/checkpointRestore';
import { type ChangedFile, type CheckpointAction, type FilesChanged } from '../protocol/checkpoints';
import type { TabPayload } from '../protocol/webview';
import { realOrSame, TurnRestores, type RestorePreview } from './turnRestores';

export { UNDO_RESTORE_TITLE, type RestorePreview } from './turnRestores';

/** What the editor does for the card: which files have unsaved edits, and the diff views. */
export interface CheckpointEditor {
  /** Absolute paths of files with unsaved changes in an editor. */
  unsavedFiles(): string[];
  /** One file: before the turn ↔ now. */
  openDiff(file: FileAtCheckpoint): Promise<void>;
  /** Every changed file of a turn, in one view. */
  review(title: string, files: FileAtCheckpoint[]): Promise<void>;
  /** Asks before a restore, listing what will change; undefined: the user said no. */
  confirmRestore(files: RestorePreview[]): Promise<'restore' | 'include-unsaved' | undefined>;
}

export interface FileAtCheckpoint {
  folder: string;
  path: string;
  commit: string;
}

export interface TurnCheckpointsDeps {
  log: Log;
  /** The extension's storage for this workspace: repositories go under `checkpoints/`. */
  storageRoot: string;
  enabled(): boolean;
  limits(): CheckpointLimits;
  /** symposium.checkpoints.maxMegabytes, per folder. */
  maxBytes(): number;
  /** The folders a tab's session may touch: its working directory first. */
  foldersOf(tabId: string): string[];
  /** The stored conversation a tab records to (its checkpoints live and go with it). */
  conversationOf(tabId: string): string | undefined;
  send(payload: TabPayload): void;
  editor?: CheckpointEditor;
}

interface FolderCheckpoint {
  repo: Checkpoints;
  taken: Promise<Checkpoint | undefined>;
}

interface TurnRecord {
  tabId: string;
  messageId: string;
  folders: FolderCheckpoint[];
  card?: Omit<FilesChanged, 'type'>;
}

/** How far a file's modification time may lag behind Date.now() (a few kernel ticks). */
const FS_CLOCK_SLACK_MS = 20;

/** The longest a prompt waits for the turn before it to be recorded (a git status and a tree, normally ms). */
const RECORDED_WAIT_MS = 5_000;

/** Turns kept in memory for their cards' actions (the checkpoints themselves stay on disk). */
const MAX_TURNS = 500;

export class TurnCheckpoints {
  private readonly repos = new Map<string, Checkpoints>();
  private readonly turns = new Map<string, TurnRecord>();
  /** Snapshots running now, by folder: writes into that folder wait for them. */
  private readonly running = new Map<string, Set<Promise<unknown>>>();
  /** Per tab, the end-of-turn work in order (a card's changes are computed before the next turn's snapshot). */
  private readonly tabWork = new Map<string, Promise<void>>();
  private readonly restores: TurnRestores;

  constructor(private readonly deps: TurnCheckpointsDeps) {
    this.restores = new TurnRestores(deps);
  }

  /** The repository of a folder (its real path), opened once; an interrupted restore is finished first. */
  repoFor(folder: string): Checkpoints {
    const real = fs.realpathSync.native(folder);
    let repo = this.repos.get(real);
    if (!repo) {
      repo = new Checkpoints(this.deps.storageRoot, real, this.deps.limits());
      this.repos.set(real, repo);
      void repo.recover().then((done) => {
        if (done) this.deps.log.warn('checkpoints', 'finished a restore that was interrupted', { folder: real, ...done });
      });
    }
    return repo;
  }

  /** A folder's repository if a turn opened it (the diff views' before side reads only those). */
  openedRepo(folder: string): Checkpoints | undefined {
    return this.repos.get(folder);
  }

  /**
   * A session is ready: the folders are read now (nothing recorded), so that the first prompt's
   * checkpoint knows each file's content even if the agent's first write beats it.
   */
  sessionStarted(tabId: string): void {
    if (!this.deps.enabled()) return;
    const startedAt = Date.now() - FS_CLOCK_SLACK_MS;
    for (const folder of this.folders(tabId)) {
      try {
        const repo = this.repoFor(folder);
        this.track(
          repo.folder,
          repo
            .prepare(startedAt)
            .catch((e: unknown) => this.deps.log.warn('checkpoints', 'could not read the folder', { folder, error: String(e) })),
        );
      } catch (e) {
        this.deps.log.warn('checkpoints', 'no checkpoint for this folder', { folder, error: String(e) });
      }
    }
  }

  /** A prompt starts: snapshot each folder, without waiting for it. */
  turnStarted(tabId: string, messageId: string): void {
    if (!this.deps.enabled()) return;
    const conversation = this.conversationName(tabId);
    // File times come from the kernel's coarse clock (a tick behind Date.now()): a write just
    // after this moment may carry a time just before it.
    const startedAt = Date.now() - FS_CLOCK_SLACK_MS;
    const folders: FolderCheckpoint[] = [];
    for (const folder of this.folders(tabId)) {
      let repo: Checkpoints;
      try {
        repo = this.repoFor(folder);
      } catch (e) {
        this.deps.log.warn('checkpoints', 'no checkpoint for this folder', { folder, error: String(e) });
        continue;
      }
      const taken = repo.snapshot(conversation, messageId, { before: startedAt, keepDeleted: true }).catch((e: unknown) => {
        this.deps.log.warn('checkpoints', 'snapshot failed', { folder, error: String(e) });
        return undefined;
      });
      this.track(repo.folder, taken);
      folders.push({ repo, taken });
    }
    this.turns.set(messageId, { tabId, messageId, folders });
    // Once a checkpoint exists, the prompt offers Restore checkpoint.
    void Promise.all(folders.map((f) => f.taken)).then((taken) => {
      if (taken.some((c) => c)) this.deps.send({ type: 'turn-checkpoint', tabId, messageId });
    });
    while (this.turns.size > MAX_TURNS) this.turns.delete(this.turns.keys().next().value!);
  }

  /** Resolves once no snapshot of a folder holding `file` is running (an fs/write waits here). */
  async beforeWrite(file: string): Promise<void> {
    for (const [folder, running] of this.running) {
      if (isInside(file, folder)) await Promise.all([...running]);
    }
  }

  /**
   * Resolves once the end of the tab's last turn is recorded (at most RECORDED_WAIT_MS): a prompt
   * that follows a turn at once waits here, so an agent's own first write of the next turn (whose
   * file time, from the kernel's coarse clock, can fall before that turn's end) is never listed on
   * the card of the turn before.
   */
  async lastTurnRecorded(tabId: string): Promise<void> {
    const work = this.tabWork.get(tabId);
    if (!work) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), RECORDED_WAIT_MS)));
    try {
      if ((await Promise.race([work, late])) === 'late')
        this.deps.log.warn('checkpoints', 'the last turn is not recorded yet; the prompt goes on', { tabId });
    } finally {
      clearTimeout(timer);
    }
  }

  /** The turn ended (or failed): the card, if anything changed. */
  turnEnded(tabId: string, messageId: string): Promise<void> {
    // Files the next turn changes (it may start at once) are not this turn's. No slack here: a
    // write of this turn has a file time at or before now (+1: Date.now() drops the fraction).
    const endedAt = Date.now() + 1;
    const work = (this.tabWork.get(tabId) ?? Promise.resolve()).then(() => this.showChanges(messageId, endedAt));
    const settled = work.catch((e: unknown) => this.deps.log.warn('checkpoints', 'could not list the changes', { error: String(e) }));
    this.tabWork.set(tabId, settled);
    // Until the turn's end is recorded, a write through the editor waits (beforeWrite): the next
    // turn may start at once, and its first write could otherwise be read as this turn's (a file
    // time comes from the kernel's coarse clock, a tick behind, so it can fall before endedAt).
    for (const { repo } of this.turns.get(messageId)?.folders ?? []) this.track(repo.folder, settled);
    return settled;
  }

  /** The folders as the turn left them (a checkpoint each), and what differs from its start. */
  private async showChanges(messageId: string, endedAt: number): Promise<void> {
    const turn = this.turns.get(messageId);
    if (!turn) return;
    const files: ChangedFile[] = [];
    const leftOut: string[] = [];
    for (const { repo, taken } of turn.folders) {
      const checkpoint = await taken;
      if (!checkpoint) continue;
      const end = await repo.snapshot(checkpoint.conversation, `${checkpoint.id}-end`, { before: endedAt });
      for (const l of checkpoint.leftOut) leftOut.push(l.path);
      for (const c of await repo.changesBetween(checkpoint, end)) files.push({ folder: repo.folder, ...c });
      void repo.capSize(this.deps.maxBytes()).catch(() => undefined);
    }
    if (files.length === 0) return;
    files.sort((a, b) => a.folder.localeCompare(b.folder) || a.path.localeCompare(b.path));
    turn.card = { tabId: turn.tabId, messageId, files, ...(leftOut.length ? { leftOut: [...new Set(leftOut)] } : {}) };
    this.sendCard(turn);
  }

  private sendCard(turn: TurnRecord, note?: string): void {
    if (turn.card) this.deps.send({ type: 'files-changed', ...turn.card, ...(note ? { note } : {}) });
  }

  /** A button or file action of a card. The file must be one the card lists. */
  async action(m: CheckpointAction): Promise<void> {
    if (m.action === 'restore') {
      await this.restoreTurn(m.tabId, m.messageId);
      return;
    }
    const turn = this.turns.get(m.messageId);
    if (!turn || turn.tabId !== m.tabId || !turn.card) return;
    const file = m.path === undefined ? undefined : turn.card.files.find((f) => f.folder === m.folder && f.path === m.path);
    if (m.path !== undefined && !file) return;
    const at = async (f: ChangedFile): Promise<FileAtCheckpoint | undefined> => {
      const checkpoint = await turn.folders.find((x) => x.repo.folder === f.folder)?.taken;
      return checkpoint && { folder: f.folder, path: f.path, commit: checkpoint.commit };
    };
    switch (m.action) {
      case 'open': {
        const target = file && (await at(file));
        if (target) await this.deps.editor?.openDiff(target);
        return;
      }
      case 'review': {
        const targets = (await Promise.all(turn.card.files.filter((f) => f.state !== 'reverted').map(at))).filter((t) => !!t);
        await this.deps.editor?.review('Changes of the turn', targets);
        return;
      }
      case 'keep':
        if (file) file.state = 'kept';
        this.sendCard(turn);
        return;
      case 'revert':
      case 'revert-all':
        await this.revert(turn, file ? [file] : turn.card.files.filter((f) => !f.state));
        return;
    }
  }

  /** Puts files back as the turn's checkpoint had them; files with unsaved edits are named and left alone. */
  private async revert(turn: TurnRecord, files: ChangedFile[]): Promise<void> {
    const unsaved = new Set((this.deps.editor?.unsavedFiles() ?? []).map(realOrSame));
    const notes: string[] = [];
    for (const { repo, taken } of turn.folders) {
      const checkpoint = await taken;
      const mine = files.filter((f) => f.folder === repo.folder);
      if (!checkpoint || mine.length === 0) continue;
      const skip = mine.filter((f) => unsaved.has(`${repo.folder}/${f.path}`)).map((f) => f.path);
      const result = await repo.restore(checkpoint, { only: mine.map((f) => f.path), skip });
      const done = new Set([...result.written, ...result.deleted]);
      for (const f of mine) if (done.has(f.path)) f.state = 'reverted';
      for (const s of result.skipped)
        notes.push(s.reason === 'asked to skip' ? `${s.path} has unsaved changes: not reverted` : `${s.path} was not saved: not reverted`);
      this.deps.log.info('checkpoints', 'reverted', { folder: repo.folder, files: [...done], skipped: result.skipped });
    }
    this.sendCard(turn, notes.join('; ') || undefined);
  }

  /**
   * Restore checkpoint on a prompt: every folder of the tab back as it was before that prompt, after
   * a confirmation that lists the files (those changed since by the user, and unsaved ones, named).
   * The checkpoints are on disk, so this works for any prompt of the conversation still in history.
   */
  /** "Edit and resend": restore before that prompt; true unless the user declined (nothing to restore is fine). */
  async restoreForResend(tabId: string, messageId: string): Promise<boolean> {
    return (await this.restoreTurn(tabId, messageId)) !== 'declined';
  }

  private restoreTurn(tabId: string, messageId: string): Promise<'restored' | 'nothing' | 'declined'> {
    return this.restores.restore(tabId, messageId, {
      conversation: this.conversationName(tabId),
      folders: this.folders(tabId),
      repoFor: (folder) => this.repoFor(folder),
    });
  }

  /**
   * Undoes the latest restore of this window: every folder it changed back as it was just before
   * (itself a restore, so it can be undone in turn). False when there is none.
   */
  undoLastRestore(): Promise<boolean> {
    return this.restores.undoLast();
  }

  /** The conversation's history entry is gone: so are its checkpoints, in every folder. */
  async deleteConversation(conversationId: string): Promise<void> {
    const name = safeName(conversationId);
    for (const repo of this.repos.values()) await repo.deleteConversation(name).catch(() => undefined);
  }

  private conversationName(tabId: string): string {
    return safeName(this.deps.conversationOf(tabId) ?? tabId);
  }

  /** The tab's folders, the same folder (or one inside another) once. */
  private folders(tabId: string): string[] {
    const out: string[] = [];
    for (const f of this.deps.foldersOf(tabId)) {
      let real: string;
      try {
        if (!fs.statSync(f).isDirectory()) continue;
        real = fs.realpathSync.native(f);
      } catch {
        continue;
      }
      if (out.some((o) => isInside(real, o))) continue;
      for (let i = out.length - 1; i >= 0; i--) if (isInside(out[i]!, real)) out.splice(i, 1);
      out.push(real);
    }
    return out;
  }

  private track(folder: string, p: Promise<unknown>): void {
    let set = this.running.get(folder);
    if (!set) this.running.set(folder, (set = new Set()));
    set.add(p);
    void p.finally(() => set.delete(p));
  }
}

/** A conversation or tab id as a ref name (they are UUIDs; anything else is reduced to safe characters). */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120) || 'conversation';
}
