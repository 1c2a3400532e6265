// The webview's mynah-ui wiring in a jsdom page: the real ChatApp and mynah-ui, a fake VS Code API
// for the host channel, host messages delivered as window messages. The real browser is covered by
// scripts/webview-e2e.mjs; this checks the wiring in plain Node.
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { withSparkleMark } from '../src/protocol/symposium-ext';
import type { ContextRef, HostToWebview, TabId } from '../src/protocol/webview';
import type { ChatApp as ChatAppClass } from './chatApp';
import type { Host as HostClass } from './host';
import { FakeVsCodeApi, JsdomPage } from './test/jsdomPage';
import { ManualTimers } from './test/manualTimers';
import type { PersistedState } from './state';

const SESSION = 'activation-1';
const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('chat webview in a DOM (jsdom + mynah-ui)', function () {
  this.timeout(20_000);
  const page = new JsdomPage();
  let ChatApp: typeof ChatAppClass;
  let Host: typeof HostClass;

  before(async () => {
    page.install();
    // mynah-ui touches the browser globals when it loads: import it only now.
    ({ ChatApp } = await import('./chatApp'));
    ({ Host } = await import('./host'));
  });
  let running: ChatAppClass | undefined;
  after(async () => {
    running?.dispose();
    await new Promise((r) => setTimeout(r, 800)); // mynah-ui's own short timers (focus, scroll) run out
    await page.uninstall();
  });

  /** A fresh page with a new app (the previous one taken down); its first tab is the one the page made. */
  function startApp(saved?: unknown): { api: FakeVsCodeApi; timers: ManualTimers; tabId: TabId; app: ChatAppClass } {
    running?.dispose();
    page.newRoot();
    const api = new FakeVsCodeApi(saved);
    const timers = new ManualTimers();
    const app = new ChatApp(SESSION, true, { host: new Host(api), timers });
    app.start();
    running = app;
    const ready = api.sent('webview-ready').at(-1);
    const tabId = ready?.openTabs[0];
    assert.ok(tabId, 'webview-ready names the open tab');
    return { api, timers, tabId, app };
  }

  const wrapper = (mid: string): Element => {
    const w = page.document.querySelector(`.mynah-chat-wrapper[mynah-tab-id="${mid}"]`);
    assert.ok(w, `no chat wrapper for tab ${mid}`);
    return w;
  };
  const prompts = (mid: string): string[] =>
    [...wrapper(mid).querySelectorAll('[data-testid="chat-item-prompt"]')].map((e) => page.text(e));
  const answers = (mid: string): string[] =>
    [...wrapper(mid).querySelectorAll('[data-testid="chat-item-answer"], [data-testid="chat-item-answer-stream"]')].map((e) =>
      page.text(e),
    );
  const input = (mid: string): HTMLElement => {
    const i = wrapper(mid).querySelector<HTMLElement>('[data-testid="prompt-input-textarea"]');
    assert.ok(i, 'no prompt input');
    return i;
  };

  it('shows a tab the host opens, its prompt and the streamed answer, each once even when replayed', async () => {
    const { api } = startApp();
    const tabId = '0b5e3c1a-6a0f-4c55-9d7e-3f1f1b2f8a10';
    const messages: HostToWebview[] = [
      { type: 'open-tab', tabId, index: 1, title: 'From the host' },
      { type: 'session-ready', tabId, index: 2, agentName: 'ElizACP', cwd: '/work' },
      { type: 'prompt-started', tabId, index: 3, messageId: 'm1', text: 'I feel happy today' },
      { type: 'agent-update', tabId, index: 4, messageId: 'm1', update: chunk('Why do you ') },
      { type: 'agent-update', tabId, index: 5, messageId: 'm1', update: chunk('feel happy today?') },
      { type: 'prompt-ended', tabId, index: 6, messageId: 'm1', stopReason: 'end_turn' },
    ];
    const labels = () => [...page.document.querySelectorAll('[data-testid="tab-bar-tabs-option-label"]')].map((l) => page.text(l));
    page.fromHost(messages[0]!);
    await settle();
    assert.ok(labels().includes('From the host'), "the host's title, until the conversation has one");
    for (const m of messages) page.fromHost(m);
    await settle();
    const mid = page.document.querySelector('[selected-tab]')?.getAttribute('selected-tab');
    assert.ok(mid, 'the host tab is selected');
    assert.ok(labels().includes('I feel happy today'), `the first prompt titles the tab: ${JSON.stringify(labels())}`);
    assert.deepEqual(prompts(mid), ['I feel happy today']);
    assert.deepEqual(answers(mid), ['Why do you feel happy today?']);
    // Message protocol: a replay (after hide/show) repeats indices already applied.
    for (const m of messages) page.fromHost(m);
    await settle();
    assert.deepEqual(prompts(mid), ['I feel happy today']);
    assert.deepEqual(answers(mid), ['Why do you feel happy today?']);
    assert.equal(api.sent('new-tab').length, 0, 'a host tab is not announced back');
  });

  it("a tab is titled by its first prompt, then by the agent's session title; HTML in either stays text", async () => {
    const { tabId } = startApp();
    const label = () => {
      const mid = page.document.querySelector('[selected-tab]')?.getAttribute('selected-tab');
      const el = page.document.querySelector(`[data-testid="tab-bar-tabs-option-label"][for$="${mid}"]`);
      return el ? page.text(el) : `(no label for ${mid})`;
    };
    assert.equal(label(), 'Chat');
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'Agent', cwd: '/work' });
    page.fromHost({
      type: 'prompt-started',
      tabId,
      index: 2,
      messageId: 'm1',
      text: '\n  Why does <b id="t-injected">Promise<void></b> & co fail?\nmore',
    });
    await settle();
    assert.equal(label(), 'Why does ‹b id="t-injected"›Promise‹void›‹/b› ＆ c…', 'the first line, cut, with look-alikes for < > &');
    assert.equal(page.document.getElementById('t-injected'), null, 'no element from the prompt');
    const title = (t: string | null, index: number) =>
      page.fromHost({ type: 'agent-update', tabId, index, messageId: 'm1', update: { sessionUpdate: 'session_info_update', title: t } });
    title('<style id="t-style">*{display:none}</style>Fixing the parser', 3);
    await settle();
    assert.equal(label(), '‹style id="t-style"›*{display:none}‹/style›Fixing…');
    assert.equal(page.document.getElementById('t-style'), null, "no element from the agent's title");
    title(null, 4);
    await settle();
    assert.match(label(), /^Why does/, 'a cleared title falls back to the first prompt');
  });

  it('a tool call left running when its turn is stopped stops shimmering and says Stopped (an endless animation otherwise)', async () => {
    const { tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'Agent', cwd: '/work' });
    page.fromHost({ type: 'prompt-started', tabId, index: 2, messageId: 'm1', text: 'run the tests' });
    page.fromHost({
      type: 'agent-update',
      tabId,
      index: 3,
      messageId: 'm1',
      update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'npm test', kind: 'execute', status: 'in_progress' },
    });
    await settle();
    const card = () => {
      const cards = [...wrapper(tabId).querySelectorAll('.mynah-chat-item-card')].filter(
        (c) => page.text(c).includes('npm test') && !c.parentElement?.closest('.mynah-chat-item-card'),
      );
      assert.equal(cards.length, 1, 'one card for the call');
      return cards[0]!;
    };
    assert.ok(card().classList.contains('text-shimmer'), 'shimmers while it runs');
    assert.match(page.text(card()), /Running/);
    page.fromHost({ type: 'prompt-ended', tabId, index: 4, messageId: 'm1', stopReason: 'cancelled' });
    await settle();
    assert.ok(!card().classList.contains('text-shimmer'), 'no shimmer once the turn is over');
    assert.match(page.text(card()), /Stopped/);
    assert.doesNotMatch(page.text(card()), /Running/);
  });

  it('an answer whose first chunk was empty text, followed by an approval, is shown once its text comes (Qwen Code after an approved write)', async () => {
    const { tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'Agent', cwd: '/work' });
    page.fromHost({ type: 'prompt-started', tabId, index: 2, messageId: 'm1', text: 'write the file' });
    const update = (index: number, u: SessionUpdate) => page.fromHost({ type: 'agent-update', tabId, index, messageId: 'm1', update: u });
    update(3, { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'WriteFile', kind: 'edit', status: 'pending' });
    update(4, chunk(''));
    await settle();
    page.fromHost({
      type: 'permission-requested',
      tabId,
      index: 5,
      messageId: 'm1',
      requestId: 'r1',
      toolCall: { toolCallId: 't1', title: 'Writing to a.txt' },
      options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once' }],
    });
    await settle();
    page.fromHost({
      type: 'permission-resolved',
      tabId,
      index: 6,
      messageId: 'm1',
      requestId: 'r1',
      decision: { outcome: 'selected', optionId: 'once', optionName: 'Allow', optionKind: 'allow_once', by: 'user' },
    });
    update(7, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    update(8, chunk('Wrote it. '));
    update(9, chunk('Successfully created a.txt.'));
    update(10, chunk(''));
    page.fromHost({ type: 'prompt-ended', tabId, index: 11, messageId: 'm1', stopReason: 'end_turn' });
    await settle();
    const shown = answers(tabId).filter((a) => a.includes('Wrote it.'));
    assert.equal(shown.length, 1, `the answer is shown once: ${JSON.stringify(answers(tabId))}`);
    assert.match(shown[0]!, /Wrote it\. Successfully created a\.txt\./);
  });

  it('a call the agent reports after ending its turn: "Turn ended", never Stopped, then its status', async () => {
    const { tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'Agent', cwd: '/work' });
    page.fromHost({ type: 'prompt-started', tabId, index: 2, messageId: 'm1', text: 'run ls' });
    const call = { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls -l', kind: 'execute', status: 'in_progress' } as const;
    page.fromHost({ type: 'agent-update', tabId, index: 3, messageId: 'm1', update: call });
    page.fromHost({ type: 'prompt-ended', tabId, index: 4, messageId: 'm1', stopReason: 'end_turn' });
    await settle();
    const card = () =>
      [...wrapper(tabId).querySelectorAll('.mynah-chat-item-card')].find(
        (c) => page.text(c).includes('ls -l') && !c.parentElement?.closest('.mynah-chat-item-card'),
      )!;
    assert.ok(!card().classList.contains('text-shimmer'), 'no shimmer once the turn is over');
    assert.match(page.text(card()), /Turn ended/);
    assert.doesNotMatch(page.text(card()), /Stopped|Running/);
    page.fromHost({
      type: 'agent-update',
      tabId,
      index: 5,
      messageId: 'm1',
      update: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
    });
    await settle();
    assert.match(page.text(card()), /Completed/);
    assert.doesNotMatch(page.text(card()), /Turn ended/);
  });

  it("an agent's raw HTML is shown as text, never added to the page (answers, tool output, names, buttons, menus)", async () => {
    const { api, tabId } = startApp();
    const evil = (id: string): string =>
      `<style>.mynah-chat-item-buttons{display:none}</style><img src="data:," id="${id}" style="position:fixed">`;
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: `Agent ${evil('name')}`, cwd: '/work' });
    const commands = {
      sessionUpdate: 'available_commands_update',
      availableCommands: [{ name: `x${evil('cmd')}`, description: evil('desc') }],
    };
    page.fromHost({ type: 'agent-update', tabId, index: 2, messageId: 'm0', update: commands as SessionUpdate });
    page.fromHost({ type: 'prompt-started', tabId, index: 3, messageId: 'm1', text: 'read evil.md' });
    page.fromHost({ type: 'agent-update', tabId, index: 4, messageId: 'm1', update: chunk(`Here: ${evil('answer')} and \`<kept>\``) });
    const content = [{ type: 'content', content: { type: 'text', text: evil('tool') } }];
    const locations = [{ path: `/work/${evil('path')}.md`, line: 2 }];
    const tool = { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'read', kind: 'edit', status: 'completed', content, locations };
    page.fromHost({ type: 'agent-update', tabId, index: 5, messageId: 'm1', update: tool as SessionUpdate });
    const toolCall = { toolCallId: 't2', title: evil('title') };
    const options = [{ optionId: 'o1', kind: 'allow_once' as const, name: `Allow ${evil('option')}` }];
    page.fromHost({ type: 'permission-requested', tabId, index: 6, messageId: 'm1', requestId: 'r1', toolCall, options });
    await settle();
    const injected = (): string[] =>
      [...page.document.querySelectorAll('.mynah-chat-wrapper img[id], .mynah-chat-item-card style, .mynah-detailed-list style')].map(
        (e) => e.id || 'style',
      );
    assert.deepEqual(injected(), [], 'no element or style from the agent');
    assert.ok(page.text(wrapper(tabId)).includes('id="path"'), 'a location path shows as text');
    assert.ok(
      answers(tabId).some((a) => a.includes('<style>.mynah-chat-item-buttons{display:none}</style>')),
      'the HTML shows as text',
    );
    assert.ok(
      answers(tabId).some((a) => a.includes('<kept>')),
      'code shows as written',
    );
    const allow = [...wrapper(tabId).querySelectorAll('button')].find((b) => page.text(b).startsWith('Allow <style>'));
    assert.ok(allow, "the agent's option name is the button's text");
    page.key(input(tabId), '/');
    await settle();
    const menu = [...page.document.querySelectorAll('.mynah-detailed-list-item')].filter((e) => page.text(e).includes('/x<style>'));
    assert.equal(menu.length, 1, 'the / menu lists the command under its name');
    assert.ok(page.text(menu[0]!).includes('id="desc"'), 'its description shows as text');
    assert.deepEqual(injected(), [], 'and the menu adds nothing to the page');
    (menu[0] as HTMLElement).click();
    await settle();
    page.pressEnter(input(tabId));
    await settle();
    assert.equal(api.sent('prompt').at(-1)?.text, `/x${evil('cmd')}`, "a picked command goes to the agent under the agent's name");
  });

  it('a file link in an answer opens through the host (with its line); a vscode: link is not followed; web links are left to VS Code', async () => {
    const { api, tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'Agent', cwd: '/work' });
    page.fromHost({ type: 'prompt-started', tabId, index: 2, messageId: 'm1', text: 'where' });
    const text = 'See [the parser](src/parser.ts#L4), [a handler](vscode://file/etc/passwd) and [docs](https://example.com/docs).';
    page.fromHost({ type: 'agent-update', tabId, index: 3, messageId: 'm1', update: chunk(text) });
    page.fromHost({ type: 'prompt-ended', tabId, index: 4, messageId: 'm1', stopReason: 'end_turn' });
    await settle();
    const link = (label: string): HTMLElement => {
      const a = [...wrapper(tabId).querySelectorAll<HTMLElement>('a')].find((e) => page.text(e) === label);
      assert.ok(a, `no link "${label}"`);
      return a;
    };
    const click = (label: string): MouseEvent => {
      const e = new page.dom.window.MouseEvent('click', { bubbles: true, cancelable: true });
      link(label).dispatchEvent(e);
      return e;
    };
    let reachedWindow = 0;
    page.dom.window.addEventListener('click', () => reachedWindow++);
    assert.ok(click('the parser').defaultPrevented);
    assert.deepEqual(api.sent('open-location').at(-1), { type: 'open-location', tabId, path: 'src/parser.ts', line: 4 });
    assert.ok(click('a handler').defaultPrevented);
    assert.equal(api.sent('open-location').length, 1, 'the vscode: link opens nothing');
    assert.match(api.sent('log').at(-1)?.message ?? '', /not followed \(vscode\)/);
    assert.equal(reachedWindow, 0, "neither reached VS Code's listener on the window");
    assert.ok(!click('docs').defaultPrevented, 'a web link is left to VS Code');
    assert.equal(reachedWindow, 1);
  });

  it('a typed prompt goes to the host and shows once, when the host echoes it', async () => {
    const { api, tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'ElizACP', cwd: '/work' });
    page.type(input(tabId), 'Hello there');
    page.pressEnter(input(tabId));
    const [sent] = api.sent('prompt');
    assert.ok(sent, 'a prompt message was posted');
    assert.equal(sent.tabId, tabId);
    assert.equal(sent.text, 'Hello there');
    assert.deepEqual(prompts(tabId), [], 'not drawn by the webview itself');
    page.fromHost({ type: 'prompt-started', tabId, index: 2, messageId: sent.messageId, text: sent.text });
    page.fromHost({ type: 'agent-update', tabId, index: 3, messageId: sent.messageId, update: chunk('How do you do.') });
    await settle();
    assert.deepEqual(prompts(tabId), ['Hello there']);
    assert.deepEqual(answers(tabId), ['How do you do.']);
  });

  it("keeps Sparkle's embodiment section on screen when the user's first prompt comes after it ended", async () => {
    // The embodiment runs right after session/new, before the user types: its updates carry no
    // prompt's messageId and become a block of their own. The user's first prompt comes later.
    const { api, tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'ElizACP', cwd: '/work' });
    page.fromHost({ type: 'agent-update', tabId, index: 2, update: withSparkleMark(chunk('Embodiment received.'), 'embodiment') });
    await settle();
    const sections = (): string[] =>
      [...wrapper(tabId).querySelectorAll('[data-testid="chat-item-answer"], [data-testid="chat-item-answer-stream"]')]
        .filter((e) => !e.parentElement?.closest('[data-testid^="chat-item-answer"]')) // a summary nests cards
        .map((e) => page.text(e))
        .filter((t) => t.includes('Sparkle embodiment'));
    assert.equal(sections().length, 1, 'the section shows before any prompt');
    page.type(input(tabId), 'Hello there');
    page.pressEnter(input(tabId));
    const [sent] = api.sent('prompt');
    assert.ok(sent, 'a prompt message was posted');
    page.fromHost({ type: 'prompt-started', tabId, index: 3, messageId: sent.messageId, text: sent.text });
    page.fromHost({ type: 'agent-update', tabId, index: 4, messageId: sent.messageId, update: chunk('How do you do.') });
    page.fromHost({ type: 'prompt-ended', tabId, index: 5, messageId: sent.messageId, stopReason: 'end_turn' });
    await settle();
    assert.deepEqual(prompts(tabId), ['Hello there']);
    assert.equal(sections().length, 1, 'the section is still on screen after the first prompt');
  });

  it('saves a draft once typing pauses, not per keystroke', async () => {
    const { api, timers, tabId } = startApp();
    const before = api.saves;
    page.type(input(tabId), 'an unsent draft');
    assert.equal(api.saves, before, 'no save while typing');
    timers.runAll();
    assert.equal(api.saves, before + 1, 'one save for the whole burst');
    assert.equal((api.state as PersistedState).drafts[tabId], 'an unsent draft');
  });

  it('saves a pending draft at once when the pointer leaves the page or a shortcut key is pressed (the view may be destroyed next)', async () => {
    const { api, tabId } = startApp();
    const before = api.saves;
    page.type(input(tabId), 'typed just now');
    page.document.documentElement.dispatchEvent(new page.dom.window.MouseEvent('mouseleave'));
    assert.equal(api.saves, before + 1, 'saved when the pointer left');
    assert.equal((api.state as PersistedState).drafts[tabId], 'typed just now');
    page.type(input(tabId), ' and more');
    page.document.dispatchEvent(new page.dom.window.KeyboardEvent('keydown', { key: 'b', ctrlKey: true }));
    assert.equal(api.saves, before + 2, 'saved on Ctrl+B');
    page.document.dispatchEvent(new page.dom.window.KeyboardEvent('keydown', { key: 'x', ctrlKey: true }));
    assert.equal(api.saves, before + 2, 'nothing pending: no save');
  });

  it('saves the transcript once, and a page re-created from the saved state shows it again with the draft', async () => {
    const first = startApp();
    const { tabId } = first;
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'ElizACP', cwd: '/work' });
    page.fromHost({ type: 'prompt-started', tabId, index: 2, messageId: 'm1', text: 'tell me a story' });
    page.fromHost({ type: 'agent-update', tabId, index: 3, messageId: 'm1', update: chunk('Once upon a time') });
    page.type(input(tabId), 'next question');
    first.timers.runAll();
    const saved = first.api.state as PersistedState;
    const json = JSON.stringify(saved);
    assert.equal(json.split('Once upon a time').length - 1, 1, 'the answer is saved once');
    assert.ok(
      Object.values(saved.tabs).every((t) => t.store?.chatItems === undefined),
      'mynah tabs are saved without chat items',
    );
    const tabs = Object.values(saved.tabs);
    assert.deepEqual(
      tabs.map((t) => [t.isSelected, typeof t.store?.tabTitle]),
      [[true, 'string']],
      "the tab as mynah-ui lists it (selected, with its title), read from mynah-ui's own store",
    );
    assert.deepEqual(saved.lastSeenIndex, { [tabId]: 3 });

    const second = startApp(saved);
    assert.equal(second.tabId, tabId);
    assert.deepEqual(second.api.sent('webview-ready')[0]?.lastSeenIndex, { [tabId]: 3 });
    assert.deepEqual(prompts(tabId), ['tell me a story']);
    assert.deepEqual(answers(tabId), ['Once upon a time']);
    assert.equal(page.text(input(tabId)), 'next question');
  });

  it('starts clean, without failing, from state saved in the previous shape', async () => {
    const v1 = {
      v: 1,
      sessionId: SESSION,
      tabs: { old: { isSelected: true, store: { chatItems: [{ type: 'prompt', body: 'old' }] } } },
      tabIds: { old: 'old-tab' },
      lastSeenIndex: { 'old-tab': 9 },
      drafts: {},
      conversations: {},
    };
    const { api, tabId } = startApp(v1);
    assert.notEqual(tabId, 'old-tab');
    assert.deepEqual(api.sent('webview-ready')[0]?.lastSeenIndex, {});
    assert.deepEqual(prompts(tabId), []);
    assert.equal((api.state as PersistedState).v, 2);
  });

  it('a tab the host opens is saved at once: a page re-created right after comes back with it', () => {
    const { api } = startApp();
    const hostTab = '2c9d7e1f-5b3a-4e8c-9f1d-6a7b8c9d0e1f';
    page.fromHost({ type: 'open-tab', tabId: hostTab, index: 1, title: 'From the host' });
    // No timer has run (ManualTimers): only an immediate save has it.
    assert.ok(Object.values((api.state as PersistedState).tabIds).includes(hostTab));
  });

  it('closing a tab tells the host and forgets its seen index', async () => {
    const { api, tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'ElizACP', cwd: '/work' });
    page.document.querySelector<HTMLElement>('[data-testid="tab-bar-tab-add-button"]')?.click();
    const [added] = api.sent('new-tab');
    assert.ok(added, 'the + button opened a tab');
    // Saved at once (no timer has run): a page re-created right now comes back with it.
    assert.ok(Object.values((api.state as PersistedState).tabIds).includes(added.tabId), 'the new tab is saved at once');
    const titles = [...page.document.querySelectorAll('[data-testid="tab-bar-tabs-option-label"]')].map((e) => e.textContent?.trim());
    assert.ok(titles.includes('Chat 2'), `the new tab is numbered after the open ones: ${JSON.stringify(titles)}`);
    const closeButton = page.document.querySelector<HTMLElement>(
      `[data-testid="tab-bar-tabs-option-wrapper"] [data-testid="tab-bar-tabs-option-close-button"]`,
    );
    assert.ok(closeButton);
    closeButton.click();
    assert.deepEqual(
      api.sent('close-tab').map((m) => m.tabId),
      [tabId],
    );
    assert.deepEqual((api.state as PersistedState).lastSeenIndex, {});
    assert.deepEqual(api.sent('ack').at(-1)?.lastSeenIndex, {});
    // With every tab closed, the empty screen speaks of the agent (mynah-ui's own text names Amazon Q).
    for (const button of page.document.querySelectorAll<HTMLElement>('[data-testid="tab-bar-tabs-option-close-button"]')) button.click();
    const empty = page.text(page.document.body);
    assert.match(empty, /Open a tab to chat with your agent/);
    assert.doesNotMatch(empty, /\bQ\b|Amazon/);
    // A message still on its way for the closed tab leaves nothing behind.
    page.fromHost({ type: 'agent-update', tabId, index: 2, update: chunk('late') });
    page.dom.window.dispatchEvent(new page.dom.window.Event('pagehide'));
    assert.deepEqual((api.state as PersistedState).lastSeenIndex, {});
  });
  it("a sign-in card's buttons send the chosen method; they go once the host says signed in", async () => {
    const { api, tabId } = startApp();
    const requestId = '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    page.fromHost({
      type: 'sign-in-required',
      tabId,
      index: 1,
      requestId,
      agentName: 'Eliza Auth',
      message: 'Sign in first',
      methods: [
        { id: 'eliza-login', name: 'Sign in to ElizACP', kind: 'agent' },
        { id: 'eliza-terminal', name: 'Sign in from a terminal', kind: 'terminal' },
        { id: 'eliza-api-key', name: 'Use an API key', kind: 'env_var', hint: 'Set ELIZACP_API_KEY in symposium.agents.Eliza Auth.env' },
      ],
    });
    await settle();
    const buttons = (): HTMLElement[] =>
      [...wrapper(tabId).querySelectorAll<HTMLElement>('button')].filter((b) => page.text(b).startsWith('Sign in'));
    // (DOM order is the reverse of the shown order: mynah lays its buttons out reversed.)
    assert.deepEqual(
      buttons()
        .map((b) => page.text(b))
        .sort(),
      ['Sign in from a terminal', 'Sign in to ElizACP'],
      'agent and terminal methods are buttons, the env-var one is not',
    );
    buttons()
      .find((b) => page.text(b) === 'Sign in from a terminal')!
      .click();
    assert.deepEqual(api.sent('sign-in'), [{ type: 'sign-in', tabId, requestId, methodId: 'eliza-terminal' }]);
    page.fromHost({ type: 'sign-in-update', tabId, index: 2, requestId, state: 'signed-in', text: 'Signed in to Eliza Auth.' });
    await settle();
    assert.deepEqual(buttons(), []);
    assert.ok(answers(tabId).some((t) => t.includes('Signed in to Eliza Auth.')));
  });

  it('the text typed after @ goes to the host as an OpenCtx mentions query, once per change', async () => {
    const { api, tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'ElizACP', cwd: '/work' });
    page.type(input(tabId), 'see @rel');
    await settle();
    assert.deepEqual(
      api.sent('context-query').map((m) => m.query),
      ['r', 're', 'rel'], // '@' alone is the empty query the host already has
    );
    page.type(input(tabId), ' now');
    await settle();
    assert.deepEqual(api.sent('context-query').at(-1), { type: 'context-query', query: '' }, 'the @ word ended');
  });

  it("an open @ menu shows the providers' answers to the typed query, and the picked one is sent", async () => {
    const { api, tabId } = startApp();
    page.fromHost({ type: 'session-ready', tabId, index: 1, agentName: 'ElizACP', cwd: '/work' });
    const provider = 'file:///ws/openctx/sample-provider.mjs';
    const mention = (name: string, slug: string): ContextRef => ({
      kind: 'openctx',
      uri: `https://docs.example/${slug}`,
      name,
      provider,
      providerName: 'Sample docs',
    });
    const file: ContextRef = { kind: 'file', uri: 'file:///ws/a.ts', name: 'a.ts' };
    const listed = [file, mention('Greeting guide', 'greeting-guide'), mention('Release checklist', 'release-checklist')];
    page.fromHost({ type: 'context-items', items: listed });
    await settle();
    const el = input(tabId);
    const items = (): string[] =>
      [...page.document.querySelectorAll('[data-testid="prompt-input-quick-pick-item"]')].map((e) => page.text(e));
    page.key(el, '@');
    await settle();
    assert.ok(
      items().some((t) => t.startsWith('Sample docs')),
      `the provider's entry: ${items().join(' | ')}`,
    );
    [...page.document.querySelectorAll<HTMLElement>('[data-testid="prompt-input-quick-pick-item"]')]
      .find((e) => page.text(e).startsWith('Sample docs'))!
      .click();
    await settle();
    assert.deepEqual(
      items().map((t) => t.split(' ')[0]),
      ['Greeting', 'Release'],
    );
    for (const ch of 'inc') page.key(el, ch);
    await settle();
    assert.deepEqual(api.sent('context-query').at(-1), { type: 'context-query', query: 'inc' });
    assert.deepEqual(items(), [], 'nothing listed matches yet');
    // An older query's answer, then the newest: the menu shows what the host lists now.
    page.fromHost({ type: 'context-items', items: [...listed, mention('Includes guide', 'includes')] });
    page.fromHost({ type: 'context-items', items: [...listed, mention('Incident review: search outage', 'incident-review')] });
    await settle();
    assert.deepEqual(
      items().map((t) => t.replace(/https:.*/, '')),
      ['Incident review: search outage'],
    );
    assert.equal(page.text(el), '@inc', 'the typed text stays');
    // The keyboard picks it from the refreshed list (as from any list mynah-ui filtered: down to the
    // first entry, Enter); typing on ends the query and the menu stops listing it: it is still sent.
    page.key(el, 'ArrowDown');
    page.key(el, 'Enter');
    await settle();
    assert.match(page.text(el), /^@Incident review: search outage/, 'the mention is in the prompt');
    for (const ch of ' ok') page.key(el, ch);
    await settle();
    page.fromHost({ type: 'context-items', items: listed });
    page.pressEnter(el);
    await settle();
    const sent = api.sent('prompt').at(-1);
    assert.deepEqual(
      sent?.context?.map((r) => r.uri),
      ['https://docs.example/incident-review'],
      JSON.stringify(sent),
    );
  });
});
