// Puts new `@` menu entries into a menu that is already open. Needed for OpenCtx: the providers
// answer the text typed after `@` later (the host waits for typing to pause, then asks them), while
// the menu is open, and mynah-ui 4.39 has no way to refresh an open menu: when `@` is typed, its
// prompt input copies the tab's `contextCommands` (the store hands out clones) into its private
// `quickPickItemGroups`, and when an entry with children is picked it copies the children; the open
// menu shows only those copies, filtered by what was typed. Without this module a query's answers
// would show only the next time the menu opens.
//
// What it does, and nothing more: find the tab's prompt input through mynah-ui's private fields
// (MynahUI.chatWrappers[tab].promptInput), find which view of the new menu the open one is (the top
// level, or the children of one entry: same group names), and if that view changed, hand it to the
// prompt input and let mynah-ui redraw it itself: a synthetic `Shift` keydown on the prompt input
// makes mynah-ui filter the groups again with the text typed so far (it does so for any key that
// is not a character, an arrow or one it handles). A synthetic event inserts nothing, so the typed
// text and the caret stay; the redrawn list is mynah-ui's own, so the keyboard works on it as on
// any filtered list. Every private field is checked before use: if mynah-ui changes shape this
// does nothing ('unsupported', logged once by the caller) and answers show when the menu reopens.
// Tested with the real mynah-ui in chatApp.dom.spec.ts and in the browser (scripts/webview-e2e.mjs).
import type { MynahUI, QuickActionCommand, QuickActionCommandGroup } from '@aws/mynah-ui';

export type MenuRefresh = 'refreshed' | 'unchanged' | 'closed' | 'other-view' | 'unsupported';

/** The parts of mynah-ui 4.39's ChatPromptInput this module uses (private there). */
interface PromptInputInternals {
  quickPickOpen: boolean;
  quickPickType: 'quick-action' | 'context';
  quickPickItemGroups: QuickActionCommandGroup[];
  render: HTMLElement;
}

function promptInputOf(mynah: MynahUI, mid: string): PromptInputInternals | undefined {
  const wrappers = (mynah as unknown as { chatWrappers?: Record<string, { promptInput?: unknown } | undefined> }).chatWrappers;
  const input = wrappers?.[mid]?.promptInput as Partial<PromptInputInternals> | undefined;
  if (!input || typeof input.quickPickOpen !== 'boolean' || !(input.render instanceof HTMLElement)) return undefined;
  if (input.quickPickOpen && !Array.isArray(input.quickPickItemGroups)) return undefined;
  return input as PromptInputInternals;
}

/** What a view shows, independent of how mynah-ui copied it (its copies add and reorder fields). */
const signature = (groups: QuickActionCommandGroup[]): string =>
  JSON.stringify(groups.map((g) => [g.groupName ?? '', (g.commands ?? []).map(commandSignature)]));
const commandSignature = (c: QuickActionCommand): unknown[] => [
  c.id ?? '',
  c.command,
  c.description ?? '',
  (c.children ?? []).map((g) => [g.groupName ?? '', (g.commands ?? []).map(commandSignature)]),
];
const names = (groups: QuickActionCommandGroup[]): string => JSON.stringify(groups.map((g) => g.groupName ?? ''));

/** The children, at any depth, of the entry whose children have the group names `wanted`. */
function childView(menu: QuickActionCommandGroup[], wanted: string): QuickActionCommandGroup[] | undefined {
  for (const g of menu)
    for (const c of g.commands ?? []) {
      if (!c.children?.length) continue;
      if (names(c.children) === wanted) return c.children;
      const deeper = childView(c.children, wanted);
      if (deeper) return deeper;
    }
  return undefined;
}

/**
 * The view of `menu` the open menu shows: an entry's children with the same group names, else the
 * top level (sharing a group with it; a provider's group may come and go). An entry that was in
 * `previous` and is gone now (its provider has nothing for the new query) leaves its groups empty.
 */
function matchingView(
  menu: QuickActionCommandGroup[],
  open: QuickActionCommandGroup[],
  previous: QuickActionCommandGroup[],
): QuickActionCommandGroup[] | undefined {
  const wanted = names(open);
  const child = childView(menu, wanted);
  if (child) return child;
  const top = new Set(menu.map((g) => g.groupName ?? ''));
  if (open.some((g) => top.has(g.groupName ?? ''))) return menu;
  return childView(previous, wanted) ? open.map((g) => ({ ...g, commands: [] })) : undefined;
}

/**
 * If the tab's `@` menu is open, shows `menu` (the tab's new context commands) in it, at the level
 * the user is at, filtered by what they typed. Call after `updateStore` changed `contextCommands`;
 * `previous` is what the tab had before.
 */
export function refreshOpenContextMenu(
  mynah: MynahUI,
  mid: string,
  menu: QuickActionCommandGroup[],
  previous: QuickActionCommandGroup[] = [],
): MenuRefresh {
  const input = promptInputOf(mynah, mid);
  if (!input) return 'unsupported';
  if (!input.quickPickOpen || input.quickPickType !== 'context') return 'closed';
  const view = matchingView(menu, input.quickPickItemGroups, previous);
  if (!view) return 'other-view';
  if (signature(view) === signature(input.quickPickItemGroups)) return 'unchanged';
  const target = input.render.querySelector('.mynah-chat-prompt-input');
  if (!target) return 'unsupported';
  input.quickPickItemGroups = structuredClone(view);
  target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift', code: 'ShiftLeft' }));
  return 'refreshed';
}

/** Per tab, the context commands last given to mynah-ui: refreshes the open menu when they change. */
export class OpenContextMenus {
  private readonly shown = new Map<string, { json: string; menu: QuickActionCommandGroup[] }>();
  private warned = false;

  constructor(private readonly warn: (message: string) => void) {}

  /** The tab's store now has `menu` as its context commands (call after `updateStore`). */
  updated(mynah: MynahUI, mid: string, menu: QuickActionCommandGroup[]): MenuRefresh {
    const json = JSON.stringify(menu);
    const before = this.shown.get(mid);
    if (before?.json === json) return 'unchanged';
    this.shown.set(mid, { json, menu });
    const result = refreshOpenContextMenu(mynah, mid, menu, before?.menu);
    if (result === 'unsupported' && !this.warned) {
      this.warned = true;
      this.warn('webview: this mynah-ui cannot refresh an open @ menu; new OpenCtx answers show when the menu opens again');
    }
    return result;
  }

  forget(mid: string): void {
    this.shown.delete(mid);
  }
}
