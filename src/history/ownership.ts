// Which window owns a conversation. Two windows of one workspace share the history folder; a
// conversation's file has one writer: the window that has it open live holds `<id>.lock` there
// ({pid, host, instance, heartbeat}). Another window that reopens it sees the lock and shows the
// conversation read-only (it may continue it as a new conversation, a new file), never appending
// to the same file.
//
// A lock is created with O_EXCL, so only one window gets it. Its holder rewrites the heartbeat
// every HEARTBEAT_MS and deletes the lock when the tab closes or the window goes away. A window that
// crashed leaves its lock behind: the lock is stale when its process is gone (same host) or its
// heartbeat is older than the stale time, and the next window takes it over. Taking over is guarded
// by `<id>.lock.takeover` (O_EXCL as well), so two windows seeing the same stale lock do not both
// win. vscode-free.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { isObject } from '../protocol/guards';
import { writeFileAtomicSync } from '../node/atomicWrite';

export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 60_000;

/** What a lock file says. */
export interface LockHolder {
  pid: number;
  host: string;
  /** One per window (per OwnershipLocks instance): tells our own locks from another window's. */
  instance: string;
  /** ISO time of the holder's last heartbeat. */
  heartbeat: string;
}

/** `holder` is absent when the lock could not be read (being replaced right now). */
export type Ownership = { owned: true } | { owned: false; holder?: LockHolder };

export interface OwnershipOptions {
  /** A lock whose heartbeat is older than this is stale (default STALE_MS). */
  staleMs?: number;
  /** Heartbeat period (default HEARTBEAT_MS); 0: no timer (the caller calls heartbeat()). */
  heartbeatMs?: number;
  /** This window's id (default: a new UUID). */
  instance?: string;
}

const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export class OwnershipLocks {
  readonly instance: string;
  private readonly held = new Set<string>();
  private readonly staleMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    options: OwnershipOptions = {},
  ) {
    this.instance = options.instance ?? randomUUID();
    this.staleMs = options.staleMs ?? STALE_MS;
    const every = options.heartbeatMs ?? HEARTBEAT_MS;
    if (every > 0) {
      this.timer = setInterval(() => this.heartbeat(), every);
      this.timer.unref?.();
    }
  }

  /** Takes the conversation if nobody (alive) has it; else says who does. */
  acquire(id: string): Ownership {
    if (!ID_PATTERN.test(id)) return { owned: true };
    if (this.held.has(id) && this.holder(id)?.instance === this.instance) return { owned: true };
    fs.mkdirSync(this.dir, { recursive: true });
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.create(id)) return { owned: true };
      const holder = this.holder(id);
      if (!holder) {
        // Unreadable (being written, or torn by a crash between create and write): stale only
        // once it is old; else retry the create (the file may be gone by now).
        if (this.ageMs(this.file(id)) > this.staleMs) this.takeOver(id, undefined);
        continue;
      }
      if (holder.instance === this.instance) {
        this.held.add(id);
        return { owned: true };
      }
      if (!this.isStale(holder)) return { owned: false, holder };
      if (this.takeOver(id, holder)) return { owned: true };
    }
    const holder = this.holder(id);
    return holder ? { owned: false, holder } : { owned: false };
  }

  /** Gives the conversation up (the tab closed). Only our own lock is removed. */
  release(id: string): void {
    if (!this.held.delete(id)) return;
    if (this.holder(id)?.instance === this.instance) fs.rmSync(this.file(id), { force: true });
  }

  /** Whether a live window (this one or another) holds the conversation. */
  isLive(id: string): boolean {
    const holder = ID_PATTERN.test(id) ? this.holder(id) : undefined;
    return !!holder && (holder.instance === this.instance || !this.isStale(holder));
  }

  /** Rewrites the heartbeat of every lock we hold (a lock taken from us is dropped). */
  heartbeat(): void {
    for (const id of [...this.held]) {
      if (this.holder(id)?.instance !== this.instance) {
        this.held.delete(id);
        continue;
      }
      try {
        writeFileAtomicSync(this.file(id), JSON.stringify(this.me()));
      } catch {
        // The folder went away (history cleared by hand): nothing to keep alive.
      }
    }
  }

  /** Releases everything (the window goes away). */
  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const id of [...this.held]) this.release(id);
  }

  holder(id: string): LockHolder | undefined {
    try {
      return parseHolder(JSON.parse(fs.readFileSync(this.file(id), 'utf8')));
    } catch {
      return undefined;
    }
  }

  private isStale(h: LockHolder): boolean {
    if (h.host === os.hostname() && !processAlive(h.pid)) return true;
    const beat = Date.parse(h.heartbeat);
    return !Number.isFinite(beat) || Date.now() - beat > this.staleMs;
  }

  /** O_EXCL create with our holder record written in the same open. */
  private create(id: string): boolean {
    let fd: number;
    try {
      fd = fs.openSync(this.file(id), 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    try {
      fs.writeSync(fd, JSON.stringify(this.me()));
    } finally {
      fs.closeSync(fd);
    }
    this.held.add(id);
    return true;
  }

  /** Replaces a stale lock, guarded so that one window wins. */
  private takeOver(id: string, stale: LockHolder | undefined): boolean {
    const guard = `${this.file(id)}.takeover`;
    // A guard left by a window that crashed mid-takeover goes away after a while.
    if (this.ageMs(guard) > this.staleMs) fs.rmSync(guard, { force: true });
    let fd: number;
    try {
      fd = fs.openSync(guard, 'wx', 0o600);
    } catch {
      return false;
    }
    fs.closeSync(fd);
    try {
      // Still the lock we judged stale (no other window replaced it meanwhile)?
      const now = this.holder(id);
      if (stale ? now?.instance !== stale.instance || now.heartbeat !== stale.heartbeat : now !== undefined) return false;
      fs.rmSync(this.file(id), { force: true });
      return this.create(id);
    } finally {
      fs.rmSync(guard, { force: true });
    }
  }

  private ageMs(file: string): number {
    try {
      return Date.now() - fs.statSync(file).mtimeMs;
    } catch {
      return -1;
    }
  }

  private me(): LockHolder {
    return { pid: process.pid, host: os.hostname(), instance: this.instance, heartbeat: new Date().toISOString() };
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.lock`);
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, it is just not ours to signal.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(v: unknown): LockHolder | undefined {
  if (!isObject(v)) return undefined;
  const { pid, host, instance, heartbeat } = v;
  if (typeof pid !== 'number' || typeof host !== 'string' || typeof instance !== 'string' || typeof heartbeat !== 'string')
    return undefined;
  return { pid, host, instance, heartbeat };
}
