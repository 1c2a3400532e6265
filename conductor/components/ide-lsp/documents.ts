// Document sync with one language server. Servers answer position queries only for documents
// they were told about (before `didOpen` both TypeScript and pyright answer `null`, not an
// error), so every file a request touches is opened first with its current text on disk. A file
// read again is compared with what the server has: unchanged → nothing is sent (cached by
// version; a file whose size and modification time did not change is not read again), changed →
// `didChange` with the full text and the next version, gone → `didClose`.
// The least recently used documents are closed beyond a bound, so a long session does not make
// the server hold every file it was ever asked about. Files are read synchronously: source files
// are small and in the page cache, and each asynchronous read is several thread-pool round trips,
// which on a busy machine cost more than the read (measured by the fallback bench).
import { readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { languageIdOf, type LanguageServerSpec } from './servers';
import { errorText } from '../../../src/protocol/errorText';

const MAX_OPEN_DOCUMENTS = 200;
const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

export interface Notifier {
  notify(method: string, params: unknown): void;
}

export interface SyncedDocument {
  uri: string;
  version: number;
  text: string;
  /** When this version was sent to the server (ms since the epoch). */
  sentAt: number;
}

export class DocumentError extends Error {}

export class DocumentSync {
  /** By URI, least recently used first. */
  private readonly open = new Map<string, SyncedDocument>();
  /** By URI: the file's modification time and size when its text was last read. */
  private readonly stamps = new Map<string, string>();
  /** An open version's lines, split once (every position request and every snippet needs them). */
  private readonly lines = new WeakMap<SyncedDocument, readonly string[]>();

  constructor(
    private readonly server: Notifier,
    private readonly spec: LanguageServerSpec,
  ) {}

  get openCount(): number {
    return this.open.size;
  }

  /** The document as the server has it now (after opening or updating it from disk). */
  sync(file: string): SyncedDocument & { changed: boolean } {
    const uri = pathToFileURL(file).href;
    let text: string;
    let stamp: string;
    try {
      const info = statSync(file);
      if (!info.isFile()) throw new DocumentError(`${file} is not a file`);
      if (info.size > MAX_DOCUMENT_BYTES) throw new DocumentError(`${file} is too big for a language server (${info.size} bytes)`);
      // Same size and modification time as when it was last read: the text is not read again.
      stamp = `${info.mtimeMs}:${info.size}`;
      const same = this.open.get(uri);
      if (same && this.stamps.get(uri) === stamp) {
        this.open.delete(uri);
        this.open.set(uri, same); // most recently used
        return { ...same, changed: false };
      }
      text = readFileSync(file, 'utf8');
    } catch (err) {
      this.close(uri);
      if (err instanceof DocumentError) throw err;
      throw new DocumentError(`${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? errorText(err)}`);
    }
    this.stamps.set(uri, stamp);
    const known = this.open.get(uri);
    if (known) {
      this.open.delete(uri);
      this.open.set(uri, known); // most recently used
      if (known.text === text) return { ...known, changed: false };
      const updated = { uri, version: known.version + 1, text, sentAt: Date.now() };
      this.open.set(uri, updated);
      this.server.notify('textDocument/didChange', { textDocument: { uri, version: updated.version }, contentChanges: [{ text }] });
      return { ...updated, changed: true };
    }
    const opened = { uri, version: 1, text, sentAt: Date.now() };
    this.open.set(uri, opened);
    this.server.notify('textDocument/didOpen', { textDocument: { uri, languageId: languageIdOf(file, this.spec), version: 1, text } });
    for (const oldest of this.open.keys()) {
      if (this.open.size <= MAX_OPEN_DOCUMENTS) break;
      this.close(oldest);
    }
    return { ...opened, changed: true };
  }

  /**
   * A file changed on disk (the workspace watcher): if the server has it open, it gets the new
   * text (`didChange`), or `didClose` when it is gone or unreadable. Others are left alone.
   */
  refresh(file: string): void {
    if (!this.open.has(pathToFileURL(file).href)) return;
    try {
      this.sync(file);
    } catch {
      // closed by sync: the file is gone or unreadable
    }
  }

  /** The lines of the text the server has for `uri`, if it is open. */
  linesOf(uri: string): readonly string[] | undefined {
    const doc = this.open.get(uri);
    if (!doc) return undefined;
    let lines = this.lines.get(doc);
    if (!lines) {
      lines = doc.text.split(/\r?\n/);
      this.lines.set(doc, lines);
    }
    return lines;
  }

  close(uri: string): void {
    this.stamps.delete(uri);
    if (!this.open.delete(uri)) return;
    this.server.notify('textDocument/didClose', { textDocument: { uri } });
  }
}
