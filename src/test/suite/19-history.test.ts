// Conversations that last: every chat is recorded in the workspace's storage, survives a window
// reload (stood in for by symposium.test.simulateWindowReload: every tab closes, every agent
// process stops, symposium.restoreTabs applies; the real reload, a new extension host, is
// scripts/history-e2e.mjs's), is listed, searched and exported, and reopens by
// the agent's capabilities: ElizACP `--resume` continues the same session (its `session info`
// reply names it), `--load-session` replays it (shown once), neither gives the honest read-only
// notice and "Continue in a new session" (the transcript goes with the next prompt). ElizACP keeps
// its sessions in a `--state-dir`, so a new process finds them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RenderedItem } from '../../protocol/webview';
import {
  answerText,
  cmd,
  expectedReply,
  extension,
  newTab,
  openChat,
  rendered,
  renderedTabStore,
  screenshot,
  sleep,
  waitFor,
  waitForIdle,
} from '../helpers';

interface Meta {
  id: string;
  title: string;
  agentName: string;
  sessionId?: string;
  turns: number;
}
interface Listed {
  conversations: Meta[];
  agentOnly: { sessionId: string; title: string; agentName: string; canDelete: boolean }[];
}

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-eliza-state-'));
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('symposium');

/** Makes `name` the current agent: ElizACP with these flags. */
async function useAgent(name: string, flags: string[]): Promise<void> {
  const ext = extension();
  await config().update(
    'agents',
    {
      [name]: {
        command: process.execPath,
        args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic', ...flags],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
    },
    vscode.ConfigurationTarget.Global,
  );
  await config().update('currentAgent', name, vscode.ConfigurationTarget.Global);
}

async function ask(tabId: string, text: string): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  return answerText((await rendered(tabId)) ?? [], messageId);
}

const sessionInfo = /^Session ([0-9a-f-]{36}), prompt (\d+)\.$/;
const notices = (items: RenderedItem[]): RenderedItem[] =>
  items.filter((i) => i.messageId.startsWith('notice:')).map((i) => ({ ...i, body: i.body.replace(/\\/g, '') }));
const prompts = (items: RenderedItem[]): string[] => items.filter((i) => i.type === 'prompt').map((i) => i.body);

/** A conversation of `texts` in a new tab; returns the tab, its conversation id and the replies. */
async function converse(texts: string[]): Promise<{ tabId: string; id: string; replies: string[] }> {
  const tabId = await newTab();
  const replies: string[] = [];
  for (const t of texts) replies.push(await ask(tabId, t));
  const id = await cmd<string | undefined>('conversationOfTab', tabId);
  assert.ok(id, 'the tab has a conversation in the history');
  return { tabId, id, replies };
}

async function reopen(id: string): Promise<{ tabId: string; items: RenderedItem[] }> {
  const tabId = await cmd<string>('reopenConversation', id);
  await waitForIdle(tabId);
  await waitFor('the reopen notice', async () => notices((await rendered(tabId)) ?? []).length > 0);
  return { tabId, items: (await rendered(tabId)) ?? [] };
}

