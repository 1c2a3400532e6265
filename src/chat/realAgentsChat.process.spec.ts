// The chat with the agents people run: the host's controller, pool, broker and outbox with the
// webview's model (src/test/chatHarness.ts), each real agent behind the real conductor, against
// the scripted model server (conductor/test/realAgents/), offline. What each agent does its own
// way must reach the user as it does for every other agent: one card per tool call, the pickers it
// offers, approvals once a mode that asks is chosen, its usage and title, what it read, wrote and
// ran, and no process left once the chat is done with it. A fixture agent does on demand what
// the pinned agents do only sometimes. Needs `node esbuild.mjs` and scripts/test-tools-install.sh.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { AGENT_IDS, agentLaunch, agentsInstalled, type AgentId } from '../../conductor/test/realAgents/agents';
import { writeCompat } from '../../conductor/test/realAgents/compat';
import { startScriptedModelServer, type ScriptedModelServer } from '../../conductor/test/realAgents/server';
import { readStep, shellStep, writeStep } from '../../conductor/test/realAgents/steps';
import { tempDir } from '../../conductor/test/harness';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { TabId } from '../protocol/webview';
import { processTree, stillRunning, type ProcessId } from '../test/processGroup';
import { setupChat, until } from '../test/chatHarness';
import { turnToChatItems } from '../../webview/mappers/chatItems';
import { pickersFor, tabStoreFor } from '../../webview/mappers/tabStore';
import type { Turn } from '../protocol/conversation';
import '../../conductor/test/testEnv.setup.cjs';

const ROOT = path.resolve(__dirname, '../..');
const runtime = { execPath: process.execPath, extensionPath: ROOT };
type ToolState = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

interface Chat {
  ctx: ReturnType<typeof setupChat>;
  tabId: TabId;
  ws: string;
  model: ScriptedModelServer;
  /** Answers each approval card with its first "allow" option, as a user would click it. */
  approving: boolean;
}

