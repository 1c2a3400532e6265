// The answers to `_symposium/ide/*` from language servers: what src/ide/editorIde.ts answers
// from VS Code, the same result shapes, so an agent cannot tell which path answered. A file is
// routed to its language's server by extension (servers.ts); workspace-wide questions ask the
// server of every language the workspace has and merge; text search and line reads need no
// server (src/node). Every path is confined to the session's folder (src/node/confinement.ts,
// symlinks followed) before any server or file is touched.
import * as path from 'node:path';
import type { Diagnostic, Hover } from 'vscode-languageserver-protocol';
import { confine, realPathOf, RealPathCache } from '../../../src/node/confinement';
import { readLines } from '../../../src/node/textFiles';
import { DEFAULT_SEARCH_BUDGET_MS, searchText } from '../../../src/node/textSearch';
import {
  columnToUtf16,
  MAX_WIRE_ITEMS,
  wireList,
  parseIdeParams,
  type IdeDiagnostic,
  type IdeList,
  type IdeLocation,
  type IdeOperation,
  type IdeParams,
  type IdePosition,
  type IdeResult,
  type IdeSeverity,
} from '../../../src/protocol/ideOperations';
import type { Logger } from '../../log';
import { fileOfUri, hoverText, Locator, wordRangeAt } from './convert';
import type { LanguageServerClient } from './lspClient';
import { serverForFile, ServerUnavailableError, type LanguageServerSpec } from './servers';
import type { ServerPool } from './supervisor';
import { scanWorkspace } from './workspaceScan';
import { querySymbols } from './workspaceSymbols';
import { errorText } from '../../../src/protocol/errorText';

const SEVERITY: Record<number, IdeSeverity> = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };
const POSITION_METHODS = {
  definitions: 'textDocument/definition',
  references: 'textDocument/references',
  typeDefinitions: 'textDocument/typeDefinition',
  implementations: 'textDocument/implementation',
} as const;

export interface LspIdeOptions {
  servers: readonly LanguageServerSpec[];
  pool: ServerPool;
  log: Logger;
  /** After opening a file, how long to wait for its diagnostics to be published and settle. */
  diagnosticsWaitMs: number;
  /** The quiet time after the last diagnostics of a file before they count as settled. */
  diagnosticsQuietMs: number;
  /** How long a workspace-wide question waits for a server's project load (`$/progress`). */
  projectLoadWaitMs: number;
  /** The time a text search's regex may take to match, in all (default DEFAULT_SEARCH_BUDGET_MS). */
  searchBudgetMs?: number;
}

const byPlace = (a: IdeLocation, b: IdeLocation): number =>
  a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column;

/** The answers for one session's request: its folder is the only root, resolved once per request. */
class Scope {
  readonly locator: Locator;
  constructor(
    readonly cwd: string,
    /** The folder's real path (links followed), for this request. */
    readonly root: string,
    openLines: (uri: string) => readonly string[] | undefined,
    private readonly realPaths: RealPathCache,
  ) {
    this.locator = new Locator(openLines, (file) => this.inside(file));
  }
  /** The real path of `requested` inside the folder (else OutsideWorkspaceError); it may be quoted. */
  confine(requested: string): string {
    const file = confine(requested, [this.cwd], {
      scope: "the session's folder",
      realRoots: [this.root],
      cache: this.realPaths,
    });
    this.locator.mayQuoteKnown(file);
    return file;
  }
  inside(file: string): boolean {
    try {
      this.confine(file);
      return true;
    } catch {
      return false;
    }
  }
}

export class LspIde {
  /** Workspaces whose projects were opened on a server (by server process). */
  private readonly primed = new WeakSet<LanguageServerClient>();
  /**
   * Real paths of the folders and files asked about, reused while they name the same files
   * (every answer about a symbol resolves the same few paths again).
   */
  private readonly realPaths = new RealPathCache();

  constructor(private readonly options: LspIdeOptions) {}

  /** `root`: the folder's real path, when the caller resolved it already for this request. */
  async answer<O extends IdeOperation>(
    operation: O,
    raw: unknown,
    cwd: string,
    signal: AbortSignal,
    root = this.realRoot(cwd),
  ): Promise<IdeResult<O>> {
    const params = parseIdeParams(operation, raw);
    // Changes on disk already seen reach the servers before the question does.
    await this.options.pool.flushChanges(root);
    const scope = new Scope(cwd, root, (uri) => this.openLines(root, uri), this.realPaths);
    return (await this.run(operation, params, scope, signal)) as IdeResult<O>;
  }

  /** A session folder's real path (links followed). */
  realRoot(cwd: string): string {
    return realPathOf(cwd, this.realPaths) ?? path.resolve(cwd);
  }

