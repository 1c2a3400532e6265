// The editor's answers to `_symposium/ide/*`: the conductor's ide-operations component
// asks, VS Code's language features answer — the same commands behind Go to Definition, Find All
// References, Go to Symbol, the outline, hovers and the Problems view — plus a text search over the
// files (src/node/textSearch.ts, unsaved editors included). Every path the request names is
// confined like fs/* (the session's folder and symposium.allowedFolders, src/node/confinement.ts);
// results are 1-based with code-point columns (documentText.ts); lists are cut at
// MAX_WIRE_ITEMS with the total kept.
import { acpRequestError } from '../agents/acpSdk';
import * as vscode from 'vscode';
import { sessionFolders, type ClientRequestContext, type IdeHandlers, type SessionInfo } from '../agents/clientHandlers';
import type { Log } from '../log/logEvent';
import { confine, OutsideWorkspaceError } from '../node/confinement';
import { delay } from '../node/deadline';
import { readLines } from '../node/textFiles';
import { SearchError, searchText } from '../node/textSearch';
import {
  bareSymbolName,
  columnToUtf16,
  MAX_WIRE_ITEMS,
  wireList,
  IdeParamsError,
  parseIdeParams,
  type IdeDiagnostic,
  type IdeList,
  type IdeLocation,
  type IdeOperation,
  type IdeParams,
  type IdePosition,
  type IdeResult,
  type IdeSeverity,
} from '../protocol/ideOperations';
import { DocumentTexts, hoverText, symbolKindName } from './documentText';
import { TypeScriptProjects } from './projectLoading';
import { errorText } from '../protocol/errorText';

/** How long a diagnostics request for a file nobody opened waits for its language server. */
const DIAGNOSTICS_WAIT_MS = 5000;
/**
 * How long a question waits for TypeScript to start and load the projects it needs (the
 * conductor gives a request 30 s), and how long an empty workspace-symbol answer right after a
 * project load is asked again, at growing intervals.
 */
const PROJECT_LOAD_WAIT_MS = 15_000;
const EMPTY_RETRY_MS = 3000;
const EMPTY_RETRY_INTERVALS_MS = [250, 500, 1000];
const ALLOWED_FOLDERS = {
  hint: "Only the session's workspace folders (its folder and, with symposium.allFoldersInSession, the workspace's other folders the agent was given) and the folders in the symposium.allowedFolders setting are allowed.",
};
const SEVERITY: Record<vscode.DiagnosticSeverity, IdeSeverity> = { 0: 'error', 1: 'warning', 2: 'information', 3: 'hint' };

export interface EditorIdeDeps {
  log: Log;
  lookupSession(actorKey: string, sessionId: string): Pick<SessionInfo, 'cwd' | 'additionalDirectories'> | undefined;
  allowedFolders(): string[];
}

type Definitionish = vscode.Location | vscode.LocationLink;
const POSITION_COMMANDS = {
  definitions: 'vscode.executeDefinitionProvider',
  references: 'vscode.executeReferenceProvider',
  typeDefinitions: 'vscode.executeTypeDefinitionProvider',
  implementations: 'vscode.executeImplementationProvider',
} as const;

/** What one request may touch: its roots, and the texts it read. */
class RequestScope {
  readonly texts: DocumentTexts;
  constructor(readonly roots: string[]) {
    this.texts = new DocumentTexts((file) => this.inside(file));
  }

  /** The confined absolute path of `requested`; throws an invalid-params error naming the rule. */
  confine(requested: string): string {
    try {
      return confine(requested, this.roots, ALLOWED_FOLDERS);
    } catch (e) {
      if (e instanceof OutsideWorkspaceError) throw acpRequestError().invalidParams(undefined, e.message);
      throw e;
    }
  }

  inside(file: string): boolean {
    try {
      confine(file, this.roots);
      return true;
    } catch {
      return false;
    }
  }
}

export class EditorIde implements IdeHandlers {
  private readonly projects = new TypeScriptProjects();

  constructor(private readonly deps: EditorIdeDeps) {}

  async answer<O extends IdeOperation>(operation: O, raw: unknown, ctx: ClientRequestContext): Promise<IdeResult<O>> {
    let params: IdeParams<O>;
    try {
      params = parseIdeParams(operation, raw);
    } catch (e) {
      if (e instanceof IdeParamsError) throw acpRequestError().invalidParams(undefined, e.message);
      throw e;
    }
    const session = this.deps.lookupSession(ctx.actorKey, params.sessionId);
    if (!session) throw acpRequestError().invalidParams(undefined, `No chat tab has session ${params.sessionId}.`);
    const scope = new RequestScope([...sessionFolders(session), ...this.deps.allowedFolders()]);
    const started = Date.now();
    try {
      const result = (await this.run(operation, params, scope, ctx.signal)) as IdeResult<O>;
      const size = 'total' in (result as object) ? (result as IdeList<unknown>).total : undefined;
      this.deps.log.info('ide', operation, { ms: Date.now() - started, results: size, agent: ctx.agentName });
      return result;
    } catch (e) {
      this.deps.log.warn('ide', `${operation} failed`, { error: errorText(e), agent: ctx.agentName });
      throw e;
    }
  }

