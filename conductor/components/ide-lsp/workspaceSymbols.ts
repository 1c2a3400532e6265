// Workspace symbols from language servers, as VS Code's "Go to Symbol in Workspace" gives them.
// Three things servers need help with:
// - They know only the projects of open documents, so one file per project is opened first
//   (workspaceScan.ts); for TypeScript only files of tsconfig/jsconfig projects, since a loose
//   file makes tsserver search the parent folders for a configuration (and load whatever it
//   finds there).
// - typescript-language-server asks tsserver's `navto` in the project of the most recently used
//   document only, so each project's file is touched before its own query and the answers are
//   merged (deduplicated).
// - Some servers leave out `containerName` (typescript-language-server drops tsserver's), which
//   `findDefinitions("Parser.parse")` needs: it is taken from the file's outline (the
//   innermost symbol around the one found), as VS Code shows it.
// - A server just started may answer `[]` before it has indexed the workspace (pyright reports
//   no progress for a small one; tsserver's project load starts a while after the file is
//   opened on a loaded machine): an empty answer is not trusted while the server works or within
//   a few seconds of its start or its last progress step, and the question is asked again a
//   moment later, for a bounded time.
import type { DocumentSymbol, Range, SymbolInformation } from 'vscode-languageserver-protocol';
import { isObject } from '../../../src/protocol/guards';
import type { LanguageServerClient } from './lspClient';

/** Files whose outline is read to find containers, per query. */
const MAX_OUTLINES = 10;
/** How long after its start or last progress an empty answer from a server is asked again, how often, and for how long at most. */
const YOUNG_SERVER_MS = 5000;
const RETRY_EMPTY_MS = 250;
const MAX_RETRY_MS = 30_000;

const contains = (outer: Range, inner: Range): boolean =>
  (outer.start.line < inner.start.line || (outer.start.line === inner.start.line && outer.start.character <= inner.start.character)) &&
  (outer.end.line > inner.end.line || (outer.end.line === inner.end.line && outer.end.character >= inner.end.character));

/** `workspace/symbol` on `client` for each project file in `projectFiles` (or once), merged. */
export async function querySymbols(
  client: LanguageServerClient,
  query: string,
  projectFiles: readonly string[],
  perProject: boolean,
  signal: AbortSignal,
): Promise<SymbolInformation[]> {
  const rounds = perProject && projectFiles.length > 1 ? projectFiles : [undefined];
  // A young server's empty answer is asked again, all projects together: one project that has no
  // such symbol must not use up the time another project needs to load.
  const started = Date.now();
  const unsettled = (): boolean => client.busy || Date.now() - client.quietSince < YOUNG_SERVER_MS;
  let out = await askEachProject(client, query, rounds, signal);
  while (out.length === 0 && unsettled() && Date.now() - started < MAX_RETRY_MS && !signal.aborted) {
    if (client.busy) await client.settled(MAX_RETRY_MS - (Date.now() - started));
    else await new Promise((r) => setTimeout(r, RETRY_EMPTY_MS));
    out = await askEachProject(client, query, rounds, signal);
  }
  await addContainers(client, out, signal);
  return out;
}

/** One `workspace/symbol` per project (each project's file made the most recent first), deduplicated. */
async function askEachProject(
  client: LanguageServerClient,
  query: string,
  rounds: readonly (string | undefined)[],
  signal: AbortSignal,
): Promise<SymbolInformation[]> {
  const seen = new Set<string>();
  const out: SymbolInformation[] = [];
  for (const file of rounds) {
    if (file !== undefined) {
      // Makes `file` the server's most recently used document: tsserver searches its project.
      const doc = client.documents.sync(file);
      await client.request('textDocument/documentSymbol', { textDocument: { uri: doc.uri } }, signal).catch(() => undefined);
    }
    const answer = await client.request<unknown>('workspace/symbol', { query }, signal);
    for (const s of Array.isArray(answer) ? (answer as SymbolInformation[]) : []) {
      if (!isObject(s) || !isObject(s.location)) continue;
      const r = 'range' in s.location ? s.location.range : undefined;
      const key = `${s.name}\0${s.location.uri}\0${r ? `${r.start.line}:${r.start.character}` : ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(s);
    }
  }
  return out;
}

/** Fills in `containerName` from the files' outlines where the server left it out. */
async function addContainers(client: LanguageServerClient, symbols: SymbolInformation[], signal: AbortSignal): Promise<void> {
  const missing = symbols.filter((s) => !s.containerName && 'range' in s.location);
  const uris = [...new Set(missing.map((s) => s.location.uri))].slice(0, MAX_OUTLINES);
  for (const uri of uris) {
    const outline = await client.request<unknown>('textDocument/documentSymbol', { textDocument: { uri } }, signal).catch(() => undefined);
    if (!Array.isArray(outline) || !outline.every((d) => isObject(d) && 'selectionRange' in d)) continue;
    for (const s of missing.filter((m) => m.location.uri === uri)) {
      const container = innermostAround(outline as DocumentSymbol[], s.location.range);
      if (container) s.containerName = container;
    }
  }
}

/**
 * The name of the symbol that holds the one at `target` in an outline: descend through the
 * symbols whose range holds `target` until the symbol itself (its name inside `target`).
 */
function innermostAround(symbols: readonly DocumentSymbol[], target: Range, parent?: string): string | undefined {
  const holder = symbols.find((d) => contains(d.range, target));
  if (!holder) return parent;
  const isItself = contains(target, holder.selectionRange) || contains(holder.selectionRange, target);
  return isItself ? parent : innermostAround(holder.children ?? [], target, holder.name);
}