  private run(operation: IdeOperation, params: IdeParams<IdeOperation>, scope: Scope, signal: AbortSignal): Promise<unknown> {
    switch (operation) {
      case 'workspaceSymbols':
        return this.workspaceSymbols((params as IdeParams<'workspaceSymbols'>).query, scope, signal);
      case 'documentSymbols':
        return this.documentSymbols((params as IdeParams<'documentSymbols'>).file, scope, signal);
      case 'definitions':
      case 'references':
      case 'typeDefinitions':
      case 'implementations':
        return this.atPosition(operation, (params as IdeParams<'references'>).position, scope, signal);
      case 'hover':
        return this.hover((params as IdeParams<'hover'>).position, scope, signal);
      case 'diagnostics':
        return this.diagnostics((params as IdeParams<'diagnostics'>).file, scope);
      case 'searchText':
        return this.search(params as IdeParams<'searchText'>, scope, signal);
      case 'lines':
        return this.lines(params as IdeParams<'lines'>, scope);
      case 'selection':
        // No editor, so no selection: the documented answer for "no active editor".
        return Promise.resolve({ selection: null });
    }
  }

  /** The lines a running server of this workspace has for `uri` (so columns match what it answered from). */
  private openLines(root: string, uri: string): readonly string[] | undefined {
    for (const client of this.options.pool.runningFor(root)) {
      const lines = client.documents.linesOf(uri);
      if (lines !== undefined) return lines;
    }
    return undefined;
  }

  /** The server for a (confined) file, started if need be; an error names what to install. */
  private async serverFor(file: string, scope: Scope): Promise<LanguageServerClient> {
    const spec = serverForFile(this.options.servers, file);
    if (!spec)
      throw new ServerUnavailableError(
        `no language server handles ${path.extname(file) || 'extension-less'} files (${path.basename(file)}); ` +
          'name one in symposium.languageServers / the conductor\'s --language-servers file, e.g. {"lua": {"command": "lua-language-server", "extensions": [".lua"]}}',
      );
    return this.options.pool.supervisor(spec, scope.root).client();
  }

  /** Opens `p.file` on its server and converts the 1-based position to LSP's. */
  private async position(p: IdePosition, scope: Scope) {
    const file = scope.confine(p.file);
    const client = await this.serverFor(file, scope);
    const doc = client.documents.sync(file);
    const lines = client.documents.linesOf(doc.uri) ?? [];
    if (p.line > lines.length) throw new RangeError(`line ${p.line} is past the end of ${p.file} (${lines.length} lines)`);
    const lineText = lines[p.line - 1]!;
    return {
      client,
      doc,
      lineText,
      textDocument: { uri: doc.uri },
      position: { line: p.line - 1, character: columnToUtf16(lineText, p.column) },
    };
  }

  private async atPosition(op: keyof typeof POSITION_METHODS, p: IdePosition, scope: Scope, signal: AbortSignal) {
    const { client, textDocument, position } = await this.position(p, scope);
    const params = op === 'references' ? { textDocument, position, context: { includeDeclaration: true } } : { textDocument, position };
    const found = scope.locator.locations(await client.request(POSITION_METHODS[op], params, signal));
    // References come in the server's order (by file as it searched them); sorted, they read like VS Code's list.
    return wireList(op === 'references' ? found.sort(byPlace) : found);
  }

  private async hover(p: IdePosition, scope: Scope, signal: AbortSignal): Promise<IdeResult<'hover'>> {
    const { client, doc, lineText, textDocument, position } = await this.position(p, scope);
    const hover = await client.request<Hover | null>('textDocument/hover', { textDocument, position }, signal);
    const contents = hoverText(hover);
    if (contents === '') return { hover: null };
    const range = hover?.range ?? wordRangeAt(lineText, position.line, position.character);
    return { hover: { ...scope.locator.location(doc.uri, range), contents } };
  }

  private async documentSymbols(file: string, scope: Scope, signal: AbortSignal) {
    const confined = scope.confine(file);
    const client = await this.serverFor(confined, scope);
    const doc = client.documents.sync(confined);
    const answer = await client.request('textDocument/documentSymbol', { textDocument: { uri: doc.uri } }, signal);
    return wireList(scope.locator.documentSymbols(doc.uri, answer));
  }