  private async run(operation: IdeOperation, params: IdeParams<IdeOperation>, scope: RequestScope, signal: AbortSignal): Promise<unknown> {
    switch (operation) {
      case 'workspaceSymbols':
        return this.workspaceSymbols((params as IdeParams<'workspaceSymbols'>).query, scope, signal);
      case 'documentSymbols':
        return this.documentSymbols((params as IdeParams<'documentSymbols'>).file, scope);
      case 'definitions':
      case 'references':
      case 'typeDefinitions':
      case 'implementations':
        return this.atPosition(operation, (params as IdeParams<'references'>).position, scope);
      case 'hover':
        return this.hover((params as IdeParams<'hover'>).position, scope);
      case 'diagnostics':
        return this.diagnostics((params as IdeParams<'diagnostics'>).file, scope);
      case 'searchText':
        return this.search(params as IdeParams<'searchText'>, scope, signal);
      case 'lines':
        return this.lines(params as IdeParams<'lines'>, scope);
      case 'selection':
        return this.selection(scope);
    }
  }

  /**
   * Go to Symbol in Workspace, once the session folder's TypeScript projects are loaded
   * (projectLoading.ts). Right after a load an empty answer is asked again for a moment, so "not
   * found" never means "not loaded yet".
   */
  private async workspaceSymbols(query: string, scope: RequestScope, signal: AbortSignal): Promise<IdeList<IdeLocation>> {
    const ask = async (): Promise<vscode.SymbolInformation[]> =>
      (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
    const started = Date.now();
    const { waited, loaded } = await this.projects.load(scope.roots[0]!, PROJECT_LOAD_WAIT_MS);
    if (waited > 0) this.deps.log.info('ide', 'TypeScript projects loaded first', { projects: waited, loaded, ms: Date.now() - started });
    let symbols = await ask();
    const retryUntil = Date.now() + EMPTY_RETRY_MS;
    for (let i = 0; waited > 0 && symbols.length === 0 && !signal.aborted && Date.now() < retryUntil; i++) {
      await delay(EMPTY_RETRY_INTERVALS_MS[Math.min(i, EMPTY_RETRY_INTERVALS_MS.length - 1)]!);
      symbols = await ask();
    }
    const out: IdeLocation[] = [];
    for (const s of symbols.slice(0, MAX_WIRE_ITEMS)) {
      const name = bareSymbolName(s.name);
      const range = await scope.texts.nameRange(s.location.uri, s.location.range, name);
      out.push(
        await scope.texts.location(s.location.uri, range, {
          name,
          kind: symbolKindName(s.kind),
          ...(s.containerName ? { containerName: s.containerName } : {}),
        }),
      );
    }
    return { items: out, total: symbols.length };
  }

  private async documentSymbols(file: string, scope: RequestScope): Promise<IdeList<IdeLocation>> {
    const uri = vscode.Uri.file(scope.confine(file));
    const symbols =
      (await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
        'vscode.executeDocumentSymbolProvider',
        uri,
      )) ?? [];
    const out: IdeLocation[] = [];
    const visit = async (s: vscode.DocumentSymbol | vscode.SymbolInformation, container?: string): Promise<void> => {
      if (out.length >= MAX_WIRE_ITEMS) return;
      const extra = { name: bareSymbolName(s.name), kind: symbolKindName(s.kind), ...(container ? { containerName: container } : {}) };
      if ('selectionRange' in s) {
        out.push(await scope.texts.location(uri, s.selectionRange, extra));
        for (const child of s.children) await visit(child, s.name);
      } else {
        out.push(
          await scope.texts.location(s.location.uri, await scope.texts.nameRange(s.location.uri, s.location.range, extra.name), {
            ...extra,
            ...(s.containerName ? { containerName: s.containerName } : {}),
          }),
        );
      }
    };
    for (const s of symbols) await visit(s);
    return wireList(out);
  }

  /** The document and VS Code position of a 1-based position; the file is confined. */
  private async position(p: IdePosition, scope: RequestScope): Promise<{ uri: vscode.Uri; pos: vscode.Position }> {
    const uri = vscode.Uri.file(scope.confine(p.file));
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch (e) {
      throw acpRequestError().invalidParams(undefined, `${p.file} cannot be opened: ${errorText(e)}`);
    }
    if (p.line > doc.lineCount)
      throw acpRequestError().invalidParams(undefined, `line ${p.line} is past the end of ${p.file} (${doc.lineCount} lines)`);
    const text = doc.lineAt(p.line - 1).text;
    return { uri, pos: new vscode.Position(p.line - 1, columnToUtf16(text, p.column)) };
  }

  private async atPosition(op: keyof typeof POSITION_COMMANDS, p: IdePosition, scope: RequestScope): Promise<IdeList<IdeLocation>> {
    const { uri, pos } = await this.position(p, scope);
    const found = (await vscode.commands.executeCommand<Definitionish[] | undefined>(POSITION_COMMANDS[op], uri, pos)) ?? [];
    const out: IdeLocation[] = [];
    for (const d of found.slice(0, MAX_WIRE_ITEMS)) {
      // A LocationLink's selection range is the name, where Go to Definition puts the cursor.
      if ('targetUri' in d) out.push(await scope.texts.location(d.targetUri, d.targetSelectionRange ?? d.targetRange));
      else out.push(await scope.texts.location(d.uri, d.range));
    }
    return { items: out, total: found.length };
  }

