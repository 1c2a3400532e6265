// The `@` menu every chat tab offers: the items of all context sources, gathered again shortly
// after a source changes or a tab opens (one refresh for a burst of changes) and handed to
// `publish` (the tab message channel, which also keeps them for webviews that load later). Also
// routes the items chosen in a prompt to the source that listed them. vscode-free.
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { ContextRef } from '../protocol/webview';
import { DisposableStore, type Disposable } from '../node/disposable';
import type { ContextSource } from './contextSource';

export class ContextMenu implements Disposable {
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions = new DisposableStore();

  constructor(
    private readonly sources: readonly ContextSource[],
    private readonly publish: (items: ContextRef[]) => void,
    private readonly log: Log,
    private readonly delayMs = 300,
  ) {
    for (const s of sources) this.subscriptions.add(s.onDidChange(() => this.refresh()));
  }

  /** Lists every source again soon (changes within `delayMs` share one refresh). */
  refresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.list().then(
        (items) => this.publish(items),
        (e: unknown) => this.log.warn('context', 'could not list workspace context', e),
      );
    }, this.delayMs);
  }

  /** Everything the `@` menu offers right now, source by source. */
  async list(): Promise<ContextRef[]> {
    return (await Promise.all(this.sources.map((s) => s.list()))).flat();
  }

  /** The chosen items as content blocks, in the order chosen, each resolved by its source. */
  async resolve(refs: ContextRef[], caps: PromptCapabilities, folder: string, message = ''): Promise<ContentBlock[]> {
    const blocks: ContentBlock[] = [];
    for (const ref of refs) {
      const source = this.sources.find((s) => (s.handles ? s.handles(ref) : s.kinds.includes(ref.kind)));
      if (!source) throw new Error(`No context source handles "${ref.kind}" items.`);
      blocks.push(...(await source.resolve([ref], caps, folder, message)));
    }
    return blocks;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscriptions.dispose();
    for (const s of this.sources) s.dispose();
  }
}