suite('conversation history', () => {
  suiteSetup(async () => {
    await openChat();
  });

  suiteTeardown(async () => {
    await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
    await config().update('restoreTabs', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('a conversation is recorded, listed after a window reload, searchable and exported to Markdown', async function () {
    this.timeout(90_000);
    await useAgent('Eliza resume', ['--resume', '--state-dir', stateDir]);
    const { id, replies } = await converse(['I feel tired today', 'My mother cooks']);
    await cmd('simulateWindowReload');
    const listed = await cmd<Listed>('listHistory');
    const meta = listed.conversations.find((c) => c.id === id);
    assert.ok(meta, `listed: ${JSON.stringify(listed.conversations.map((c) => c.title))}`);
    assert.equal(meta.title, 'I feel tired today');
    assert.equal(meta.turns, 2);
    assert.equal(meta.agentName, 'Eliza resume');
    assert.ok(meta.sessionId, 'the agent session is remembered');
    assert.ok((await cmd<string[]>('searchHistory', 'MOTHER COOKS')).includes(id), 'found by text of a later prompt');
    assert.ok(!(await cmd<string[]>('searchHistory', 'no such words anywhere')).includes(id));

    const md = await cmd<string>('exportConversation', id);
    assert.match(md, /^# I feel tired today\n/);
    // Each prompt, then the agent's reply (after Sparkle's embodiment section, collapsed, on the first).
    const turn = (prompt: string, reply: string): RegExp =>
      new RegExp(
        `## You\\n\\n${prompt}\\n\\n## Agent\\n\\n(<details><summary>Sparkle embodiment</summary>[\\s\\S]*?</details>\\n\\n)?${reply.replace(/[.?*+()[\]\\]/g, '\\$&')}\\n`,
      );
    assert.match(md, turn('I feel tired today', expectedReply('I feel tired today')));
    assert.match(md, turn('My mother cooks', replies[1] ?? ''));
    assert.equal(replies[1], expectedReply('My mother cooks'));
  });

  test('--resume: the reopened conversation shows its transcript, then continues the same agent session', async function () {
    this.timeout(90_000);
    await useAgent('Eliza resume', ['--resume', '--state-dir', stateDir]);
    const { replies, id } = await converse(['I feel tired today', 'session info']);
    const [, sessionId, count] = sessionInfo.exec(replies[1] ?? '') ?? [];
    assert.ok(sessionId, replies[1]);
    await cmd('simulateWindowReload');

    const { tabId, items } = await reopen(id);
    assert.deepEqual(prompts(items), ['I feel tired today', 'session info'], 'the transcript, once');
    assert.match(
      notices(items)
        .map((n) => n.body)
        .join('\n'),
      /resumed this session: it remembers the conversation/,
    );
    await screenshot('history-reopened');
    // The agent counts this session's prompts (Sparkle's embodiment prompt included): one more.
    const next = `Session ${sessionId}, prompt ${Number(count) + 1}.`;
    assert.equal(await ask(tabId, 'session info'), next);
    const md = await cmd<string>('exportConversation', tabId);
    assert.ok(md.includes(next), 'the continued turn is recorded in the same conversation');
  });

  test('--load-session: the replay replaces the stored transcript (shown once), then the session continues', async function () {
    this.timeout(90_000);
    await useAgent('Eliza load', ['--load-session', '--state-dir', stateDir]);
    const { replies, id } = await converse(['I feel tired today', 'session info']);
    const [, sessionId, count] = sessionInfo.exec(replies[1] ?? '') ?? [];
    await cmd('simulateWindowReload');

    const { tabId, items } = await reopen(id);
    assert.match(
      notices(items)
        .map((n) => n.body)
        .join('\n'),
      /loaded this session and replayed/,
    );
    assert.deepEqual(prompts(items), ['I feel tired today', 'session info'], `shown once: ${JSON.stringify(items.map((i) => i.body))}`);
    const answers = items.filter((i) => i.type.startsWith('answer') && i.body.includes(expectedReply('I feel tired today')));
    assert.equal(answers.length, 1, 'the first reply once');
    assert.equal(await ask(tabId, 'session info'), `Session ${sessionId}, prompt ${Number(count) + 1}.`);
  });

  test('an agent that cannot continue sessions: an honest read-only notice, and "continue in a new session" with the transcript', async function () {
    this.timeout(90_000);
    await useAgent('Eliza plain', []);
    const { replies, id } = await converse(['I feel tired today', 'session info']);
    const [, oldSession] = sessionInfo.exec(replies[1] ?? '') ?? [];
    await cmd('simulateWindowReload');

    const { tabId, items } = await reopen(id);
    const notice = notices(items).at(-1);
    assert.match(notice?.body ?? '', /cannot continue old sessions, so this conversation is read-only/);
    assert.deepEqual(notice?.buttons, ['Continue in a new session with the transcript as context']);
    assert.match((await renderedTabStore(tabId))?.info ?? '', /Read-only/, 'the prompt line says so');
    const refused = await cmd<string>('sendPrompt', tabId, 'Hello');
    await waitForIdle(tabId);
    const failed = ((await rendered(tabId)) ?? []).find((i) => i.messageId === `${refused}:end`);
    assert.match(failed?.body ?? '', /read-only/);

    await cmd('postFromWebview', { type: 'continue-in-new-session', tabId });
    await waitForIdle(tabId);
    assert.doesNotMatch((await renderedTabStore(tabId))?.info ?? '', /Read-only/);
    assert.match(await ask(tabId, 'what did i attach'), new RegExp(`resource symposium-history:/${id}\\.md`));
    const [, newSession] = sessionInfo.exec(await ask(tabId, 'session info')) ?? [];
    assert.ok(newSession && newSession !== oldSession, 'a new session, not passed off as the old one');
  });

  test('a resume that fails says so and leaves the conversation read-only', async function () {
    this.timeout(90_000);
    // No --state-dir: a new ElizACP process does not know the old session.
    await useAgent('Eliza forgetful', ['--resume']);
    const { id } = await converse(['I feel tired today']);
    await cmd('simulateWindowReload');
    const { tabId, items } = await reopen(id);
    assert.match(
      notices(items).at(-1)?.body ?? '',
      /could not continue this session \(session\/resume failed: .*\)\. The conversation above is read-only/s,
    );
    const refused = await cmd<string>('sendPrompt', tabId, 'Hello');
    await waitForIdle(tabId);
    assert.match(((await rendered(tabId)) ?? []).find((i) => i.messageId === `${refused}:end`)?.body ?? '', /read-only/);
  });

  test('session/list: an agent session without a transcript here is listed as such and can be continued', async function () {
    this.timeout(90_000);
    await useAgent('Eliza resume', ['--resume', '--state-dir', stateDir]);
    const { id, replies } = await converse(['session info']);
    const [, sessionId, count] = sessionInfo.exec(replies[0] ?? '') ?? [];
    await cmd('simulateWindowReload');
    assert.equal(await cmd('deleteConversation', id), true);
    const listed = await cmd<Listed>('listHistory');
    assert.ok(!listed.conversations.some((c) => c.id === id));
    const agentOnly = listed.agentOnly.find((s) => s.sessionId === sessionId);
    assert.ok(agentOnly, 'the agent still lists the session');
    assert.equal(agentOnly.title, 'session info');
    const tabId = await cmd<string>('openAgentSession', sessionId);
    await waitForIdle(tabId);
    assert.equal(await ask(tabId, 'session info'), `Session ${sessionId}, prompt ${Number(count) + 1}.`);
  });

  test('session/delete: the agent forgets one of its own sessions', async function () {
    this.timeout(90_000);
    await useAgent('Eliza resume', ['--resume', '--state-dir', stateDir]);
    const { id, replies } = await converse(['session info']);
    const [, sessionId] = sessionInfo.exec(replies[0] ?? '') ?? [];
    await cmd('simulateWindowReload');
    assert.equal(await cmd('deleteConversation', id), true);
    const before = (await cmd<Listed>('listHistory')).agentOnly.find((s) => s.sessionId === sessionId);
    assert.ok(before, 'the agent lists the session');
    assert.equal(before.canDelete, true, 'ElizACP offers session/delete: the item has a Delete button');
    assert.equal(await cmd('deleteAgentSession', sessionId), true);
    assert.ok(!(await cmd<Listed>('listHistory')).agentOnly.some((s) => s.sessionId === sessionId), 'the agent no longer lists it');
    assert.ok(!fs.existsSync(path.join(stateDir, `${sessionId}.json`)), 'ElizACP deleted its saved session');
  });

  test('session/delete is not asked of a session a chat tab shows; without the capability no button; a refusal shows the reason', async function () {
    this.timeout(120_000);
    type Event = { category: string; message: string; data?: Record<string, unknown> };
    const events = async (message: string): Promise<Event[]> =>
      (await cmd<Event[]>('getLogEvents')).filter((e) => e.category === 'history' && e.message === message);
    await useAgent('Eliza resume', ['--resume', '--state-dir', stateDir]);
    // A new tab's session is saved by ElizACP at once, but the history records a tab only after its first prompt.
    const tabId = await newTab();
    await waitForIdle(tabId);
    const sessionId = (await cmd<{ tabId: string; sessionId?: string }[]>('getTabs')).find((t) => t.tabId === tabId)?.sessionId;
    assert.ok(sessionId);
    const listed = (await cmd<Listed>('listHistory')).agentOnly.find((s) => s.sessionId === sessionId);
    assert.ok(listed, 'the agent lists the open tab’s session, which has no transcript yet');
    assert.equal(await cmd('deleteAgentSession', sessionId), false);
    assert.ok(fs.existsSync(path.join(stateDir, `${sessionId}.json`)), 'the agent was not asked');
    assert.ok((await cmd<Listed>('listHistory')).agentOnly.some((s) => s.sessionId === sessionId));
    await cmd('simulateWindowReload'); // the tab closes

    await useAgent('Eliza no delete', ['--resume', '--no-delete', '--state-dir', stateDir]);
    const withheld = (await cmd<Listed>('listHistory')).agentOnly.find((s) => s.sessionId === sessionId);
    assert.equal(withheld?.canDelete, false, 'no session/delete: no Delete button');
    assert.equal(await cmd('deleteAgentSession', sessionId), false);

    await useAgent('Eliza failing delete', ['--resume', '--fail-delete', '--state-dir', stateDir]);
    const refusedBefore = (await events('the agent did not delete its session')).length;
    assert.equal(await cmd('deleteAgentSession', sessionId), false);
    const refused = (await events('the agent did not delete its session')).slice(refusedBefore);
    assert.equal(refused.length, 1);
    assert.match(String(refused[0]!.data?.reason), /Internal error: ElizACP keeps its sessions as asked \(--fail-delete\)/);
    assert.ok(
      (await cmd<Listed>('listHistory')).agentOnly.some((s) => s.sessionId === sessionId),
      'still listed',
    );
  });

  test('an agent whose session/list never answers: the list comes without it, says why, and the agent process ends', async function () {
    this.timeout(120_000);
    type Proc = { agentName: string; pid?: number };
    type Event = { category: string; message: string; data?: { conversations?: number; problems?: string[] } };
    const name = 'Eliza hanging list';
    await useAgent(name, ['--resume', '--hang-list', '--state-dir', stateDir]);
    const { tabId, id } = await converse(['I like green tea']);
    await cmd('closeTab', tabId);

    const started = Date.now();
    const listed = await cmd<Listed & { problems: string[] }>('listHistory');
    const waited = Date.now() - started;
    assert.ok(waited < 20_000, `the list waited ${waited} ms`);
    assert.ok(
      listed.conversations.some((c) => c.id === id),
      'the stored conversations are listed',
    );
    assert.deepEqual(listed.agentOnly, []);
    assert.equal(listed.problems.length, 1, JSON.stringify(listed.problems));
    assert.match(listed.problems[0]!, /^Eliza hanging list \(.+\) did not list its own sessions: no answer within 10 s$/);

    // The quick pick says it too (its title, and the log line tests can read).
    const shownBefore = (await cmd<Event[]>('getLogEvents')).filter((e) => e.message === 'history shown').length;
    void vscode.commands.executeCommand('symposium.showHistory');
    let shown: Event | undefined;
    await waitFor(
      'the quick pick with the agent’s problem',
      async () => (shown = (await cmd<Event[]>('getLogEvents')).filter((e) => e.message === 'history shown')[shownBefore]) !== undefined,
      30_000,
    );
    assert.match(String(shown?.data?.problems), /no answer within 10 s/);
    await screenshot('history-agent-not-answering');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');

    // Released although its answer never came: the process ends after the pool's idle time.
    await waitFor(
      'the agent process to end',
      async () => !(await cmd<Proc[]>('getAgentProcesses')).some((p) => p.agentName === name),
      30_000,
    );
  });

  test('restoreTabs: always brings the two open tabs back after a reload, each continuing its session', async function () {
    this.timeout(120_000);
    await useAgent('Eliza resume', ['--resume', '--state-dir', stateDir]);
    await cmd('simulateWindowReload'); // restoreTabs is `never`: the earlier tests' tabs close for good
    await config().update('restoreTabs', 'always', vscode.ConfigurationTarget.Global);
    try {
      const a = await converse(['I feel tired today', 'session info']);
      const b = await converse(['My mother cooks', 'session info']);
      const restored = await cmd<string[]>('simulateWindowReload');
      assert.equal(restored.length, 2, JSON.stringify(restored));
      const byConversation = new Map<string, string>();
      for (const tabId of restored) {
        await waitForIdle(tabId);
        // The reopen's outcome, success or not (a failed resume leaves the tab read-only, and says why).
        let said = '';
        await waitFor('the resume', async () => {
          said = notices((await rendered(tabId)) ?? [])
            .map((n) => n.body)
            .join('\n');
          return /resumed this session|could not continue/.test(said);
        });
        assert.match(said, /resumed this session/);
        byConversation.set((await cmd<string>('conversationOfTab', tabId)) ?? '', tabId);
      }
      for (const c of [a, b]) {
        const tabId = byConversation.get(c.id);
        assert.ok(tabId, 'the conversation is open again');
        const [, sessionId, count] = sessionInfo.exec(c.replies[1] ?? '') ?? [];
        assert.equal(await ask(tabId, 'session info'), `Session ${sessionId}, prompt ${Number(count) + 1}.`);
      }
    } finally {
      await config().update('restoreTabs', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('restoreTabs: ask shows a notification; its Reopen button brings the tab back', async function () {
    this.timeout(90_000);
    await useAgent('Eliza resume', ['--resume', '--state-dir', stateDir]);
    await cmd('simulateWindowReload'); // restoreTabs is `never`: earlier tabs close for good
    await config().update('restoreTabs', 'ask', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('notifications.clearAll');
    try {
      const { id } = await converse(['I feel tired today']);
      type Event = { message: string; data?: { conversations?: number } };
      const before = (await cmd<Event[]>('getLogEvents')).filter((e) => e.message === 'asking to restore tabs').length;
      const reload = cmd<string[]>('simulateWindowReload');
      await waitFor(
        'the question',
        async () => (await cmd<Event[]>('getLogEvents')).filter((e) => e.message === 'asking to restore tabs').length > before,
      );
      await sleep(300);
      await vscode.commands.executeCommand('notifications.focusToasts');
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      const restored = await reload;
      assert.equal(restored.length, 1);
      assert.equal(await cmd<string>('conversationOfTab', restored[0]), id);
    } finally {
      await config().update('restoreTabs', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  test("the tab's menu: Export to Markdown opens the tab's conversation as a Markdown document", async function () {
    this.timeout(60_000);
    await useAgent('Eliza plain', []);
    const { tabId } = await converse(['I like green tea']);
    await cmd('postFromWebview', { type: 'export-conversation', tabId });
    type Editor = { kind: string; uri?: string };
    let text = '';
    await waitFor('the exported Markdown in an editor', async () => {
      for (const e of await cmd<Editor[]>('getOpenEditors')) {
        if (e.kind !== 'text' || !e.uri?.startsWith('untitled:')) continue;
        const t = await cmd<string>('getDocumentText', e.uri);
        if (t.includes('I like green tea')) text = t;
      }
      return text !== '';
    });
    assert.ok(text.includes(`## You\n\nI like green tea\n`), text);
    assert.ok(text.includes(expectedReply('I like green tea')), text);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('the history quick pick (command and title-bar button) lists the stored conversations', async function () {
    this.timeout(30_000);
    const stored = (await cmd<Listed>('listHistory')).conversations.length;
    void vscode.commands.executeCommand('symposium.showHistory');
    type Event = { message: string; data?: { conversations?: number } };
    await waitFor('the quick pick to be filled', async () =>
      (await cmd<Event[]>('getLogEvents')).some((e) => e.message === 'history shown' && e.data?.conversations === stored),
    );
    await screenshot('history-view');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
});
