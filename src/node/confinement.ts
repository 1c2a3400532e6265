// The one path-confinement rule, shared by the extension host (fs/*, terminal cwd, @ context) and
// the conductor (fs-adapter, crate-sources research reads). Part of src/node/: Node-only, imports
// nothing but node:*, so both bundles can use it and it is unit-testable.
//
// The rule: a requested path is allowed when it has no NUL byte and — after every symlink on the
// way is followed, INCLUDING a link whose target does not exist yet — lies inside one of the
// roots (each root also resolved through its links). Relative paths: ACP requires absolute ones,
// but agents do send `cwd: "sub"`; a relative path is resolved against the FIRST root (every
// caller lists the session's folder first) and then checked like any other, so leniency costs
// nothing. With no roots, nothing is allowed.
//
// The result is the fully resolved path; callers must open THAT path, not the requested one, so
// the file used is the file checked. A dangling link matters because writing through it creates
// its target: `ws/x -> /etc/cron.d/evil` does not exist yet, but a write to ws/x would create it.
// Node's realpath gives up on missing files, so the missing tail is walked here by lstat/readlink.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Symlinks followed for one path before it is refused as a loop (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40;

export interface ConfineOptions {
  /** Names the allowed folders in messages, e.g. "the session's working directory". */
  scope?: string;
  /** Appended to the message: how the user can allow more. */
  hint?: string;
  /**
   * The roots' real paths (same order), when the caller resolved them already for the operation
   * at hand: a request that checks several paths resolves its roots once, not once per path.
   */
  realRoots?: readonly string[];
  /** Real paths resolved by earlier calls, reused while they still name the same file. */
  cache?: RealPathCache;
}

export class OutsideWorkspaceError extends Error {
  constructor(
    readonly requested: string,
    /** The path after following links (equal to `requested` when it could not be resolved). */
    readonly resolved: string,
    readonly roots: readonly string[],
    reason: string,
  ) {
    super(reason);
    this.name = 'OutsideWorkspaceError';
  }
}

const RULE =
  'Paths are checked after following every symlink, including links whose target does not exist yet; relative paths count from the first folder.';

function refuse(requested: string, resolved: string, roots: readonly string[], why: string, options: ConfineOptions): never {
  const hint = options.hint ? ` ${options.hint}` : '';
  throw new OutsideWorkspaceError(requested, resolved, roots, `${why}. ${RULE}${hint}`);
}

class LinkLoop extends Error {}

/**
 * `p` (absolute, normalized) with every symlink followed, also where the tail does not exist:
 * existing prefixes go through realpath; a missing component that is a (dangling) link is
 * replaced by its target and resolution continues from there.
 */
function resolveLinks(p: string, budget: { links: number }): string {
  try {
    return fs.realpathSync.native(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new LinkLoop();
    // ENOENT (missing, or a dangling link), ENOTDIR, EACCES…: resolve the parent, then look at
    // this one component without following it.
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  const candidate = path.join(resolveLinks(parent, budget), path.basename(p));
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(candidate);
  } catch {
    return candidate; // really missing: nothing below it can be a link
  }
  if (!stat.isSymbolicLink()) return candidate; // exists but unreadable: opening it will fail
  if (--budget.links < 0) throw new LinkLoop();
  const target = fs.readlinkSync(candidate);
  return resolveLinks(path.resolve(path.dirname(candidate), target), budget);
}

/** The identity of the file a path reaches now (links followed), or undefined when it reaches none. */
function identityOf(p: string): string | undefined {
  try {
    const info = fs.statSync(p, { throwIfNoEntry: false });
    // The change time too: an inode number freed and given to a new file is not the same file.
    return info && `${info.dev}:${info.ino}:${info.ctimeMs}`;
  } catch {
    return undefined; // a loop, a file where a folder was, no permission: resolved afresh
  }
}

/**
 * Real paths resolved before, by absolute path, each with the identity (device, inode, change
 * time) of the file it reached. glibc's realpath reads every component of a path (a `readlink`
 * each), so a request that resolves its folder and a few files makes dozens of system calls; a
 * path resolved before costs one `stat` here, or two when it went through a link.
 *
 * Reuse is sound because of what is compared: the requested path and the real path must BOTH
 * still reach the very file that was found inside a root. A link swapped in anywhere on either
 * path (the file, or a folder above it) reaches another file, and a file replaced, edited or
 * re-created has another identity; either way the path is resolved again, with every check.
 * Missing files are never kept (a write through a dangling link is always resolved afresh).
 */
export class RealPathCache {
  private readonly known = new Map<string, { real: string; identity: string }>();

  constructor(private readonly max = 1024) {}

  resolve(absolute: string, budget: { links: number }): string {
    const known = this.known.get(absolute);
    if (known) {
      const identity = identityOf(absolute);
      if (identity === known.identity && (known.real === absolute || identityOf(known.real) === identity)) return known.real;
      this.known.delete(absolute);
    }
    const real = resolveLinks(absolute, budget);
    const identity = identityOf(real);
    if (identity !== undefined) {
      this.known.set(absolute, { real, identity });
      for (const oldest of this.known.keys()) {
        if (this.known.size <= this.max) break;
        this.known.delete(oldest);
      }
    }
    return real;
  }
}

/** A root's real path (every link followed); undefined for a link loop, which allows nothing. */
export function realPathOf(root: string, cache?: RealPathCache): string | undefined {
  const absolute = path.resolve(root);
  try {
    return cache ? cache.resolve(absolute, { links: MAX_LINKS }) : resolveLinks(absolute, { links: MAX_LINKS });
  } catch {
    return undefined;
  }
}

/** Whether `child` is `root` or below it. `..notes` is a legal name, `../x` is not. */
export function isInside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

/**
 * The resolved path of `requested` when it lies inside one of `roots`; throws
 * OutsideWorkspaceError (naming the path and the rule) otherwise.
 */
export function confine(requested: string, roots: readonly string[], options: ConfineOptions = {}): string {
  if (requested.includes('\0')) refuse(requested, requested, roots, `${JSON.stringify(requested)} contains a NUL byte`, options);
  const first = roots[0];
  if (!path.isAbsolute(requested) && (first === undefined || !path.isAbsolute(first))) {
    refuse(requested, requested, roots, `${requested} is a relative path and there is no folder to resolve it against`, options);
  }
  const absolute = path.resolve(first ?? '/', requested);
  let resolved: string;
  try {
    const budget = { links: MAX_LINKS };
    resolved = options.cache ? options.cache.resolve(absolute, budget) : resolveLinks(absolute, budget);
  } catch (err) {
    if (err instanceof LinkLoop) refuse(requested, requested, roots, `${requested} has too many levels of symlinks`, options);
    throw err;
  }
  for (const [i, root] of roots.entries()) {
    if (!path.isAbsolute(root) || root.includes('\0')) continue;
    const realRoot = options.realRoots?.[i] ?? realPathOf(root, options.cache);
    if (realRoot !== undefined && isInside(resolved, realRoot)) return resolved;
  }
  const scope = options.scope ?? 'the folders this agent may use';
  const via = resolved !== absolute ? `: it resolves to ${resolved}` : '';
  return refuse(requested, resolved, roots, `${requested} is outside ${scope} (${roots.join(', ')})${via}`, options);
}
