// Which file changes a language server wants to hear about (`workspace/didChangeWatchedFiles`).
// A server asks with `client/registerCapability` for `workspace/didChangeWatchedFiles`, giving
// watchers: an LSP glob pattern (a string, or a RelativePattern {baseUri, pattern}) and the kinds
// it wants (create 1, change 2, delete 4; all by default). A server that registered nothing gets
// the changes of its own files (its language's extensions) and of project files (tsconfig.json,
// go.mod, …), which servers that watch nothing themselves still handle. LSP globs: `*` and `?`
// within one path segment, `**` across segments, `{a,b}` alternatives, `[…]` / `[!…]` classes.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isObject } from '../../../src/protocol/guards';

/** LSP's FileChangeType. */
export const FileChangeType = { Created: 1, Changed: 2, Deleted: 3 } as const;
export type FileChangeType = (typeof FileChangeType)[keyof typeof FileChangeType];

export interface FileChange {
  /** Absolute path. */
  file: string;
  type: FileChangeType;
}

interface Watcher {
  /** The base folder of a relative pattern; undefined for a plain glob (matched against the absolute path). */
  base?: string;
  regex: RegExp;
  /** WatchKind bits: 1 create, 2 change, 4 delete. */
  kind: number;
}

/** FileChangeType → its WatchKind bit. */
const KIND_BIT: Record<FileChangeType, number> = { 1: 1, 2: 2, 3: 4 };
/** Files every server's project depends on, sent to servers that registered no watchers. */
export const PROJECT_FILE_NAMES = new Set([
  'tsconfig.json',
  'jsconfig.json',
  'package.json',
  'pyproject.toml',
  'setup.py',
  'pyrightconfig.json',
  'Cargo.toml',
  'Cargo.lock',
  'go.mod',
  'go.sum',
]);
const MAX_WATCHERS = 2000;

/** An LSP glob pattern as a regular expression over `/`-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let i = 0;
  let braces = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i += 2;
        if (glob[i] === '/') {
          i += 1;
          out += '(?:[^/]*/)*'; // `**/`: any number of folders, none included
        } else out += '.*';
        continue;
      }
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces += 1;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces -= 1;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        let cls = glob.slice(i + 1, end);
        const negated = cls.startsWith('!');
        if (negated) cls = cls.slice(1);
        out += `[${negated ? '^' : ''}${cls.replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\/]/g, '\\$&');
    i += 1;
  }
  return new RegExp(`^${out}$`);
}

function baseOf(raw: unknown): string | undefined {
  const uri = typeof raw === 'string' ? raw : isObject(raw) && typeof raw.uri === 'string' ? raw.uri : undefined;
  if (!uri?.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The registrations of one server, and the default for one that made none. */
export class WatchedFiles {
  private readonly byRegistration = new Map<string, Watcher[]>();

  constructor(private readonly extensions: readonly string[]) {}

  /** `client/registerCapability` params: keeps its `workspace/didChangeWatchedFiles` registrations. */
  register(params: unknown): void {
    const registrations = isObject(params) && Array.isArray(params.registrations) ? params.registrations : [];
    for (const r of registrations) {
      if (!isObject(r) || r.method !== 'workspace/didChangeWatchedFiles' || typeof r.id !== 'string') continue;
      const raw = isObject(r.registerOptions) && Array.isArray(r.registerOptions.watchers) ? r.registerOptions.watchers : [];
      const watchers: Watcher[] = [];
      for (const w of raw.slice(0, MAX_WATCHERS)) {
        if (!isObject(w)) continue;
        const kind = typeof w.kind === 'number' ? w.kind : 7;
        const g = w.globPattern;
        if (typeof g === 'string') watchers.push({ regex: globToRegExp(g), kind });
        else if (isObject(g) && typeof g.pattern === 'string') {
          const base = baseOf(g.baseUri);
          if (base) watchers.push({ base, regex: globToRegExp(g.pattern), kind });
        }
      }
      this.byRegistration.set(r.id, watchers);
    }
  }

  /** `client/unregisterCapability` params (LSP spells the list `unregisterations`). */
  unregister(params: unknown): void {
    const list = isObject(params) ? (params.unregisterations ?? params.unregistrations) : undefined;
    for (const u of Array.isArray(list) ? list : []) if (isObject(u) && typeof u.id === 'string') this.byRegistration.delete(u.id);
  }

  get registered(): boolean {
    return this.byRegistration.size > 0;
  }

  /** Whether the server wants to hear of this change. */
  wants(change: FileChange): boolean {
    if (!this.registered)
      return this.extensions.includes(path.extname(change.file).toLowerCase()) || PROJECT_FILE_NAMES.has(path.basename(change.file));
    const bit = KIND_BIT[change.type];
    const file = change.file.split(path.sep).join('/');
    for (const watchers of this.byRegistration.values()) {
      for (const w of watchers) {
        if ((w.kind & bit) === 0) continue;
        if (w.base === undefined) {
          if (w.regex.test(file)) return true;
          continue;
        }
        const rel = path.relative(w.base, change.file);
        if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
        if (w.regex.test(rel.split(path.sep).join('/'))) return true;
      }
    }
    return false;
  }
}
