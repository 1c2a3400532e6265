// Where an agent may read, write and run: inside the session's workspace folder, or a folder the
// user added to `symposium.allowedFolders`. Paths are resolved through symlinks (of the path, or
// of its nearest existing parent for new files), so neither `..` nor a link can lead outside.
// Node-only (no vscode), so it is unit-testable.
import * as fs from 'node:fs';
import * as path from 'node:path';

export class OutsideWorkspaceError extends Error {
  constructor(readonly requested: string, readonly resolved: string, roots: string[]) {
    super(`${requested} is outside the folders this agent may use (${roots.join(', ')})${resolved !== path.resolve(requested) ? `: it resolves to ${resolved}` : ''}. `
      + 'Only the session\'s workspace folder and the folders in the symposium.allowedFolders setting are allowed.');
    this.name = 'OutsideWorkspaceError';
  }
}

/** The real path of `p`, or of its nearest existing ancestor joined with the rest. */
function realpathish(p: string): string {
  let existing = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return p;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

const inside = (child: string, root: string): boolean => {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * Returns the absolute, link-resolved path when it lies inside one of `roots`; throws
 * OutsideWorkspaceError otherwise. Relative paths are taken relative to the first root (ACP asks
 * for absolute paths; being lenient here costs nothing, as the result is confined anyway).
 */
export function confine(requested: string, roots: string[]): string {
  if (requested.includes('\0')) throw new OutsideWorkspaceError(requested, requested, roots);
  const absolute = path.resolve(roots[0] ?? '/', requested);
  const resolved = realpathish(absolute);
  for (const root of roots) if (inside(resolved, realpathish(path.resolve(root)))) return resolved;
  throw new OutsideWorkspaceError(requested, resolved, roots);
}