async function openChat(id: AgentId, opts: { idleStopMs?: number; signedOut?: boolean } = {}): Promise<Chat> {
  const ws = tempDir(`symposium-chat-${id}-`);
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'the secret word is pelican\n');
  const model = await startScriptedModelServer([
    { when: 'say hello', text: 'Hello from the scripted model, in a few chunks.' },
    readStep('read the notes', path.join(ws, 'notes.txt')),
    writeStep('write a greeting file', path.join(ws, 'greeting.txt'), 'hello-from-the-agent'),
    writeStep('write a second file', path.join(ws, 'second.txt'), 'second-from-the-agent'),
    shellStep('run the echo command', 'echo hi-from-shell'),
  ]);
  const launch = agentLaunch(id, model.url, { asks: true });
  // A user who has not signed in yet: no key in the agent's environment.
  if (opts.signedOut) for (const key of ['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'OPENAI_API_KEY']) delete launch.env[key];
  const config: AgentConfiguration = {
    agent: { name: id, command: launch.command[0]!, args: launch.command.slice(1), env: launch.env },
    components: null,
    workspaceFolder: ws,
  };
  const ctx = setupChat({ runtime, editor: true, configure: async () => config, idleStopMs: opts.idleStopMs });
  const tabId = ctx.webview.newTab();
  ctx.handle(ctx.webview.ready());
  await until(
    () =>
      ctx.webview.conversation(tabId).agentName !== undefined ||
      (!!opts.signedOut && ctx.webview.received.some((m) => m.type === 'sign-in-required')),
    60_000,
    `${id}'s session`,
  );
  const chat: Chat = { ctx, tabId, ws, model, approving: true };
  const answered = new Set<string>();
  const timer = setInterval(() => {
    if (!chat.approving) return;
    for (const t of ctx.webview.turns(tabId))
      for (const p of t.permissions)
        if (!p.decision && !answered.has(p.requestId)) {
          answered.add(p.requestId);
          const allow = p.options.find((o) => o.kind === 'allow_once') ?? p.options.find((o) => o.kind.startsWith('allow'))!;
          ctx.handle({ type: 'permission-answer', tabId, requestId: p.requestId, optionId: allow.optionId });
        }
  }, 25);
  timer.unref();
  return chat;
}

async function ask(chat: Chat, text: string): Promise<Turn> {
  const messageId = randomUUID();
  chat.ctx.handle({ type: 'prompt', tabId: chat.tabId, messageId, text });
  await until(
    () => chat.ctx.webview.received.some((m) => (m.type === 'prompt-ended' || m.type === 'prompt-failed') && m.messageId === messageId),
    90_000,
    `the answer to "${text}"`,
  );
  const turn = chat.ctx.webview.turns(chat.tabId).find((t) => t.messageId === messageId)!;
  assert.equal(turn.status, 'done', turn.error);
  return turn;
}

const toolsOf = (t: Turn): ToolState[] =>
  t.updates.filter((u): u is ToolState => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update');

/** The turn's cards as mynah-ui gets them: ids and header lines. */
const cardsOf = (t: Turn): string[] =>
  turnToChatItems(t).map((i) => `${(i.messageId ?? '').slice(t.messageId.length + 1)} ${i.header?.body ?? ''}`);

/** Each tool call of the turn is one card: no two cards for one id, in the model or in what is drawn. */
function assertOneCardPerCall(t: Turn): void {
  const ids = toolsOf(t).map((u) => u.toolCallId);
  assert.deepEqual(ids, [...new Set(ids)], 'one entry per tool call id in the model');
  const drawn = turnToChatItems(t)
    .map((i) => i.messageId)
    .filter((id) => id?.includes(':tool:'));
  assert.deepEqual(drawn, [...new Set(drawn)], `one card per tool call id: ${cardsOf(t).join(' | ')}`);
}

/** What the tool card of a call shows besides its title: its content and the files it names. */
function shownDetails(t: Turn, call: ToolState): string {
  const card = turnToChatItems(t).find((i) => i.messageId === `${t.messageId}:tool:${call.toolCallId}`)!;
  return JSON.stringify([card.body, card.summary?.collapsedContent ?? [], card.fileList?.filePaths ?? []]);
}

async function closeChat(chat: Chat | undefined): Promise<void> {
  await chat?.ctx.controller.dispose();
  await chat?.model.close();
}

/** Every process behind the tab: its conductor, the agent, and what they started, wherever it went. */
function processesOf(chat: Chat): ProcessId[] {
  const pid = chat.ctx.inspector.agentProcesses()[0]?.pid;
  assert.ok(pid, 'the agent runs');
  const tree = processTree(pid);
  assert.ok(tree.length >= 2, `the conductor and its agent: ${JSON.stringify(tree)}`);
  return tree;
}

async function assertAllEnd(processes: ProcessId[], what: string): Promise<void> {
  await until(() => stillRunning(processes).length === 0, 10_000).catch(() => assert.deepEqual(stillRunning(processes), [], what));
}

/** claude-agent-acp in Manual (it asks), with the model's answers to the steering tests' words. */
async function openSteeringChat(): Promise<Chat> {
  const chat = await openChat('claude-agent-acp');
  chat.approving = false;
  chat.model.script.rules.push(
    { when: 'write it in French instead', text: 'Bonjour, as you asked.' },
    { when: 'tell a slow story', text: 'Once upon a time '.repeat(60), chunkDelayMs: 100 },
    { when: 'make it shorter', text: 'The short version: the end.' },
  );
  chat.ctx.handle({ type: 'set-config-option', tabId: chat.tabId, configId: 'mode', value: 'default' });
  await until(() => pickersFor(chat.ctx.webview.conversation(chat.tabId).controls).some((p) => p.value === 'default'));
  assert.ok(chat.ctx.pool.all()[0]?.canSteer, 'it advertises _meta.steering.supported');
  return chat;
}

describe('the chat with real agents (conductor, scripted model server)', function () {
  this.timeout(180_000);
  before(function () {
    if (!fs.existsSync(path.join(ROOT, 'out/conductor.js'))) throw new Error('build first: node esbuild.mjs');
    if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
  });
  let chat: Chat | undefined;
  /** Outcomes of the per-agent tests (titled `<agent>: <feature>`), for docs/agents.md's compatibility table. */
  const outcomes: Record<string, Record<string, 'passed' | 'failed'>> = {};
  afterEach(async function () {
    const t = this.currentTest;
    const m = t && /^([\w-]+): (.*)$/.exec(t.title);
    if (m && (AGENT_IDS as string[]).includes(m[1]!) && (t.state === 'passed' || t.state === 'failed'))
      (outcomes[m[1]!] ??= {})[m[2]!] = t.state;
    await closeChat(chat);
    chat = undefined;
  });
  after(() => writeCompat('chat', outcomes));

  it('Claude Code (claude-code-acp) sends each tool_call twice, nearly empty then full: one card, updated; a restart and quitting leave no process', async () => {
    chat = await openChat('claude-code-acp');
    const write = await ask(chat, 'now write a greeting file');
    assertOneCardPerCall(write);
    const [call] = toolsOf(write);
    assert.equal(call?.status, 'completed');
    assert.match(call?.title ?? '', /greeting\.txt/, 'the full call replaced the early one');
    assert.match(shownDetails(write, call!), /hello-from-the-agent/, 'the card shows the diff');
    assert.equal(fs.readFileSync(path.join(chat.ws, 'greeting.txt'), 'utf8'), 'hello-from-the-agent');
    // It does not exit when its stdin closes: a restart must still end it and everything it started.
    const old = processesOf(chat);
    await chat.ctx.controller.restartTabConfiguration(chat.tabId);
    await assertAllEnd(old, 'after a restart, the old conductor, agent and helpers');
    assert.match((await ask(chat, 'say hello')).updates.map((u) => JSON.stringify(u)).join(''), /Hello from the scripted model/);
    const now = processesOf(chat);
    await chat.ctx.controller.dispose();
    await assertAllEnd(now, 'after quitting, the conductor, agent and helpers');
  });

  it('Gemini CLI announces a call that needs approval only in its permission request: the approval, then one tool card for the call', async () => {
    chat = await openChat('gemini');
    const write = await ask(chat, 'now write a greeting file');
    assertOneCardPerCall(write);
    const [card] = write.permissions;
    assert.ok(card, 'the write was asked');
    assert.deepEqual(
      toolsOf(write).map((u) => u.toolCallId),
      [card.toolCall.toolCallId],
      'no tool_call came first; the call is the one the request described',
    );
    assert.deepEqual(
      cardsOf(write).filter((c) => / (Permission|\*\*)/.test(c)),
      [`perm:${card.requestId} Permission: ${card.toolCall.title}`, `tool:${card.toolCall.toolCallId} **${card.toolCall.title}**`],
    );
    assert.match(shownDetails(write, toolsOf(write)[0]!), /hello-from-the-agent/);
    assert.equal(fs.readFileSync(path.join(chat.ws, 'greeting.txt'), 'utf8'), 'hello-from-the-agent');
  });

  it('Qwen Code starts in "auto" and offers its modes twice (modes and a config option): one picker; switching to Default brings approval cards', async () => {
    chat = await openChat('qwen');
    const controls = chat.ctx.webview.conversation(chat.tabId).controls;
    const pickers = pickersFor(controls).map((p) => [p.id, p.value, (p.type === 'select' ? (p.options ?? []) : []).map((o) => o.value)]);
    assert.deepEqual(
      pickers.filter(([id]) => id === 'mode' || id === 'config:mode'),
      [['config:mode', 'auto', ['plan', 'default', 'auto-edit', 'auto', 'yolo']]],
    );
    chat.ctx.handle({ type: 'set-config-option', tabId: chat.tabId, configId: 'mode', value: 'default' });
    await until(() =>
      pickersFor(chat!.ctx.webview.conversation(chat!.tabId).controls).some((p) => p.id === 'config:mode' && p.value === 'default'),
    );
    const write = await ask(chat, 'now write a greeting file');
    assert.equal(write.permissions.length, 1, 'Default asks before an edit');
    assertOneCardPerCall(write);
    assert.equal(fs.readFileSync(path.join(chat.ws, 'greeting.txt'), 'utf8'), 'hello-from-the-agent');
    assert.match(chat.ctx.webview.answer(chat.tabId, write.messageId), /Wrote it\./, 'the answer after the approved write is shown');
  });

  it('claude-agent-acp starts in "auto" (never asks); its pickers come from the session, and Manual brings approval cards', async () => {
    chat = await openChat('claude-agent-acp');
    const controls = chat.ctx.webview.conversation(chat.tabId).controls;
    const mode = pickersFor(controls).find((p) => p.type === 'select' && (p.id === 'mode' || p.id === 'config:mode'));
    assert.ok(mode?.type === 'select' && (mode.options ?? []).some((o) => o.value === 'default'), JSON.stringify(pickersFor(controls)));
    chat.ctx.handle({
      type: mode.id === 'mode' ? 'set-mode' : 'set-config-option',
      tabId: chat.tabId,
      modeId: 'default',
      configId: 'mode',
      value: 'default',
    } as never);
    await until(() =>
      pickersFor(chat!.ctx.webview.conversation(chat!.tabId).controls).some((p) => p.id === mode.id && p.value === 'default'),
    );
    const write = await ask(chat, 'now write a greeting file');
    assert.ok(write.permissions.length >= 1, 'Manual asks before an edit');
    assertOneCardPerCall(write);
    const info = tabStoreFor(chat.ctx.webview.conversation(chat.tabId)).promptInputInfo ?? '';
    assert.match(info, /context \d.* tokens \(\d+ %\) · [\d.]+ USD/, `usage_update is shown: ${info}`);
  });

  it('claude-agent-acp offers a boolean option (a switch that reaches the agent) and sign-out (ACP logout)', async () => {
    chat = await openChat('claude-agent-acp');
    const switches = () => pickersFor(chat!.ctx.webview.conversation(chat!.tabId).controls).filter((p) => p.type === 'switch');
    const [toggle] = switches();
    assert.ok(toggle, `a boolean option is a switch: ${JSON.stringify(pickersFor(chat.ctx.webview.conversation(chat.tabId).controls))}`);
    const flipped = toggle.value === 'true' ? false : true;
    chat.ctx.handle({
      type: 'set-config-option',
      tabId: chat.tabId,
      configId: toggle.id.slice('config:'.length),
      value: flipped,
    });
    await until(() => switches().some((p) => p.id === toggle.id && p.value === String(flipped)), 20_000, 'the agent to take the new value');
    const actor = chat.ctx.pool.all()[0];
    assert.ok(actor?.canSignOut, 'it advertises auth.logout');
    await actor.signOut();
  });

  it('signed out: an agent that lists no sign-in method (claude-agent-acp) says what to do; one whose session waits for a sign-in (Qwen Code) says to sign in first', async () => {
    chat = await openChat('claude-agent-acp', { signedOut: true });
    const messageId = randomUUID();
    chat.ctx.handle({ type: 'prompt', tabId: chat.tabId, messageId, text: 'say hello' });
    await until(
      () => chat!.ctx.webview.received.some((m) => m.type === 'prompt-failed' && m.messageId === messageId),
      60_000,
      'the failure',
    );
    const failed = chat.ctx.webview.received.find((m) => m.type === 'prompt-failed' && m.messageId === messageId);
    assert.match(JSON.stringify(failed), /Authentication required.*offers no way to do it from the editor.*symposium\.agents/);
    await closeChat(chat);

    chat = await openChat('qwen', { signedOut: true });
    const card = chat.ctx.webview.received.find((m) => m.type === 'sign-in-required');
    assert.ok(card && card.type === 'sign-in-required' && !card.optional && card.methods.length > 0, 'the sign-in card with its methods');
    const second = randomUUID();
    chat.ctx.handle({ type: 'prompt', tabId: chat.tabId, messageId: second, text: 'say hello' });
    await until(() => chat!.ctx.webview.received.some((m) => m.type === 'prompt-failed' && m.messageId === second), 30_000, 'the failure');
    assert.match(
      JSON.stringify(chat.ctx.webview.received.find((m) => m.type === 'prompt-failed' && m.messageId === second)),
      /sign in before it starts a session/,
    );
  });

  it("claude-agent-acp steers (_session/steering): a queued prompt sent now joins the running turn, shown there as the user's message", async () => {
    chat = await openSteeringChat();
    const { tabId } = chat;
    const { script } = chat.model;

    // A prompt sent while a turn runs is queued, steerable; "Send now (steer)" puts it into the turn.
    const story = randomUUID();
    chat.ctx.handle({ type: 'prompt', tabId, messageId: story, text: 'tell a slow story' });
    await until(() => chat!.ctx.webview.answer(tabId, story).includes('Once upon'), 60_000, 'the story');
    chat.ctx.handle({ type: 'prompt', tabId, messageId: randomUUID(), text: 'make it shorter' });
    await until(() => chat!.ctx.webview.conversation(tabId).queued?.[0]?.steerable === true, 10_000, 'the steerable queue');
    chat.ctx.handle({ type: 'steer-queued', tabId });
    await until(() => chat!.ctx.webview.received.some((m) => m.type === 'prompt-ended' && m.messageId === story), 90_000, 'the story turn');
    const storyTurn = chat.ctx.webview.turns(tabId).find((t) => t.messageId === story)!;
    const steeredAt = storyTurn.updates.findIndex((u) => u.sessionUpdate === 'user_message_chunk');
    assert.ok(steeredAt > 0, "shown in the running turn as the user's message");
    assert.ok(
      script.log.some((r) => r.userText.includes('make it shorter')),
      'the model got it',
    );
    assert.match(chat.ctx.webview.answer(tabId, story), /The short version: the end\./, 'answered in the same turn');
    assert.equal(chat.ctx.webview.turns(tabId).length, 1, 'no turn of its own: it was not also queued');
  });

  it("claude-agent-acp: a rejection's feedback is steered into the same turn, after the reject option", async () => {
    chat = await openSteeringChat();
    const { tabId } = chat;
    const { script } = chat.model;

    // Reject with feedback: the reject option first, then the words steered into the turn.
    const messageId = randomUUID();
    chat.ctx.handle({ type: 'prompt', tabId, messageId, text: 'now write a greeting file' });
    const waiting = () =>
      chat!.ctx.webview
        .turns(tabId)
        .find((t) => t.messageId === messageId)
        ?.permissions.find((p) => !p.decision);
    await until(() => waiting() !== undefined, 60_000, 'the approval card');
    const card = waiting()!;
    const reject = card.options.find((o) => o.kind.startsWith('reject'))!;
    chat.ctx.handle({
      type: 'permission-answer',
      tabId,
      requestId: card.requestId,
      optionId: reject.optionId,
      feedback: 'write it in French instead',
    });
    await until(() => chat!.ctx.webview.received.some((m) => m.type === 'prompt-ended' && m.messageId === messageId), 90_000, 'the turn');
    const decided = chat.ctx.webview.turns(tabId).find((t) => t.messageId === messageId)!;
    const decision = decided.permissions[0]?.decision;
    assert.ok(decision?.outcome === 'selected' && decision.optionKind.startsWith('reject'), JSON.stringify(decision));
    assert.deepEqual(decision.feedback, { text: 'write it in French instead', delivery: 'steered' });
    assert.ok(
      script.log.some((r) => r.userText.includes('write it in French instead')),
      'the model got the words',
    );
    assert.match(chat.ctx.webview.answer(tabId, messageId), /Bonjour, as you asked\./, 'and answered them in the same turn');
    assert.ok(!fs.existsSync(path.join(chat.ws, 'greeting.txt')), 'the rejected write did not happen');
  });

  it('claude-agent-acp asks its question (AskUserQuestion) as an elicitation form; the choice made on the card reaches the model', async () => {
    chat = await openChat('claude-agent-acp');
    const { tabId } = chat;
    chat.model.script.rules.push({
      when: 'ask me which database',
      tool: {
        names: ['AskUserQuestion'],
        args: () => ({
          questions: [
            {
              question: 'Which database should the tests use?',
              header: 'Database',
              multiSelect: false,
              options: [
                { label: 'Postgres', description: 'The real one' },
                { label: 'SQLite', description: 'In memory' },
              ],
            },
          ],
        }),
        after: (result) => `Noted: ${result}`,
      },
    });
    const messageId = randomUUID();
    chat.ctx.handle({ type: 'prompt', tabId, messageId, text: 'ask me which database' });
    const card = () =>
      chat!.ctx.webview
        .turns(tabId)
        .find((t) => t.messageId === messageId)
        ?.elicitations?.find((e) => !e.outcome);
    await until(() => card() !== undefined, 60_000, 'the form card');
    const { prompt, requestId } = card()!;
    assert.equal(prompt.mode, 'form');
    assert.equal(prompt.message, 'Which database should the tests use?');
    const field = prompt.mode === 'form' ? prompt.form.fields[0] : undefined;
    assert.deepEqual(field?.kind === 'choice' ? field.options.map((o) => o.label) : field, ['Postgres', 'SQLite']);
    chat.ctx.handle({ type: 'elicitation-answer', tabId, requestId, action: 'accept', values: { question_0: 'SQLite' } });
    await until(() => chat!.ctx.webview.received.some((m) => m.type === 'prompt-ended' && m.messageId === messageId), 90_000, 'the turn');
    const result = chat.model.script.log.find((r) => r.toolResult)?.toolResult?.text ?? '';
    assert.match(result, /SQLite/, `the tool's result carries the choice: ${result}`);
    assert.match(chat.ctx.webview.answer(tabId, messageId), /Noted: .*SQLite/);
  });

  it('OpenCode has no modes, only config options: they are its pickers', async () => {
    chat = await openChat('opencode');
    const controls = chat.ctx.webview.conversation(chat.tabId).controls;
    assert.equal(controls?.modes ?? null, null);
    const pickers = pickersFor(controls);
    assert.ok(pickers.length > 0 && pickers.every((p) => p.id.startsWith('config:')), JSON.stringify(pickers.map((p) => p.id)));
    assert.ok(pickers.some((p) => p.id === 'config:model' && p.value === 'scripted/scripted-model'));
    const write = await ask(chat, 'now write a greeting file');
    assert.equal(write.permissions.length, 1, 'configured to ask before an edit');
    assertOneCardPerCall(write);
  });

  it('Codex does everything itself and reports usage: the cards show what it read, wrote and ran; closing its tab leaves no process', async () => {
    chat = await openChat('codex', { idleStopMs: 500 });
    chat.ctx.handle({ type: 'set-mode', tabId: chat.tabId, modeId: 'auto' });
    const read = await ask(chat, 'please read the notes');
    const shell = await ask(chat, 'please run the echo command');
    for (const t of [read, shell]) assertOneCardPerCall(t);
    assert.match(shownDetails(read, toolsOf(read)[0]!), /notes\.txt/, 'the read names its file');
    assert.match(shownDetails(shell, toolsOf(shell)[0]!), /hi-from-shell/, 'the command shows its output');
    assert.deepEqual(chat.ctx.editorRequests, [], 'nothing went through the editor');
    const info = tabStoreFor(chat.ctx.webview.conversation(chat.tabId)).promptInputInfo ?? '';
    assert.match(info, /context \d.* of 258\.4k tokens/, `usage_update is shown: ${info}`);
    // Closing the only tab of the agent: after the pool's idle time, the process (which ignores a
    // closed stdin) and everything under it end, with VS Code still running.
    const all = processesOf(chat);
    chat.ctx.handle({ type: 'close-tab', tabId: chat.tabId });
    await assertAllEnd(all, 'after its tab closed, the conductor, codex-acp and codex');
  });

  for (const id of AGENT_IDS)
    it(`${id}: the slash commands it advertises are in the tab's / menu`, async () => {
      chat = await openChat(id);
      await ask(chat, 'say hello');
      const conversation = () => chat!.ctx.webview.conversation(chat!.tabId);
      await until(() => (conversation().commands ?? []).length > 0, 20_000, `${id}'s available_commands_update`);
      const advertised = (conversation().commands ?? []).map((c) => `/${c.name}`);
      const menu = (tabStoreFor(conversation()).quickActionCommands ?? []).flatMap((g) => g.commands.map((c) => c.command));
      assert.deepEqual(menu, advertised);
    });

  it("an agent request the chat does not know (Qwen Code's craft/drainMidTurnQueue, with a UUID id) is refused at once; its title and usage are shown; it ends though it ignores stdin", async () => {
    const ws = tempDir('symposium-chat-quirky-');
    const ctx = setupChat({
      runtime,
      editor: true,
      configure: async () => ({
        agent: { name: 'quirky', command: process.execPath, args: [path.join(ROOT, 'conductor/test/fixtures/quirkyAgent.mjs')], env: {} },
        components: null,
        workspaceFolder: ws,
      }),
    });
    chat = { ctx, tabId: ctx.webview.newTab(), ws, model: await startScriptedModelServer(), approving: false };
    ctx.handle(ctx.webview.ready());
    const turn = await ask(chat, 'anything');
    const text = ctx.webview.answer(chat.tabId, turn.messageId);
    const ms = Number(/error -32601 after (\d+) ms/.exec(text)?.[1]);
    assert.ok(ms < 2_000, `answered "method not found", at once: ${text}`);
    const c = ctx.webview.conversation(chat.tabId);
    assert.equal(c.title, 'Quirks explored');
    assert.equal(tabStoreFor(c).tabTitle, 'Quirks explored');
    assert.match(tabStoreFor(c).promptInputInfo ?? '', /context 53k of 200k tokens \(27 %\) · 0\.25 USD/);
    const all = processesOf(chat);
    await ctx.controller.restartTabConfiguration(chat.tabId);
    await assertAllEnd(all, 'the old conductor and the agent that ignores stdin');
  });
});