  /** Every language of the workspace: its server started, its projects opened, its symbols merged. */
  private async workspaceSymbols(query: string, scope: Scope, signal: AbortSignal): Promise<IdeList<IdeLocation>> {
    const { byLanguage } = await scanWorkspace(scope.root, this.options.servers);
    const asked = await Promise.allSettled(
      [...byLanguage.values()].map(async ({ spec, files }) => {
        const t0 = Date.now();
        const client = await this.options.pool.supervisor(spec, scope.root).client();
        const t1 = Date.now();
        if (!this.primed.has(client)) {
          for (const f of files) {
            try {
              client.documents.sync(f);
            } catch {
              // gone since the scan: the other projects still count
            }
          }
          this.primed.add(client);
        }
        const idle = await client.settled(this.options.projectLoadWaitMs);
        const t2 = Date.now();
        let symbols = await querySymbols(client, query, files, spec.language === 'typescript', signal);
        // Nothing found while the server still loads the project (a slow machine, a big project):
        // "nothing by that name" would mislead the agent, so wait for the load once more, then ask again.
        if (symbols.length === 0 && !idle && (await client.settled(this.options.projectLoadWaitMs * 2))) {
          symbols = await querySymbols(client, query, files, spec.language === 'typescript', signal);
        }
        this.options.log.debug(
          `${spec.language} workspace symbols: server ${t1 - t0} ms, project load ${t2 - t1} ms, query ${Date.now() - t2} ms`,
        );
        return scope.locator.workspaceSymbols(symbols);
      }),
    );
    const failures = asked.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    for (const f of failures) this.options.log.warn(`workspace symbols: ${f.message}`);
    if (failures.length > 0 && failures.length === asked.length) throw failures[0]!;
    return wireList(asked.flatMap((r) => (r.status === 'fulfilled' ? r.value : [])));
  }

  private async diagnostics(file: string | undefined, scope: Scope): Promise<IdeList<IdeDiagnostic>> {
    const entries: [string, Diagnostic[]][] = [];
    if (file !== undefined) {
      const confined = scope.confine(file);
      const client = await this.serverFor(confined, scope);
      const doc = client.documents.sync(confined);
      // This version's diagnostics: it may have been sent just now, or by the file watcher.
      const since = doc.sentAt;
      const publishedAt = client.diagnosticsAt.get(doc.uri) ?? 0;
      if (doc.changed || publishedAt < since || Date.now() - publishedAt < this.options.diagnosticsQuietMs) {
        // A question about the document returns once the server has the project loaded (its
        // first diagnostics may be the syntax-only ones); the wait for settled diagnostics
        // starts from there.
        await client.request('textDocument/documentSymbol', { textDocument: { uri: doc.uri } }).catch(() => undefined);
        await this.diagnosticsSettled(client, doc.uri, since);
      }
      entries.push([doc.uri, client.diagnostics.get(doc.uri) ?? []]);
    } else {
      for (const client of this.options.pool.runningFor(scope.root)) {
        for (const [uri, diags] of client.diagnostics)
          if (uri.startsWith('file:') && scope.inside(fileOfUri(uri))) entries.push([uri, diags]);
      }
    }
    const out: IdeDiagnostic[] = [];
    for (const [uri, diags] of entries) {
      for (const d of diags) {
        out.push({
          ...scope.locator.location(uri, d.range),
          severity: SEVERITY[d.severity ?? 1] ?? 'error',
          message: d.message,
          // VS Code's TypeScript names its diagnostics "ts"; typescript-language-server "typescript".
          ...(d.source ? { source: d.source === 'typescript' ? 'ts' : d.source } : {}),
          ...(d.code !== undefined ? { code: String(d.code) } : {}),
        });
      }
    }
    return wireList(out.sort(byPlace));
  }

  /**
   * Waits until the server published diagnostics for `uri` after `since` and then stayed quiet
   * for a moment (servers publish in steps: syntax first, then types), or the wait is over.
   */
  private diagnosticsSettled(client: LanguageServerClient, uri: string, since: number): Promise<void> {
    return new Promise((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      const finish = (): void => {
        clearTimeout(limit);
        clearTimeout(quiet);
        off();
        resolve();
      };
      const limit = setTimeout(finish, this.options.diagnosticsWaitMs);
      const check = (): void => {
        if (!client.alive) return finish();
        if ((client.diagnosticsAt.get(uri) ?? 0) < since) return;
        clearTimeout(quiet);
        quiet = setTimeout(finish, this.options.diagnosticsQuietMs);
      };
      const off = client.onChange(check);
      check(); // published already, while the server was being asked
    });
  }

  private async search(p: IdeParams<'searchText'>, scope: Scope, signal: AbortSignal): Promise<IdeList<IdeLocation>> {
    const r = await searchText({
      root: scope.confine(p.path),
      regex: p.regex,
      ...(p.extension !== undefined ? { extension: p.extension } : {}),
      maxHits: MAX_WIRE_ITEMS,
      signal,
      budgetMs: this.options.searchBudgetMs ?? DEFAULT_SEARCH_BUDGET_MS,
    });
    return { items: r.items, total: r.total };
  }

  private async lines(p: IdeParams<'lines'>, scope: Scope): Promise<IdeResult<'lines'>> {
    const file = scope.confine(p.file);
    let content: string;
    try {
      content = await readLines(file, p.start, p.end - p.start + 1);
    } catch (e) {
      throw new RangeError(`${p.file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? errorText(e)}`);
    }
    const count = content === '' && p.start > 1 ? 0 : content.split('\n').length;
    if (count === 0) throw new RangeError(`line ${p.start} is past the end of ${p.file}`);
    return { file, line: p.start, endLine: p.start + count - 1, content };
  }
}
