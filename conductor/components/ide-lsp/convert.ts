// Language servers' answers as IDE-operation results, the same shapes the extension gives from
// VS Code (src/ide/documentText.ts): 0-based lines and UTF-16 characters become 1-based lines
// and code-point columns, converted on the line's real text — the text the server has for an
// open document, else the file on disk. `Location | Location[] | LocationLink[]` all become
// locations (a link's selection range: the name, where Go to Definition puts the cursor);
// `DocumentSymbol[] | SymbolInformation[]` a flattened outline with `containerName`; hovers'
// MarkupContent / MarkedString[] the markdown text. Snippets only for files inside the session's
// folder (a library's .d.ts is located, not quoted).
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DocumentSymbol, Hover, Location, LocationLink, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import {
  bareSymbolName,
  ideLocation,
  joinHoverParts,
  nameRangeIn,
  SYMBOL_KIND_NAMES,
  type IdeLocation,
  type Utf16Range,
} from '../../../src/protocol/ideOperations';
import { isObject } from '../../../src/protocol/guards';
import { fenced } from '../../../src/protocol/markdown';

const MAX_READ_BYTES = 8 * 1024 * 1024;

export const symbolKindName = (kind: unknown): string => (typeof kind === 'number' ? (SYMBOL_KIND_NAMES[kind - 1] ?? 'symbol') : 'symbol');

export function fileOfUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** The lines of the files one request touched, and the conversion of ranges in them. */
export class Locator {
  private readonly lines = new Map<string, readonly string[] | undefined>();
  private readonly quotes = new Map<string, boolean>();

  /**
   * `openLines(uri)`: the lines of the text a server has for an open document; `mayQuote(file)`: whether
   * snippets of the file may be shown.
   */
  constructor(
    private readonly openLines: (uri: string) => readonly string[] | undefined,
    private readonly mayQuote: (file: string) => boolean,
  ) {}

  linesOf(uri: string): readonly string[] | undefined {
    if (this.lines.has(uri)) return this.lines.get(uri);
    const lines = this.openLines(uri) ?? (uri.startsWith('file:') ? recentLines(fileOfUri(uri)) : undefined);
    this.lines.set(uri, lines);
    return lines;
  }

  location(uri: string, range: Utf16Range, extra: Partial<IdeLocation> = {}): IdeLocation {
    const lines = this.linesOf(uri);
    const file = fileOfUri(uri);
    return ideLocation(file, lines, range, extra, uri.startsWith('file:') && lines !== undefined && this.quotable(file));
  }

  /** `file` was found inside the folder already (confined for this request): no second check. */
  mayQuoteKnown(file: string): void {
    this.quotes.set(file, true);
  }

  /** `mayQuote` once per file of the request (it resolves links: several system calls). */
  private quotable(file: string): boolean {
    let ok = this.quotes.get(file);
    if (ok === undefined) {
      ok = this.mayQuote(file);
      this.quotes.set(file, ok);
    }
    return ok;
  }

  /** Definitions, references…: whatever shape the server chose. */
  locations(answer: unknown): IdeLocation[] {
    const items = answer === null || answer === undefined ? [] : Array.isArray(answer) ? answer : [answer];
    const out: IdeLocation[] = [];
    for (const item of items as (Location | LocationLink)[]) {
      if (!isObject(item)) continue;
      if ('targetUri' in item) out.push(this.location(item.targetUri, item.targetSelectionRange ?? item.targetRange));
      else if ('uri' in item && isObject(item.range)) out.push(this.location(item.uri, item.range));
    }
    return out;
  }

