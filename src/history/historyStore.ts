// The local transcript store: every conversation as the chat showed it, in the extension's
// workspace storage (`context.storageUri/history`). One append-only JSON-lines file per
// conversation (`<id>.jsonl`), written as the conversation goes, plus the index: one small
// `<id>.meta.json` per conversation (title, agent, folder, session, activity, turns), replaced
// atomically (write a temporary file, rename). vscode-free.
//
// Crash safety: a line is one `write` with O_APPEND, so a crash leaves at most a torn last line,
// which reading skips. Two windows of one workspace share the folder: each conversation has one
// writer (the window holding its ownership lock, `<id>.lock`: ownership.ts), appends never
// interleave within a line, index files are replaced whole, and pruning keeps what a window has
// open and tolerates files another window already removed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Log } from '../log/logEvent';
import { isObject } from '../protocol/guards';
import type { ConversationEntry } from '../protocol/webview';
import { scrubEntry } from './scrub';
import { writeFileAtomicSync } from '../node/atomicWrite';

/** One conversation in the history list. */
export interface ConversationMeta {
  id: string;
  /** The agent's `session_info_update` title, else the first prompt. */
  title: string;
  agentName: string;
  /** The workspace folder the session worked in. */
  folder: string;
  /** The agent's session id (for session/resume and session/load); absent until it has one. */
  sessionId?: string;
  createdAt: string;
  lastActivity: string;
  /** Prompts sent. */
  turns: number;
  /** The session's mode as the tab last showed it (the picker's value), chosen again when it is continued. */
  mode?: string;
}

/** One line of a conversation file. `reset` starts the conversation over (an agent's replay replaced it). */
export type HistoryLine = { t: 'entry'; e: ConversationEntry } | { t: 'reset' };

export interface StoredConversation {
  meta: ConversationMeta;
  entries: ConversationEntry[];
  /** Lines that could not be read (a torn last line after a crash). */
  skippedLines: number;
}

export interface HistoryStoreOptions {
  log?: Log;
  /** symposium.history.maxConversations (read at every prune). */
  maxConversations: () => number;
  /** Image and blob bytes above this are not stored (symposium.maxImageBytes). */
  maxImageBytes: () => number;
  /** Whether a window has the conversation open live (its ownership lock): pruning keeps those. */
  isLive?: (id: string) => boolean;
  /** A conversation was deleted (by the user, Clear all or pruning): what is kept with it goes too. */
  onDeleted?: (id: string) => void;
}

