// OpenCtx annotations in the editor: for a file whose content and path match a provider's
// selectors, `annotations {uri, content}` become hovers (the item's `ui.hover`, else its title)
// and code lenses (the item's title, opening its `url`) at the annotation ranges (0-based, as the
// protocol says). Answers are kept per document until it is saved (asked again after a short
// pause) or closed, or the providers change. A provider's markdown is shown untrusted (no command
// links, no HTML).
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import type { OpenCtxClient, ProviderAnnotation } from '../node/openctxClient';

const REFRESH_DELAY_MS = 500;
/** How long a hover or the code lenses wait for slow providers before showing what the others gave. */
const SLOW_PROVIDER_WAIT_MS = 1_000;

interface Entry {
  results: ProviderAnnotation[];
  /** Every provider answered (or failed, or timed out). */
  done: Promise<void>;
  /** Shown once already: later answers refresh the lenses. */
  settled: boolean;
}

export class OpenCtxAnnotations implements vscode.HoverProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly cache = new Map<string, Entry>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly subscriptions: vscode.Disposable[];
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: () => OpenCtxClient | undefined,
    onProvidersChanged: vscode.Event<void>,
    private readonly log: Log,
  ) {
    const selector: vscode.DocumentSelector = { scheme: 'file' };
    this.subscriptions = [
      vscode.languages.registerHoverProvider(selector, this),
      vscode.languages.registerCodeLensProvider(selector, this),
      onProvidersChanged(() => this.forget()),
      vscode.workspace.onDidSaveTextDocument((doc) => this.forget(doc.uri)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.cache.delete(doc.uri.toString())),
    ];
  }

  /**
   * The annotations of a document, asked once (each provider on its own) and kept until it is saved
   * or the providers change. Waits at most `waitMs` for slow providers: what they answer later
   * refreshes the code lenses, and the next hover has it.
   */
  async annotationsFor(doc: vscode.TextDocument, waitMs = SLOW_PROVIDER_WAIT_MS): Promise<ProviderAnnotation[]> {
    const key = doc.uri.toString();
    let entry = this.cache.get(key);
    if (!entry) {
      const client = this.client();
      const results: ProviderAnnotation[] = [];
      const fresh: Entry = { results, done: Promise.resolve(), settled: false };
      const params = { uri: key, content: doc.getText() };
      fresh.done = Promise.all(
        (client?.providerUris ?? []).map(async (provider) => {
          const found = await client!.annotations(params, { provider });
          if (this.cache.get(key) !== fresh || found.length === 0) return;
          results.push(...found);
          this.log.debug('openctx', 'annotations', { uri: key, provider, count: found.length });
          if (fresh.settled) this.lensesChanged.fire(); // a slow provider answered after we showed the rest
        }),
      ).then(() => undefined);
      this.cache.set(key, fresh);
      entry = fresh;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([entry.done, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    entry.settled = true;
    return [...entry.results];
  }

  async provideHover(
    doc: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const here = (await this.annotationsFor(doc)).filter((a) => rangeOf(doc, a)?.contains(position));
    if (token.isCancellationRequested || here.length === 0) return undefined;
    const parts = here.map(({ annotation: { item } }) => {
      const md = new vscode.MarkdownString(undefined, false);
      md.isTrusted = false;
      md.supportHtml = false;
      if (item.ui?.hover?.markdown !== undefined) md.appendMarkdown(item.ui.hover.markdown);
      else md.appendText(item.ui?.hover?.text ?? item.title);
      if (item.url) md.appendMarkdown(`\n\n[${escapeLinkText(item.title || item.url)}](${encodeURI(item.url)})`);
      return md;
    });
    return new vscode.Hover(parts, rangeOf(doc, here[0]!));
  }

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const annotations = await this.annotationsFor(doc);
    if (token.isCancellationRequested) return [];
    const lenses: vscode.CodeLens[] = [];
    const seen = new Set<string>();
    for (const a of annotations) {
      const range = rangeOf(doc, a);
      const { title, url } = a.annotation.item;
      // One lens per line and title: a provider annotating every occurrence shows once per line.
      const key = `${range?.start.line ?? 0} ${title}`;
      if (!range || !title || seen.has(key)) continue;
      seen.add(key);
      const target = url && /^https?:\/\//i.test(url) ? vscode.Uri.parse(url) : undefined;
      lenses.push(
        new vscode.CodeLens(range, {
          title,
          tooltip: url ?? title,
          command: target ? 'vscode.open' : '',
          ...(target ? { arguments: [target] } : {}),
        }),
      );
    }
    return lenses;
  }

  /** Forgets a document's answers (all, without `uri`) and refreshes the lenses shortly after. */
  private forget(uri?: vscode.Uri): void {
    if (uri) this.cache.delete(uri.toString());
    else this.cache.clear();
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.lensesChanged.fire(), REFRESH_DELAY_MS);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const s of this.subscriptions) s.dispose();
    this.lensesChanged.dispose();
    this.cache.clear();
  }
}

/** The annotation's range in the document (clamped to it); the first line when it has none. */
function rangeOf(doc: vscode.TextDocument, { annotation }: ProviderAnnotation): vscode.Range | undefined {
  if (annotation.uri !== doc.uri.toString() && decodeURIComponent(annotation.uri) !== decodeURIComponent(doc.uri.toString()))
    return undefined;
  if (!annotation.range) return doc.lineAt(0).range;
  const { start, end } = annotation.range;
  return doc.validateRange(new vscode.Range(start.line, start.character, end.line, end.character));
}

const escapeLinkText = (s: string): string => s.replace(/[[\]\\]/g, '\\$&');