  private async hover(p: IdePosition, scope: RequestScope): Promise<IdeResult<'hover'>> {
    const { uri, pos } = await this.position(p, scope);
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', uri, pos)) ?? [];
    const contents = hoverText(hovers);
    if (contents === '') return { hover: null };
    const doc = await vscode.workspace.openTextDocument(uri);
    const range = hovers.find((h) => h.range)?.range ?? doc.getWordRangeAtPosition(pos) ?? new vscode.Range(pos, pos);
    return { hover: { ...(await scope.texts.location(uri, range)), contents } };
  }

  private async diagnostics(file: string | undefined, scope: RequestScope): Promise<IdeList<IdeDiagnostic>> {
    let entries: [vscode.Uri, readonly vscode.Diagnostic[]][];
    if (file !== undefined) {
      const uri = vscode.Uri.file(scope.confine(file));
      await this.ensureChecked(uri);
      entries = [[uri, vscode.languages.getDiagnostics(uri)]];
    } else {
      entries = vscode.languages.getDiagnostics().filter(([uri]) => uri.scheme === 'file' && scope.inside(uri.fsPath));
    }
    const out: IdeDiagnostic[] = [];
    for (const [uri, diags] of entries) {
      for (const d of diags) {
        const code = typeof d.code === 'object' ? d.code.value : d.code;
        out.push({
          ...(await scope.texts.location(uri, d.range)),
          severity: SEVERITY[d.severity],
          message: d.message,
          ...(d.source ? { source: d.source } : {}),
          ...(code !== undefined ? { code: String(code) } : {}),
        });
      }
    }
    out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
    return wireList(out);
  }

  /**
   * Language servers check the files open in the editor (TypeScript only those in a tab), so a
   * file nobody opened has no diagnostics yet, in the Problems view either. Such a file is opened
   * in a background preview tab (focus and the active editor stay as they were), and its server
   * gets a moment to report.
   */
  private async ensureChecked(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    const inTab = vscode.window.tabGroups.all.some((g) =>
      g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key),
    );
    if (inTab || vscode.languages.getDiagnostics(uri).length > 0) return;
    let done: () => void = () => undefined;
    const reported = new Promise<void>((r) => (done = r));
    const sub = vscode.languages.onDidChangeDiagnostics((e) => e.uris.some((u) => u.toString() === key) && done());
    const timer = setTimeout(done, DIAGNOSTICS_WAIT_MS);
    try {
      await vscode.workspace.openTextDocument(uri).then(undefined, (e: unknown) => {
        throw acpRequestError().invalidParams(undefined, `${uri.fsPath} cannot be opened: ${errorText(e)}`);
      });
      await vscode.commands.executeCommand('vscode.open', uri, { preview: true, preserveFocus: true, background: true });
      await reported;
    } finally {
      clearTimeout(timer);
      sub.dispose();
    }
  }

  private async search(p: IdeParams<'searchText'>, scope: RequestScope, signal: AbortSignal): Promise<IdeList<IdeLocation>> {
    const root = scope.confine(p.path);
    const dirty = new Map(
      vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => [d.uri.fsPath, d.getText()]),
    );
    try {
      const r = await searchText({
        root,
        regex: p.regex,
        ...(p.extension !== undefined ? { extension: p.extension } : {}),
        maxHits: MAX_WIRE_ITEMS,
        readText: (f) => dirty.get(f),
        signal,
      });
      return { items: r.items, total: r.total };
    } catch (e) {
      if (e instanceof SearchError) throw acpRequestError().invalidParams(undefined, e.message);
      throw e;
    }
  }

  private async lines(p: IdeParams<'lines'>, scope: RequestScope): Promise<IdeResult<'lines'>> {
    const file = scope.confine(p.file);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
    let content: string;
    if (open) {
      content = open
        .getText()
        .split(/\r?\n/)
        .slice(p.start - 1, p.end)
        .join('\n');
    } else {
      try {
        content = await readLines(file, p.start, p.end - p.start + 1);
      } catch (e) {
        throw acpRequestError().invalidParams(undefined, `${p.file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? errorText(e)}`);
      }
    }
    const count = content === '' && p.start > 1 ? 0 : content.split('\n').length;
    if (count === 0) throw acpRequestError().invalidParams(undefined, `line ${p.start} is past the end of ${p.file}`);
    return { file, line: p.start, endLine: p.start + count - 1, content };
  }

  private async selection(scope: RequestScope): Promise<IdeResult<'selection'>> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return { selection: null };
    const { document, selection } = editor;
    if (document.uri.scheme === 'file' && !scope.inside(document.uri.fsPath)) {
      scope.confine(document.uri.fsPath); // throws, naming the rule
    }
    return { selection: { ...(await scope.texts.location(document.uri, selection)), text: document.getText(selection) } };
  }
}