const META_SUFFIX = '.meta.json';
const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export class HistoryStore {
  constructor(
    readonly dir: string,
    private readonly options: HistoryStoreOptions,
  ) {}

  /** Starts a new conversation (its index entry exists at once); prunes the oldest beyond the limit. */
  create(
    init: Pick<ConversationMeta, 'agentName' | 'folder'> & { title?: string },
    keep: ReadonlySet<string> = new Set(),
  ): ConversationMeta {
    fs.mkdirSync(this.dir, { recursive: true });
    const now = new Date().toISOString();
    const meta: ConversationMeta = {
      id: randomUUID(),
      title: init.title ?? 'New chat',
      agentName: init.agentName,
      folder: init.folder,
      createdAt: now,
      lastActivity: now,
      turns: 0,
    };
    this.writeMeta(meta);
    this.prune(new Set([...keep, meta.id]));
    return meta;
  }

  /** Appends entries to a conversation's file (scrubbed), one write per line. */
  append(id: string, lines: HistoryLine[]): void {
    if (!ID_PATTERN.test(id) || lines.length === 0) return;
    const max = this.options.maxImageBytes();
    const text = lines.map((l) => `${JSON.stringify(l.t === 'entry' ? { t: 'entry', e: scrubEntry(l.e, max) } : l)}\n`);
    fs.mkdirSync(this.dir, { recursive: true });
    const fd = fs.openSync(this.file(id, '.jsonl'), 'a', 0o600);
    try {
      for (const line of text) fs.writeSync(fd, line);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Replaces index fields (title, session, activity, turns). Missing conversations stay missing. */
  update(id: string, patch: Partial<Omit<ConversationMeta, 'id'>>): ConversationMeta | undefined {
    const meta = this.meta(id);
    if (!meta) return undefined;
    const next = { ...meta, ...patch, id };
    this.writeMeta(next);
    return next;
  }

  meta(id: string): ConversationMeta | undefined {
    if (!ID_PATTERN.test(id)) return undefined;
    try {
      return parseMeta(JSON.parse(fs.readFileSync(this.file(id, META_SUFFIX), 'utf8')));
    } catch {
      return undefined;
    }
  }

  /** Every conversation, most recent activity first. */
  list(): ConversationMeta[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith(META_SUFFIX))
      .flatMap((n) => {
        const m = this.meta(n.slice(0, -META_SUFFIX.length));
        return m ? [m] : [];
      })
      .sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
  }

  /** The conversation as recorded; a line that is not JSON (a torn last line) is skipped. */
  read(id: string): StoredConversation | undefined {
    const meta = this.meta(id);
    if (!meta) return undefined;
    let text = '';
    try {
      text = fs.readFileSync(this.file(id, '.jsonl'), 'utf8');
    } catch {
      // Index entry without lines yet: an empty conversation.
    }
    let entries: ConversationEntry[] = [];
    let skippedLines = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const parsed = parseLine(line);
      if (!parsed) {
        skippedLines++;
        continue;
      }
      if (parsed.t === 'reset') entries = [];
      else entries.push(parsed.e);
    }
    if (skippedLines) this.options.log?.warn('history', 'skipped unreadable lines', { id, skippedLines });
    return { meta, entries, skippedLines };
  }

  /** Whether any stored conversation's text (title or entries) contains `query` (case-insensitive). */
  matches(id: string, query: string): boolean {
    const q = query.toLowerCase();
    const meta = this.meta(id);
    if (meta?.title.toLowerCase().includes(q)) return true;
    try {
      return fs.readFileSync(this.file(id, '.jsonl'), 'utf8').toLowerCase().includes(q);
    } catch {
      return false;
    }
  }

  delete(id: string): void {
    if (!ID_PATTERN.test(id)) return;
    for (const suffix of [META_SUFFIX, '.jsonl', '.lock']) fs.rmSync(this.file(id, suffix), { force: true });
    this.options.onDeleted?.(id);
  }

  clear(): void {
    for (const m of this.list()) this.delete(m.id);
  }

  /** Deletes the least recently active conversations beyond the limit, except those in `keep`. */
  prune(keep: ReadonlySet<string> = new Set()): string[] {
    const max = Math.max(1, this.options.maxConversations());
    const all = this.list();
    const removed: string[] = [];
    for (let i = all.length - 1; i >= 0 && all.length - removed.length > max; i--) {
      const m = all[i]!;
      if (keep.has(m.id) || this.options.isLive?.(m.id)) continue;
      this.delete(m.id);
      removed.push(m.id);
    }
    if (removed.length) this.options.log?.info('history', 'pruned', { removed: removed.length, max });
    return removed;
  }

  private writeMeta(meta: ConversationMeta): void {
    writeFileAtomicSync(this.file(meta.id, META_SUFFIX), JSON.stringify(meta));
  }

  private file(id: string, suffix: string): string {
    return path.join(this.dir, `${id}${suffix}`);
  }
}

function parseLine(line: string): HistoryLine | undefined {
  try {
    const v: unknown = JSON.parse(line);
    if (!isObject(v)) return undefined;
    if (v.t === 'reset') return { t: 'reset' };
    if (v.t === 'entry' && isObject(v.e) && typeof v.e.type === 'string') return { t: 'entry', e: v.e as unknown as ConversationEntry };
    return undefined;
  } catch {
    return undefined;
  }
}

/** A mode id longer than this is not a mode id: the file was tampered with or torn. */
const MAX_MODE_CHARS = 200;

function parseMeta(v: unknown): ConversationMeta | undefined {
  if (!isObject(v)) return undefined;
  const { id, title, agentName, folder, sessionId, createdAt, lastActivity, turns, mode } = v;
  if (typeof id !== 'string' || typeof title !== 'string' || typeof agentName !== 'string' || typeof folder !== 'string') return undefined;
  if (typeof createdAt !== 'string' || typeof lastActivity !== 'string' || typeof turns !== 'number') return undefined;
  return {
    id,
    title,
    agentName,
    folder,
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
    createdAt,
    lastActivity,
    turns,
    ...(typeof mode === 'string' && mode.length <= MAX_MODE_CHARS ? { mode } : {}),
  };
}
