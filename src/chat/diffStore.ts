// The `diff` contents of tool calls the host routed, kept so "Open diff" in a tool card can show
// VS Code's diff view without trusting text sent back by the webview: the webview names the tool
// call and path, the host looks the texts up here. Bounded per tab. Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { TabId } from '../protocol/webview';

export interface StoredDiff {
  path: string;
  oldText: string | null;
  newText: string;
  title: string;
}

export class DiffStore {
  private readonly tabs = new Map<TabId, Map<string, StoredDiff>>();

  constructor(private readonly maxPerTab = 200) {}

  /** Remembers the diff items of a tool_call / tool_call_update (later ones replace earlier ones). */
  record(tabId: TabId, update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    for (const c of update.content ?? []) {
      if (c.type !== 'diff') continue;
      let diffs = this.tabs.get(tabId);
      if (!diffs) this.tabs.set(tabId, (diffs = new Map()));
      const key = `${update.toolCallId}\n${c.path}`;
      diffs.delete(key); // re-insert: the newest stays longest
      diffs.set(key, { path: c.path, oldText: c.oldText ?? null, newText: c.newText, title: update.title ?? '' });
      if (diffs.size > this.maxPerTab) diffs.delete(diffs.keys().next().value!);
    }
  }

  get(tabId: TabId, toolCallId: string, path: string): StoredDiff | undefined {
    return this.tabs.get(tabId)?.get(`${toolCallId}\n${path}`);
  }

  forget(tabId: TabId): void {
    this.tabs.delete(tabId);
  }
}
