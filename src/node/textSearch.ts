// Text search for the IDE operations' `search(path, regex, extension?)`: one hit per matching
// line, in a file or in a folder walked the way `git grep` would (hidden entries, node_modules
// and what .gitignore files name are skipped; symlinks are not followed, so the walk never leaves
// the folder the caller confined). Part of src/node/ (node:* only): the extension host answers
// `_symposium/ide/searchText` with it (passing the text of unsaved editors), and so does the
// conductor's language-server adapter (conductor/components/ide-lsp/).
//
// Positions are 1-based; columns count characters (code points), like every IDE-operation result.
//
// The regex is the agent's: the lines are matched on a worker thread with a time budget
// (lineMatchWorker.ts), so a pattern that backtracks without end fails the search with a
// SearchTimeoutError instead of freezing the process that searches.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { readRegularFile, readRegularFileText } from './containedFile';
import { IgnoreRules } from './gitignore';
import { MatchCancelledError, matchLines, MatchTimeoutError, type MatchBatch, type MatchReply } from './lineMatchWorker';
import { errorText } from '../protocol/errorText';

export interface TextSearchHit {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  snippet: string;
}

export interface TextSearchOptions {
  /** A file or folder, already confined (absolute, links resolved). */
  root: string;
  regex: string;
  /** Only files with this extension (".ts" or "ts"). */
  extension?: string;
  /** Hits kept; the total still counts every hit. */
  maxHits?: number;
  /** The text of a file as the editor sees it (unsaved changes), if it differs from the disk. */
  readText?: (file: string) => string | undefined;
  signal?: AbortSignal;
  /** Time the matching of this search may take in all (default DEFAULT_SEARCH_BUDGET_MS). */
  budgetMs?: number;
}

export interface TextSearchResult {
  items: TextSearchHit[];
  total: number;
  filesSearched: number;
}

const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__']);
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_FILES = 50_000;
/** Text sent to the matching worker at a time (in characters), and files at most per batch. */
const BATCH_CHARS = 1024 * 1024;
const BATCH_FILES = 256;
/** Far more than matching a large repository takes with any reasonable pattern. */
export const DEFAULT_SEARCH_BUDGET_MS = 10_000;

export class SearchError extends Error {}
/** The regex took more than the search's time budget to match; the search was stopped. */
export class SearchTimeoutError extends SearchError {}

/** Compiles the regex as JavaScript does, with a message that names the problem. */
export function compileSearchRegex(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    try {
      return new RegExp(source); // e.g. `\(` outside unicode mode's stricter escapes
    } catch (err) {
      throw new SearchError(`invalid regular expression ${JSON.stringify(source)}: ${errorText(err)}`);
    }
  }
}

export async function searchText(options: TextSearchOptions): Promise<TextSearchResult> {
  const re = compileSearchRegex(options.regex);
  const ext = options.extension ? (options.extension.startsWith('.') ? options.extension : `.${options.extension}`) : undefined;
  const maxHits = options.maxHits ?? Number.POSITIVE_INFINITY;
  const budgetMs = options.budgetMs ?? DEFAULT_SEARCH_BUDGET_MS;
  const result: TextSearchResult = { items: [], total: 0, filesSearched: 0 };
  let spentMs = 0;
  let batch: { files: string[]; texts: string[]; chars: number } = { files: [], texts: [], chars: 0 };
  const flush = async (): Promise<void> => {
    const { files, texts } = batch;
    batch = { files: [], texts: [], chars: 0 };
    if (!texts.length) return;
    const job: MatchBatch = { source: re.source, flags: re.flags, texts, keep: Math.max(0, maxHits - result.items.length) };
    let reply: MatchReply;
    try {
      reply = await matchLines(job, budgetMs - spentMs, options.signal);
    } catch (e) {
      if (e instanceof MatchTimeoutError) throw new SearchTimeoutError(timedOut(options.regex, budgetMs));
      if (e instanceof MatchCancelledError) throw new SearchError('search cancelled');
      throw new SearchError(`the search failed: ${errorText(e)}`);
    }
    spentMs += reply.elapsedMs;
    result.total += reply.total;
    for (const h of reply.hits)
      result.items.push({
        file: files[h.file]!,
        line: h.line,
        column: h.column,
        endLine: h.line,
        endColumn: h.endColumn,
        snippet: h.snippet,
      });
  };
  /** `named`: the file the caller asked for, searched whatever its extension. */
  const searchFile = async (file: string, named = false): Promise<void> => {
    if (ext && !named && !file.endsWith(ext)) return;
    const text = options.readText?.(file) ?? (await readSmallText(file));
    if (text === undefined) return;
    result.filesSearched++;
    batch.files.push(file);
    batch.texts.push(text);
    batch.chars += text.length;
    if (batch.chars >= BATCH_CHARS || batch.files.length >= BATCH_FILES) await flush();
  };
  const stat = await fs.stat(options.root).catch(() => undefined);
  if (!stat) throw new SearchError(`${options.root} does not exist`);
  if (stat.isFile()) await searchFile(options.root, true);
  else if (!stat.isDirectory()) throw new SearchError(`${options.root} is neither a file nor a folder`);
  else await walk(options.root, [], result, (file) => searchFile(file), options.signal);
  await flush();
  return result;
}

function timedOut(regex: string, budgetMs: number): string {
  const seconds = Math.round(budgetMs / 100) / 10;
  return (
    `the regular expression ${JSON.stringify(regex)} took longer than ${seconds} s to match and the search was stopped: ` +
    'nested repetition such as (a+)+ or (a|a)* can take exponential time on some lines; simplify the pattern'
  );
}

interface Scope {
  dir: string;
  rules: IgnoreRules;
}

async function walk(
  dir: string,
  scopes: Scope[],
  result: TextSearchResult,
  searchFile: (file: string) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted) throw new SearchError('search cancelled');
  // A repository's .gitignore may be a FIFO or a link to /dev/zero: regular files only, capped.
  const ignoreText = await readRegularFileText(path.join(dir, '.gitignore'), { maxBytes: MAX_FILE_BYTES, followFinalLink: true }).then(
    (r) => r.text,
    () => undefined,
  );
  const rules = ignoreText === undefined ? undefined : new IgnoreRules(ignoreText);
  const here = rules && !rules.empty ? [...scopes, { dir, rules }] : scopes;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.isSymbolicLink()) continue;
    const full = path.join(dir, entry.name);
    const isDir = entry.isDirectory();
    if (isDir && SKIPPED_FOLDERS.has(entry.name)) continue;
    if (ignored(full, isDir, here)) continue;
    if (isDir) await walk(full, here, result, searchFile, signal);
    else if (entry.isFile() && result.filesSearched < MAX_FILES) await searchFile(full);
  }
}

function ignored(full: string, isDir: boolean, scopes: Scope[]): boolean {
  let verdict: boolean | undefined;
  for (const scope of scopes) {
    const v = scope.rules.match(path.relative(scope.dir, full), isDir);
    if (v !== undefined) verdict = v; // deeper .gitignore files win
  }
  return verdict === true;
}

/** A file's text, or undefined when it is too big or looks binary (a NUL byte). */
async function readSmallText(file: string): Promise<string | undefined> {
  try {
    // The file is checked on the descriptor read (regular, at most the cap), not by an earlier stat.
    const buf = (await readRegularFile(file, { maxBytes: MAX_FILE_BYTES, followFinalLink: true })).bytes;
    if (buf.subarray(0, 8000).includes(0)) return undefined;
    return buf.toString('utf8');
  } catch {
    return undefined;
  }
}
