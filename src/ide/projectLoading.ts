// Loading the session folder's TypeScript projects before a workspace-wide question. VS Code's
// TypeScript answers Go to Symbol in Workspace (tsserver's `navto`, which the by-name operations
// use) only from the projects it has loaded, and it loads a project when one of its files is
// opened; its extension does not even start before a TypeScript or JavaScript document is open.
// In a fresh window, before anyone opened such a file, a definition by name would be "not found".
//
// So one file of each project (src/node/projectScan.ts: the nearest tsconfig/jsconfig decides
// the project) that has no ready document is opened in the background (`openTextDocument`: no
// tab, focus and editors unchanged), and the question waits until TypeScript answers for it from
// the loaded project: its semantic tokens come from tsserver's semantic server, which answers
// only once it loaded the file's project (while a project loads, VS Code routes questions such
// as `navto` to its syntax server, which knows only the open files). A document that answered is
// remembered, so an already loaded workspace costs a scan (cached for a while) and a lookup.
//
// Only TypeScript/JavaScript: the other languages' extensions (Pylance, rust-analyzer, gopls)
// start on the workspace's project files and index the whole workspace themselves.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { delay, within } from '../node/deadline';
import { scanProjects, type ScannedProject } from '../node/projectScan';

const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const LANGUAGE_IDS = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);
/** How long a folder's scan is reused: projects appear rarely, questions come in bursts. */
const SCAN_REUSE_MS = 30_000;
/** Polling for the first answer, while the extension starts and the project loads. */
const POLL_MS = [100, 200, 400, 800, 1000];

const isTypeScriptFile = (file: string): boolean => SOURCE_EXTENSIONS.has(path.extname(file).toLowerCase());

/** The project of `file`: the deepest scanned project folder holding it ('' = a loose file's). */
function projectOf(file: string, projects: readonly ScannedProject[]): string | undefined {
  let best: string | undefined;
  for (const { folder } of projects) {
    const inside = folder === '' || file.startsWith(folder + path.sep);
    if (inside && (best === undefined || folder.length > best.length)) best = folder;
  }
  return best;
}

export class TypeScriptProjects {
  private readonly scans = new Map<string, { at: number; projects: Promise<ScannedProject[]> }>();
  /** Documents TypeScript answered for from their loaded project, or that were waited for in vain once. */
  private readonly ready = new WeakSet<vscode.TextDocument>();
  private readonly waiting = new Map<vscode.TextDocument, Promise<boolean>>();

  /**
   * Makes sure every TypeScript project under `root` is loaded, waiting at most `budgetMs`.
   * Returns how many were not (a document had to be opened or waited for; then an empty answer
   * right after may still be a project loading, worth asking again) and how many of those
   * answered within the budget.
   */
  async load(root: string, budgetMs: number): Promise<{ waited: number; loaded: number }> {
    const projects = await this.scan(root);
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && LANGUAGE_IDS.has(d.languageId));
    const deadline = Date.now() + budgetMs;
    const waits: Promise<boolean>[] = [];
    for (const project of projects) {
      const mine = open.filter((d) => projectOf(d.uri.fsPath, projects) === project.folder);
      if (mine.some((d) => this.ready.has(d))) continue;
      waits.push(this.openAndWait(mine[0], project.file, deadline));
    }
    const answered = await Promise.all(waits);
    return { waited: waits.length, loaded: answered.filter(Boolean).length };
  }

  private scan(root: string): Promise<ScannedProject[]> {
    const cached = this.scans.get(root);
    if (cached && Date.now() - cached.at < SCAN_REUSE_MS) return cached.projects;
    const projects = scanProjects(root, (f) => (isTypeScriptFile(f) ? 'typescript' : undefined)).then(
      (s) => s.byLanguage.get('typescript') ?? [],
      () => [],
    );
    this.scans.set(root, { at: Date.now(), projects });
    return projects;
  }

  private async openAndWait(doc: vscode.TextDocument | undefined, file: string, deadline: number): Promise<boolean> {
    try {
      doc ??= await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    } catch {
      return false; // gone since the scan: the other projects still count
    }
    return this.waitFor(doc, deadline);
  }

  /**
   * One wait per document, shared by the questions that arrive meanwhile (so it is not cancelled
   * with any one of them; it is bounded by the first one's deadline). A document that never
   * answers (a file too big for semantic tokens) is waited for once only.
   */
  private waitFor(doc: vscode.TextDocument, deadline: number): Promise<boolean> {
    let wait = this.waiting.get(doc);
    if (!wait) {
      wait = this.poll(doc, deadline).finally(() => {
        this.ready.add(doc);
        this.waiting.delete(doc);
      });
      this.waiting.set(doc, wait);
    }
    return wait;
  }

  private async poll(doc: vscode.TextDocument, deadline: number): Promise<boolean> {
    for (let i = 0; !doc.isClosed; i++) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      // Undefined until the extension started and synced the document; then it answers once the
      // project is loaded. A request still pending at the deadline is left to finish on its own.
      const tokens = await within(
        left,
        Promise.resolve(
          vscode.commands.executeCommand<vscode.SemanticTokens | undefined>('vscode.provideDocumentSemanticTokens', doc.uri),
        ).catch(() => undefined),
      );
      if (tokens?.value !== undefined) return true;
      await delay(Math.min(POLL_MS[Math.min(i, POLL_MS.length - 1)]!, Math.max(0, deadline - Date.now())));
    }
    return false;
  }
}