  /** Workspace symbols, each pointing at its name inside the declaration the server gave. */
  workspaceSymbols(answer: unknown): IdeLocation[] {
    const out: IdeLocation[] = [];
    for (const s of (Array.isArray(answer) ? answer : []) as (SymbolInformation | WorkspaceSymbol)[]) {
      if (!isObject(s) || typeof s.name !== 'string' || !isObject(s.location)) continue;
      const name = bareSymbolName(s.name);
      const uri = s.location.uri;
      const declared: Utf16Range =
        'range' in s.location ? s.location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const lines = this.linesOf(uri);
      const range = (lines && nameRangeIn(lines, declared, name)) ?? declared;
      out.push(
        this.location(uri, range, {
          name,
          kind: symbolKindName(s.kind),
          ...(s.containerName ? { containerName: s.containerName } : {}),
        }),
      );
    }
    return out;
  }

  /** A document's outline, flattened, parents before children. */
  documentSymbols(uri: string, answer: unknown): IdeLocation[] {
    const out: IdeLocation[] = [];
    const visit = (s: DocumentSymbol | SymbolInformation, container?: string): void => {
      if (!isObject(s) || typeof s.name !== 'string') return;
      const extra = { name: bareSymbolName(s.name), kind: symbolKindName(s.kind), ...(container ? { containerName: container } : {}) };
      if ('selectionRange' in s) {
        out.push(this.location(uri, s.selectionRange, extra));
        for (const child of s.children ?? []) visit(child, s.name);
      } else if (isObject(s.location)) {
        const lines = this.linesOf(s.location.uri);
        const range = (lines && nameRangeIn(lines, s.location.range, extra.name)) ?? s.location.range;
        out.push(this.location(s.location.uri, range, { ...extra, ...(s.containerName ? { containerName: s.containerName } : {}) }));
      }
    };
    for (const s of (Array.isArray(answer) ? answer : []) as (DocumentSymbol | SymbolInformation)[]) visit(s);
    return out;
  }
}

/** A hover's contents as markdown text: code blocks fenced with their language, parts joined by blank lines. */
export function hoverText(hover: Hover | null | undefined): string {
  if (!isObject(hover)) return '';
  const parts: string[] = [];
  const add = (c: unknown): void => {
    if (typeof c === 'string') parts.push(c);
    else if (isObject(c) && typeof c.value === 'string') {
      if (typeof c.language === 'string') parts.push(fenced(c.value, c.language));
      else parts.push(c.value);
    }
  };
  const contents: unknown = hover.contents;
  if (Array.isArray(contents)) contents.forEach(add);
  else add(contents);
  return joinHoverParts(parts);
}

/** The 0-based UTF-16 range of the word at `character` (a hover without a range). */
export function wordRangeAt(lineText: string, line: number, character: number): Utf16Range {
  let start = character;
  let end = character;
  while (start > 0 && /[\w$]/.test(lineText[start - 1]!)) start--;
  while (end < lineText.length && /[\w$]/.test(lineText[end]!)) end++;
  return { start: { line, character: start }, end: { line, character: end } };
}

/**
 * Lines of files answers point into, by path, kept while the file's size and modification time
 * stay the same: one `stat` instead of open/read/close and a split for the files every answer
 * about the same symbol quotes again (the references of a class are in the same few files each
 * time).
 */
const recentFiles = new Map<string, { mtimeMs: number; size: number; lines: readonly string[] }>();
const MAX_RECENT_FILES = 64;

/** A file's lines, read synchronously (see documents.ts), or undefined when missing or too big. */
function recentLines(file: string): readonly string[] | undefined {
  try {
    const info = statSync(file);
    // A FIFO would block this synchronous read, and the conductor with it, until a writer came.
    if (!info.isFile() || info.size > MAX_READ_BYTES) return undefined;
    const known = recentFiles.get(file);
    if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) return known.lines;
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    recentFiles.delete(file);
    recentFiles.set(file, { mtimeMs: info.mtimeMs, size: info.size, lines });
    for (const oldest of recentFiles.keys()) {
      if (recentFiles.size <= MAX_RECENT_FILES) break;
      recentFiles.delete(oldest);
    }
    return lines;
  } catch {
    return undefined;
  }
}
