// Shared helpers for the extension-host suites: they drive the extension only through its
// commands (symposium.test.* and the contributed ones) and its exported API.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { respond } from '../../conductor/eliza/engine';
import type { SymposiumApi } from '../extension';
import type { TabInfo } from '../testing/chatInspector';
import type { LogEvent } from '../log/logEvent';
import type { RenderedItem } from '../protocol/webview';
import { writeFileAtomicSync } from '../node/atomicWrite';

export const EXTENSION_ID = 'symposium-dev.symposium';

export function extension(): vscode.Extension<SymposiumApi> {
  const ext = vscode.extensions.getExtension<SymposiumApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed`);
  return ext;
}

export function cmd<T = unknown>(name: string, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(`symposium.test.${name}`, ...args);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await pred()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** The exact reply ElizACP (deterministic) streams for `prompt`. */
export const expectedReply = (prompt: string): string => respond(prompt, { deterministic: true });

export const viewState = (): Thenable<{ resolved: boolean; visible: boolean; live: boolean; generation: number; title?: string }> =>
  cmd('getViewState');
export const tabs = (): Thenable<TabInfo[]> => cmd<TabInfo[]>('getTabs');
/** The cards the webview shows for the tab (without the tab-store pseudo-item). */
export async function rendered(tabId: string): Promise<RenderedItem[] | undefined> {
  return (await cmd<RenderedItem[] | undefined>('getRendered', tabId))?.filter((i) => i.type !== 'tab-store');
}

export interface RenderedTabStore {
  commands: string[];
  pickers: { id: string; type: string; value?: string; options: string[] }[];
  info: string;
  /** The context meter by the prompt (mynah's prompt progress), once the agent reported usage. */
  meter?: { text?: string; valueText?: string; value?: number; status?: string };
  attached: string[];
  contextGroups: string[];
  queuedButtons: string[];
}
/** The tab's UI state in the webview: slash commands in the `/` menu, pickers, info line. */
export async function renderedTabStore(tabId: string): Promise<RenderedTabStore | undefined> {
  const item = (await cmd<RenderedItem[] | undefined>('getRendered', tabId))?.find((i) => i.type === 'tab-store');
  return item ? (JSON.parse(item.body) as RenderedTabStore) : undefined;
}

/** The card of one tool call in a turn (`<messageId>:tool:<toolCallId>`). */
export const toolCards = (items: RenderedItem[], messageId: string): RenderedItem[] =>
  items.filter((i) => i.messageId.startsWith(`${messageId}:tool:`));
export const permissionCards = (items: RenderedItem[], messageId: string): RenderedItem[] =>
  items.filter((i) => i.messageId.startsWith(`${messageId}:perm:`));

/** Opens the chat view and waits until the webview has said `webview-ready`. */
export async function openChat(): Promise<SymposiumApi> {
  await vscode.commands.executeCommand('symposium.openChat');
  const api = await extension().activate();
  await waitFor('the chat webview to be ready', async () => (await viewState()).live);
  return api;
}

/** A new tab (through the same path as the webview) whose session is ready. */
export async function newTab(): Promise<string> {
  const tabId = await cmd<string>('simulateNewTab');
  await waitForIdle(tabId);
  return tabId;
}

export async function waitForIdle(tabId: string, timeoutMs = 20_000): Promise<void> {
  if (!(await cmd<boolean>('waitForIdle', tabId, timeoutMs))) throw new Error(`tab ${tabId} did not become idle`);
}

/** Subscribes to the structured log stream; returns the collected events and an unsubscribe. */
export function captureLog(api: SymposiumApi): { events: LogEvent[]; dispose(): void } {
  const events: LogEvent[] = [];
  const sub = api.onLog((e) => events.push(e));
  return { events, dispose: () => sub.dispose() };
}

/** The answer text the webview shows for one prompt turn (its text items, in order). */
export function answerText(items: RenderedItem[], messageId: string): string {
  return items
    .filter(
      (i) =>
        i.messageId.startsWith(`${messageId}:`) && /^\d+$/.test(i.messageId.slice(messageId.length + 1)) && i.type.startsWith('answer'),
    )
    .map((i) => i.body)
    .join('');
}

/**
 * A screenshot of the workbench now, as test-results/host-<name>.png: asks the driver
 * (scripts/run-ext-tests.mjs) through a file in the run folder and waits until it is taken.
 */
export async function screenshot(name: string): Promise<void> {
  const run = process.env.SYMPOSIUM_HOST_RUN;
  if (!run) return;
  const dir = path.join(run, 'screenshot-requests');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.req`), '');
  await waitFor(`the screenshot ${name}`, () => fs.existsSync(path.join(dir, `${name}.done`)), 10_000);
}

let shownRequests = 0;
/**
 * Resolves once the workbench shows `selector` (the extension host cannot see the page), and with
 * `click` once the driver clicked it as a user would: asks the driver (scripts/run-ext-tests.mjs)
 * through a file in the run folder. Outside that driver (the VS Code test CLI) there is no page to
 * look at, and a pause stands in for it.
 */
export async function untilShown(what: string, selector: string, then: 'shown' | 'click' = 'shown'): Promise<void> {
  const run = process.env.SYMPOSIUM_HOST_RUN;
  if (!run) return sleep(500);
  const dir = path.join(run, 'screenshot-requests');
  const name = `shown-${process.pid}-${++shownRequests}`;
  fs.mkdirSync(dir, { recursive: true });
  // Whole or not at all: the driver polls the folder and would read a file still being written as an empty selector.
  writeFileAtomicSync(path.join(dir, `${name}.${then}`), selector);
  const done = path.join(dir, `${name}.done`);
  const failed = path.join(dir, `${name}.failed`);
  await waitFor(what, () => fs.existsSync(done) || fs.existsSync(failed), 20_000);
  if (fs.existsSync(failed)) throw new Error(`the workbench never showed ${what}: ${fs.readFileSync(failed, 'utf8')}`);
}

/** A quick pick of the workbench, drawn with its rows (`:has-text("…")` narrows it to one row); an input box. */
export const QUICK_PICK_SHOWN = '.quick-input-widget .quick-input-list .monaco-list-row';
export const QUICK_INPUT_SHOWN = '.quick-input-widget .quick-input-box input';

/**
 * Answers the quick input the workbench is (about to be) showing, once drawn: focuses item `index`
 * of a quick pick and accepts it, or (no index) accepts an input box's value.
 */
export async function answerQuickInput(index?: number): Promise<void> {
  await untilShown('the quick input', index === undefined ? QUICK_INPUT_SHOWN : QUICK_PICK_SHOWN);
  if (index !== undefined) {
    await vscode.commands.executeCommand('quickInput.first');
    for (let i = 0; i < index; i++) await vscode.commands.executeCommand('quickInput.next');
  }
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

export { groupMembers, groupsUnder } from './processGroup';
