// How IDE-operation results reach the agent: JSON text plus the same value as MCP structured
// content. Files inside the session's folder become workspace-relative (POSIX separators); a list
// becomes {total, results} and is capped (default 200) with the total still reported; remarks
// (the IDE cut a list, nothing was found) go to `notes`. One line per list item keeps big answers
// readable and small.
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../../../src/node/confinement';
import type { Value } from './values';

export const DEFAULT_MAX_RESULTS = 200;

export interface FormattedResult {
  text: string;
  structured: Record<string, unknown>;
}

/** Roots a file may be shown relative to: the session folder as given and with links resolved. */
export function sessionRoots(cwd: string): string[] {
  let real = cwd;
  try {
    real = realpathSync.native(cwd);
  } catch {
    // a folder that does not exist (yet): only its name counts
  }
  return real === cwd ? [cwd] : [cwd, real];
}

function relativize(v: Value, roots: readonly string[]): Value {
  if (Array.isArray(v)) return v.map((x) => relativize(x, roots));
  if (v === null || typeof v !== 'object') return v;
  const out: { [k: string]: Value } = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'file' && typeof x === 'string' && path.isAbsolute(x)) {
      const root = roots.find((r) => isInside(x, r));
      out[k] = root ? path.relative(root, x).split(path.sep).join('/') || '.' : x;
    } else {
      out[k] = relativize(x, roots);
    }
  }
  return out;
}

export function formatResult(
  value: Value,
  roots: readonly string[],
  maxResults = DEFAULT_MAX_RESULTS,
  notes: readonly string[] = [],
): FormattedResult {
  const v = relativize(value, roots);
  const allNotes = [...notes];
  let structured: Record<string, unknown>;
  let text: string;
  if (Array.isArray(v)) {
    const shown = v.slice(0, maxResults);
    if (shown.length < v.length) allNotes.push(`showing the first ${shown.length} of ${v.length} results`);
    structured = { total: v.length, results: shown, ...(allNotes.length ? { notes: allNotes } : {}) };
    const head = `{"total": ${v.length},${allNotes.length ? ` "notes": ${JSON.stringify(allNotes)},` : ''} "results": [`;
    text = shown.length === 0 ? `${head}]}` : `${head}\n${shown.map((x) => `  ${JSON.stringify(x)}`).join(',\n')}\n]}`;
  } else if (v !== null && typeof v === 'object') {
    structured = { ...v, ...(allNotes.length ? { notes: allNotes } : {}) };
    text = JSON.stringify(structured, null, 2);
  } else {
    structured = { result: v, ...(allNotes.length ? { notes: allNotes } : {}) };
    text = JSON.stringify(structured, null, 2);
  }
  return { text, structured };
}
