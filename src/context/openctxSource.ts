// OpenCtx providers' mentions as a context source for the `@` menu (docs/openctx.md). The menu
// shows what the providers answered for the empty query plus what they answered for the text the
// user types after `@` (asked after a short pause; a newer query cancels the older one). Answers
// are kept here, so listing never waits on a provider: a slow one joins the menu when it answers.
// On send, each chosen mention becomes the provider's `items {mention, message}` as embedded
// `resource` blocks (the item's url, or the mention's uri; text = ai.content, else the hover), or
// `resource_link`s when the agent takes no embedded context. A provider that gives no items still
// leaves a link to the mention, so nothing the user attached is silently lost. vscode-free.
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { OpenCtxClient, ProviderMention } from '../node/openctxClient';
import { itemText, type OpenCtxMention } from '../protocol/openctx';
import type { ContextRef } from '../protocol/webview';
import { Emitter, type Event } from '../util/emitter';
import type { ContextSource } from './contextSource';

const mentionKey = (provider: string, uri: string): string => `${provider} ${uri}`;
const MAX_KEPT_MENTIONS = 5_000;

export class OpenCtxSource implements ContextSource {
  readonly name = 'OpenCtx';
  readonly kinds = ['openctx'] as const;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  /** Answers to the empty query, then to the latest typed query. */
  private initial: ContextRef[] = [];
  private typed: ContextRef[] = [];
  /** The full mentions behind the refs (their `data` goes back to the provider with `items`). */
  private readonly mentions = new Map<string, OpenCtxMention>();
  private query = '';
  private queryTimer: NodeJS.Timeout | undefined;
  private running: AbortController | undefined;
  private initialRun: AbortController | undefined;
  private readonly unsubscribe: { dispose(): void };

  constructor(
    private readonly client: () => OpenCtxClient | undefined,
    onProvidersChanged: Event<void>,
    private readonly log: Log,
    private readonly queryDelayMs = 250,
  ) {
    this.unsubscribe = onProvidersChanged(() => this.reload());
    this.reload();
  }

  list(): Promise<ContextRef[]> {
    const seen = new Set(this.initial.map((r) => mentionKey(r.provider ?? '', r.uri)));
    return Promise.resolve([...this.initial, ...this.typed.filter((r) => !seen.has(mentionKey(r.provider ?? '', r.uri)))]);
  }

  /** The text after `@` changed: ask the providers once typing pauses. */
  setQuery(query: string): void {
    if (query === this.query) return;
    this.query = query;
    clearTimeout(this.queryTimer);
    this.running?.abort();
    if (this.typed.length) {
      this.typed = [];
      this.changed.fire();
    }
    if (query !== '')
      this.queryTimer = setTimeout(() => this.ask(query, (refs) => (this.typed = [...this.typed, ...refs])), this.queryDelayMs);
  }

  /** Providers changed: forget every answer and ask again. */
  reload(): void {
    clearTimeout(this.queryTimer);
    this.initialRun?.abort();
    this.running?.abort();
    this.initial = [];
    this.typed = [];
    this.mentions.clear();
    this.changed.fire();
    this.initialRun = this.ask('', (refs) => (this.initial = [...this.initial, ...refs]));
    if (this.query)
      this.queryTimer = setTimeout(() => this.ask(this.query, (refs) => (this.typed = [...this.typed, ...refs])), this.queryDelayMs);
  }

  /**
   * Asks every provider for mentions of `query`, each on its own: `add` gets each provider's
   * answer as it comes (so a slow provider holds up nobody), until a newer ask supersedes this one.
   */
  private ask(query: string, add: (refs: ContextRef[]) => void): AbortController | undefined {
    const client = this.client();
    if (!client) return undefined;
    const abort = new AbortController();
    if (query) this.running = abort;
    for (const provider of client.providerUris) {
      void (async () => {
        const [found, metas] = await Promise.all([
          client.mentions(query, { provider, signal: abort.signal }),
          client.meta({ provider, signal: abort.signal }),
        ]);
        if (abort.signal.aborted || client !== this.client() || found.length === 0) return;
        const name = metas[0] && (metas[0].meta.mentionsLabel ?? metas[0].meta.name);
        this.log.debug('openctx', 'mentions', { provider, query, count: found.length });
        add(found.map((m) => this.remember(m, name)));
        this.changed.fire();
      })().catch((e: unknown) => this.log.warn('openctx', `${provider}: mentions failed`, e));
    }
    return abort;
  }

  private remember({ provider, mention }: ProviderMention, providerName: string | undefined): ContextRef {
    const key = mentionKey(provider, mention.uri);
    this.mentions.delete(key); // re-inserted: the newest last
    this.mentions.set(key, mention);
    // Every typed query adds answers: keep the newest (a mention picked a while ago falls back to its title and uri).
    for (const old of this.mentions.keys()) {
      if (this.mentions.size <= MAX_KEPT_MENTIONS) break;
      this.mentions.delete(old);
    }
    return {
      kind: 'openctx',
      uri: mention.uri,
      name: mention.title,
      provider,
      ...(providerName ? { providerName } : {}),
      ...(mention.description ? { description: mention.description } : {}),
    };
  }

  async resolve(refs: ContextRef[], caps: PromptCapabilities, _folder: string, message: string): Promise<ContentBlock[]> {
    const blocks: ContentBlock[] = [];
    for (const ref of refs) {
      const provider = ref.provider ?? '';
      const mention = this.mentions.get(mentionKey(provider, ref.uri)) ?? { title: ref.name, uri: ref.uri };
      const client = this.client();
      const items = client ? await client.items({ mention, message }, { provider }) : [];
      if (items.length === 0) {
        this.log.warn('openctx', `${provider}: no items for the mention ${mention.uri}; attaching a link to it`);
        blocks.push({ type: 'resource_link', uri: mention.uri, name: mention.title });
        continue;
      }
      for (const { item } of items) {
        const uri = item.url ?? mention.uri;
        if (caps.embeddedContext) blocks.push({ type: 'resource', resource: { uri, text: itemText(item), mimeType: 'text/plain' } });
        else blocks.push({ type: 'resource_link', uri, name: item.title || mention.title });
      }
    }
    return blocks;
  }

  dispose(): void {
    clearTimeout(this.queryTimer);
    this.running?.abort();
    this.initialRun?.abort();
    this.unsubscribe.dispose();
    this.changed.dispose();
  }
}
