// Turning VS Code's answers into IDE-operation results: ranges (0-based lines, UTF-16 characters)
// become 1-based lines and code-point columns, converted on the line's real text — the open
// document's (unsaved edits included, since the providers answered from it) or the file on disk.
// One DocumentTexts per request caches the lines it read. Snippets are only read from files the
// session may read (its folder and symposium.allowedFolders); other files (a library's .d.ts) are
// still located, without their text.
import { readRegularFileText } from '../node/containedFile';

/** The largest file result snippets are read from. */
const SNIPPET_FILE_BYTES = 8 * 1024 * 1024;
import * as vscode from 'vscode';
import { ideLocation, joinHoverParts, nameRangeIn, SYMBOL_KIND_NAMES, type IdeLocation } from '../protocol/ideOperations';
import { fenced } from '../protocol/markdown';

/** VS Code's SymbolKind as the lower-case names results use ("class", "typeParameter" → "type parameter"). */
export function symbolKindName(kind: vscode.SymbolKind): string {
  return SYMBOL_KIND_NAMES[kind] ?? 'symbol';
}

export class DocumentTexts {
  private readonly lines = new Map<string, Promise<string[] | undefined>>();

  /** `mayRead(file)`: whether snippets of this file may be shown (inside the session's folders). */
  constructor(private readonly mayRead: (file: string) => boolean) {}

  /** The file's lines as the editor sees them, or undefined if it cannot be read. */
  linesOf(uri: vscode.Uri): Promise<string[] | undefined> {
    const key = uri.toString();
    let cached = this.lines.get(key);
    if (!cached) {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      cached = open
        ? Promise.resolve(open.getText().split(/\r?\n/))
        : uri.scheme === 'file'
          ? // Results may point into libraries (links followed), but only at regular files, and not past a cap.
            readRegularFileText(uri.fsPath, { maxBytes: SNIPPET_FILE_BYTES, followFinalLink: true }).then(
              (t) => t.text.split(/\r?\n/),
              () => undefined,
            )
          : Promise.resolve(undefined);
      this.lines.set(key, cached);
    }
    return cached;
  }

  /** An IdeLocation for `range` in `uri`, with `extra` (name, kind, …) and a snippet where allowed. */
  async location(uri: vscode.Uri, range: vscode.Range, extra: Partial<IdeLocation> = {}): Promise<IdeLocation> {
    const lines = await this.linesOf(uri);
    const file = uri.scheme === 'file' ? uri.fsPath : uri.toString();
    return ideLocation(file, lines, range, extra, uri.scheme === 'file' && this.mayRead(file));
  }

  /**
   * The range of `name` inside `range` (a symbol's whole declaration, as workspace symbols give
   * it): where Go to Definition puts the cursor. Falls back to `range` itself.
   */
  async nameRange(uri: vscode.Uri, range: vscode.Range, name: string): Promise<vscode.Range> {
    const lines = await this.linesOf(uri);
    const found = lines ? nameRangeIn(lines, range, name) : undefined;
    return found ? new vscode.Range(found.start.line, found.start.character, found.end.line, found.end.character) : range;
  }
}

/** A hover's contents as text: markdown as is, code blocks fenced with their language. */
export function hoverText(hovers: readonly vscode.Hover[]): string {
  const parts: string[] = [];
  for (const h of hovers) {
    for (const c of h.contents) {
      if (typeof c === 'string') parts.push(c);
      else if (c instanceof vscode.MarkdownString) parts.push(c.value);
      else if ('language' in c) parts.push(fenced(c.value, c.language));
      else parts.push(String((c as { value?: unknown }).value ?? ''));
    }
  }
  return joinHoverParts(parts);
}
