// mynah-ui makes its own tab ids; the protocol uses UUID v4 tab ids made here. This keeps the two
// directions in step. Pure.
import type { TabId } from '../src/protocol/webview';

export class TabIdMap {
  private readonly toTab = new Map<string, TabId>();
  private readonly toMynah = new Map<TabId, string>();

  constructor(initial: Record<string, TabId> = {}) {
    for (const [m, t] of Object.entries(initial)) this.set(m, t);
  }

  set(mynahId: string, tabId: TabId): void {
    this.toTab.set(mynahId, tabId);
    this.toMynah.set(tabId, mynahId);
  }

  tabId(mynahId: string): TabId | undefined {
    return this.toTab.get(mynahId);
  }
  mynahId(tabId: TabId): string | undefined {
    return this.toMynah.get(tabId);
  }

  deleteMynah(mynahId: string): TabId | undefined {
    const t = this.toTab.get(mynahId);
    this.toTab.delete(mynahId);
    if (t !== undefined) this.toMynah.delete(t);
    return t;
  }

  tabIds(): TabId[] {
    return [...this.toMynah.keys()];
  }
  toJSON(): Record<string, TabId> {
    return Object.fromEntries(this.toTab);
  }
}

/** UUID v4 (crypto.randomUUID exists in webviews, which are secure contexts). */
export function newUuid(): string {
  return crypto.randomUUID();
}
