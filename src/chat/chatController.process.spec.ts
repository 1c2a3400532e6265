// The host's chat logic end to end in plain Node: the controller with the pieces activation gives
// it (session directory, tab messages with outbox and transcript, permission broker, agent pool)
// against the real conductor and ElizACP, with a fake webview that is the real one minus mynah-ui:
// its model (webview/model.ts) applies what the host sends. Build first: `node esbuild.mjs`.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { STORY } from '../../conductor/eliza/demos';
import { respond } from '../../conductor/eliza/engine';
import { builtinAgent, type AgentDefinition } from '../settings/agentDefinition';
import type { OutboxLimits } from './outbox';
import { setupChat, sleep, until } from '../test/chatHarness';
// A temp Sparkle home for the conductors these tests start (also when run alone, without .mocharc).
import '../../conductor/test/testEnv.setup.cjs';
import { builtBundle } from '../../conductor/test/builtBundle';
import { alive } from '../../conductor/test/rawClient';
import { agentLaunch, agentsInstalled, WITH_REAL_AGENTS } from '../../conductor/test/realAgents/agents';
import { descendantsOf, stillRunning } from '../test/processGroup';

const ROOT = path.resolve(__dirname, '../..');
const rt = { execPath: process.execPath, extensionPath: ROOT };

function setup(limits?: OutboxLimits) {
  return setupChat({ runtime: rt, limits, configure: async () => ({ agent: builtinAgent(rt), components: null, workspaceFolder: ROOT }) });
}

/** The chat with `agent` behind the conductor; the pool stops an unused process after 200 ms. */
function setupAgent(agent: AgentDefinition, slowStartNoticeMs?: number) {
  return setupChat({
    runtime: rt,
    idleStopMs: 200,
    ...(slowStartNoticeMs !== undefined ? { slowStartNoticeMs } : {}),
    configure: async () => ({ agent, components: null, workspaceFolder: ROOT }),
  });
}

/** ElizACP behind a start-up of `ms` (an agent from npx, a big binary). */
function slowEliza(ms: number): AgentDefinition {
  const eliza = builtinAgent(rt);
  const command = [eliza.command, ...eliza.args].map((a) => `'${a}'`).join(' ');
  return { ...eliza, name: 'Slow Eliza', command: '/bin/sh', args: ['-c', `sleep ${ms / 1000}; exec ${command}`] };
}

/** A stored conversation of `agentName` whose agent session the tab will try to continue. */
function pastMeta(agentName: string) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    title: 'Earlier',
    agentName,
    folder: ROOT,
    sessionId: randomUUID(),
    createdAt: now,
    lastActivity: now,
    turns: 1,
  };
}

const story = STORY.join('');

describe('ChatController (real conductor + ElizACP)', function () {
  this.timeout(30_000);
  before(() => builtBundle('conductor.js'));
  let ctx: ReturnType<typeof setup> | undefined;
  afterEach(async () => {
    await ctx?.controller.dispose();
    ctx = undefined;
  });

  it('a fresh webview tab gets a session and the exact reply', async () => {
    ctx = setup();
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    const messageId = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId, text: 'I remember my first computer' });
    await ctx.inspector.whenIdle(tabId);
    assert.equal(ctx.webview.answer(tabId, messageId), respond('I remember my first computer', { deterministic: true }));
    const indices = ctx.webview.received.flatMap((m) => ('tabId' in m && m.tabId === tabId ? [m.index] : []));
    assert.ok(indices.length > 0 && indices[0] === 1, 'the tab starts at index 1');
    assert.ok(
      indices.every((x, i) => i === 0 || x > indices[i - 1]!),
      `per-tab indices grow while live (by more than one where chunks of one turn left together): ${indices.join(',')}`,
    );
  });

  it('a prompt is echoed once and at once; one sent while an answer streams is shown when it starts, below that answer', async () => {
    ctx = setup();
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    const first = randomUUID(),
      second = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId: first, text: 'tell me a long story' });
    await ctx.messages.whenPosted(); // the outbox posts at the end of this turn of the host
    assert.deepEqual(
      ctx.webview.turns(tabId).map((t) => [t.messageId, t.prompt]),
      [[first, 'tell me a long story']],
      'shown at once',
    );
    assert.deepEqual(ctx.webview.indicesOf(tabId, 'session-ready'), [], '(even before the session is ready)');
    await until(() => ctx!.webview.answer(tabId, first).length > 0);
    ctx.handle({ type: 'prompt', tabId, messageId: second, text: 'Are you there?' });
    assert.deepEqual(ctx.webview.indicesOf(tabId, 'prompt-started', second), [], 'not yet: it waits for the story');
    await ctx.inspector.whenIdle(tabId);
    assert.deepEqual(
      ctx.webview.turns(tabId).map((t) => t.messageId),
      [first, second],
    );
    assert.equal(ctx.webview.indicesOf(tabId, 'prompt-started', first).length, 1, 'echoed once');
    const [echo] = ctx.webview.indicesOf(tabId, 'prompt-started', second);
    const [firstEnded] = ctx.webview.indicesOf(tabId, 'prompt-ended', first);
    assert.ok(
      echo !== undefined && firstEnded !== undefined && echo > firstEnded,
      'the queued prompt appears after the answer it waited for',
    );
    assert.equal(ctx.webview.indicesOf(tabId, 'prompt-started', second).length, 1, 'echoed once');
    assert.equal(ctx.webview.answer(tabId, first), story);
    assert.equal(ctx.webview.answer(tabId, second), respond('Are you there?', { deterministic: true }));
  });

  it('prompts sent while a turn runs wait in the queue the webview shows; Edit withdraws those not started, and the agent never gets them', async () => {
    ctx = setup();
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    const [before, story1, second, third, fourth, info] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    // How many prompts the agent has seen so far (Sparkle's embodiment is one).
    ctx.handle({ type: 'prompt', tabId, messageId: before, text: 'session info' });
    await ctx.inspector.whenIdle(tabId);
    const seen = Number(/, prompt (\d+)\./.exec(ctx.webview.answer(tabId, before))?.[1]);
    ctx.handle({ type: 'prompt', tabId, messageId: story1, text: 'tell me a long story' });
    await until(() => ctx!.webview.answer(tabId, story1).length > 0);
    ctx.handle({ type: 'prompt', tabId, messageId: second, text: 'Are you there?' });
    ctx.handle({ type: 'prompt', tabId, messageId: third, text: 'Hello?\nAnyone?' });
    await ctx.messages.whenPosted();
    assert.deepEqual(ctx.webview.conversation(tabId).queued, [
      { messageId: second, text: 'Are you there?' },
      { messageId: third, text: 'Hello?\nAnyone?' },
    ]);
    assert.deepEqual(
      ctx.webview.turns(tabId).map((t) => t.messageId),
      [before, story1],
      'not in the conversation while they wait',
    );
    ctx.handle({ type: 'withdraw-queued', tabId });
    await ctx.messages.whenPosted();
    assert.equal(ctx.webview.conversation(tabId).queued, undefined, 'the card goes');
    ctx.handle({ type: 'prompt', tabId, messageId: fourth, text: 'Only this one' });
    await ctx.messages.whenPosted();
    assert.deepEqual(ctx.webview.conversation(tabId).queued, [{ messageId: fourth, text: 'Only this one' }]);
    await ctx.inspector.whenIdle(tabId);
    assert.equal(ctx.webview.conversation(tabId).queued, undefined, 'it left the queue when it started');
    assert.equal(ctx.webview.answer(tabId, story1), story);
    assert.equal(ctx.webview.answer(tabId, fourth), respond('Only this one', { deterministic: true }));
    ctx.handle({ type: 'prompt', tabId, messageId: info, text: 'session info' });
    await ctx.inspector.whenIdle(tabId);
    assert.deepEqual(
      ctx.webview.turns(tabId).map((t) => t.messageId),
      [before, story1, fourth, info],
    );
    assert.ok(
      ctx.webview.answer(tabId, info).endsWith(`, prompt ${seen + 3}.`),
      `the agent saw three more prompts, not five: the withdrawn ones never reached it (${ctx.webview.answer(tabId, info)}, before: ${seen})`,
    );
  });

  it('past the buffer limit while hidden, the tab is resynchronized and nothing is lost', async () => {
    ctx = setup({ maxEntries: 50, maxChars: 300 });
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    await ctx.inspector.whenIdle(tabId);
    const messageId = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId, text: 'tell me a long story' });
    const c = ctx;
    await until(() => c.webview.answer(tabId, messageId).length > 0, 10_000, 'the story to start');
    const saved = ctx.webview.save();
    ctx.handle({ type: 'ack', lastSeenIndex: saved.lastSeenIndex });
    ctx.messages.webviewUnavailable('hidden');
    await until(() => c.inspector.outboxStats().tabs[tabId]?.resyncPending === true, 10_000, 'the hidden buffer to overflow');
    ctx.recreate(saved);
    ctx.handle(ctx.webview.ready());
    assert.deepEqual(ctx.webview.received.map((m) => m.type).slice(0, 1), ['resync']);
    await ctx.inspector.whenIdle(tabId);
    assert.equal(ctx.webview.answer(tabId, messageId), story);
  });

  it('a webview re-created from older saved state gets exactly the messages it lacks', async () => {
    ctx = setup();
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    const messageId = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId, text: 'tell me a long story' });
    const c = ctx;
    await until(() => c.webview.answer(tabId, messageId).length > 0, 10_000, 'the story to start');
    const saved = ctx.webview.save(); // its last setState; what it applied afterwards is lost
    ctx.handle({ type: 'ack', lastSeenIndex: saved.lastSeenIndex });
    // More arrives after the save (applied, never saved: lost with the page) …
    const atSave = ctx.webview.received.length;
    await until(() => c.webview.received.length > atSave, 10_000, 'more of the story after the save');
    ctx.messages.webviewUnavailable('disposed');
    // … and more while there is no page (buffered for the next one).
    await until(() => (c.inspector.outboxStats().tabs[tabId]?.buffered ?? 0) > 0, 10_000, 'the story buffered while no page');
    ctx.recreate(saved);
    ctx.handle(ctx.webview.ready());
    await ctx.inspector.whenIdle(tabId);
    assert.equal(ctx.webview.answer(tabId, messageId), story);
    assert.ok(
      ctx.webview.received.every((m) => !('index' in m) || m.index > (saved.lastSeenIndex[tabId] ?? 0)),
      'nothing it had saved is sent again',
    );
  });

  it('a prompt sent while the agent restarts waits for the new session and is answered', async () => {
    ctx = setup();
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    const first = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId: first, text: 'I remember my first computer' });
    await ctx.inspector.whenIdle(tabId);
    // As after signing in from a terminal: the restart begins, and the user sends at once.
    const restarted = ctx.controller.restartTabConfiguration(tabId);
    const second = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId: second, text: 'I dream about computers' });
    await restarted;
    await until(() => ctx!.webview.received.some((m) => m.type === 'prompt-ended' && m.messageId === second));
    assert.equal(ctx.webview.answer(tabId, second), respond('I dream about computers', { deterministic: true }));
    assert.ok(!ctx.webview.received.some((m) => m.type === 'prompt-failed'), 'no prompt failed');
  });

  it('a tab closed while its agent still starts leaves no process once the start is over and the idle time passed', async () => {
    ctx = setupAgent(slowEliza(1_500));
    const c = ctx;
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    await until(() => c.pool.all().some((a) => a.pid !== undefined), 10_000, 'the agent process to start');
    const pid = ctx.pool.all()[0]!.pid!;
    ctx.webview.model.closeTab(tabId);
    ctx.handle({ type: 'close-tab', tabId });
    await until(() => c.pool.all().length === 0 && !alive(pid), 15_000, 'the process to end after the session start and the idle time');
  });

  it('a past conversation closed while its agent still starts leaves no process either', async () => {
    ctx = setupAgent(slowEliza(1_500));
    const c = ctx;
    const meta = pastMeta('Slow Eliza');
    const tabId = randomUUID();
    ctx.controller.reopenTab(tabId, { meta, entries: [] }, true);
    await until(() => c.pool.all().some((a) => a.pid !== undefined), 10_000, 'the agent process to start');
    const pid = ctx.pool.all()[0]!.pid!;
    ctx.handle({ type: 'close-tab', tabId });
    await until(() => c.pool.all().length === 0 && !alive(pid), 15_000, 'the process to end after the start and the idle time');
  });

  it('an agent that never answers initialize: the tab says so, with what runs and what it printed; closing the tab ends it', async () => {
    const agent = {
      ...builtinAgent(rt),
      name: 'Not ACP',
      command: '/bin/sh',
      args: ['-c', 'echo "Usage: not-an-acp-agent [options]" >&2; exec sleep 600'],
    };
    ctx = setupAgent(agent, 1_000);
    const c = ctx;
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    ctx.handle({ type: 'prompt', tabId, messageId: randomUUID(), text: 'hello?' });
    const notices = () => c.webview.received.filter((m) => m.type === 'tab-notice' && m.tabId === tabId);
    await until(() => notices().length > 0, 10_000, 'the notice');
    const notice = notices()[0]!;
    assert.ok(notice.type === 'tab-notice');
    assert.equal(notice.level, 'warning');
    assert.match(notice.text, /^Not ACP has not started a session after 1 s: its process runs but has not answered ACP’s initialize\./);
    assert.ok(notice.text.includes(`It runs: /bin/sh -c "echo \\"Usage: not-an-acp-agent [options]\\" >&2; exec sleep 600"`), notice.text);
    assert.ok(notice.text.includes('It last printed: Usage: not-an-acp-agent [options]'), notice.text);
    await sleep(1_500);
    assert.equal(notices().length, 1, 'said once');
    const processes = descendantsOf(process.pid).filter((p) => p.pid === ctx!.pool.all()[0]?.pid || /sleep 600/.test(p.command));
    assert.ok(
      processes.some((p) => /sleep 600/.test(p.command)),
      JSON.stringify(processes),
    );
    ctx.webview.model.closeTab(tabId);
    ctx.handle({ type: 'close-tab', tabId });
    await until(() => c.pool.all().length === 0 && stillRunning(processes).length === 0, 15_000, 'the agent and its conductor to end');
  });

  it('a past conversation whose agent never answers: the same notice, and closing the tab ends the agent', async () => {
    const agent = { ...builtinAgent(rt), name: 'Not ACP', command: '/bin/sh', args: ['-c', 'exec sleep 600'] };
    ctx = setupAgent(agent, 1_000);
    const c = ctx;
    const meta = pastMeta('Not ACP');
    const tabId = randomUUID();
    ctx.handle(ctx.webview.ready());
    ctx.controller.reopenTab(tabId, { meta, entries: [] }, true);
    await until(
      () => c.webview.received.some((m) => m.type === 'tab-notice' && /has not answered ACP’s initialize/.test(m.text)),
      10_000,
      'the notice',
    );
    const pid = ctx.pool.all()[0]!.pid!;
    ctx.handle({ type: 'close-tab', tabId });
    await until(() => c.pool.all().length === 0 && !alive(pid), 15_000, 'the agent to end although it never answered');
  });

  it('a slow agent that does start: the notice first, then the session and its reply', async () => {
    ctx = setupAgent(slowEliza(2_000), 500);
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    const messageId = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId, text: 'I remember my first computer' });
    await ctx.inspector.whenIdle(tabId);
    const kinds = ctx.webview.received.flatMap((m) => ('tabId' in m && m.tabId === tabId ? [m.type] : []));
    assert.ok(kinds.indexOf('tab-notice') >= 0 && kinds.indexOf('tab-notice') < kinds.indexOf('session-ready'), kinds.join(','));
    assert.equal(ctx.webview.answer(tabId, messageId), respond('I remember my first computer', { deterministic: true }));
  });

  describe(WITH_REAL_AGENTS, () => {
    it('Gemini CLI set up without its --acp option: the tab says it has not answered initialize, and what runs', async function () {
      if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
      this.timeout(60_000);
      // The mistake a user makes: the CLI itself, which without --acp waits for a prompt on stdin.
      const launch = agentLaunch('gemini', 'http://127.0.0.1:9');
      const args = launch.command.slice(1).filter((a) => a !== '--acp');
      const agent = { name: 'Gemini CLI', command: launch.command[0]!, args, env: launch.env };
      ctx = setupAgent(agent, 3_000);
      const c = ctx;
      const tabId = ctx.webview.newTab();
      ctx.handle(ctx.webview.ready());
      await until(() => c.webview.received.some((m) => m.type === 'tab-notice' && m.tabId === tabId), 20_000, 'the notice');
      const notice = ctx.webview.received.find((m) => m.type === 'tab-notice' && m.tabId === tabId);
      assert.ok(notice?.type === 'tab-notice');
      assert.match(
        notice.text,
        /^Gemini CLI has not started a session after 3 s: its process runs but has not answered ACP’s initialize\./,
      );
      assert.ok(notice.text.includes(`It runs: ${launch.command[0]} ${args.join(' ')}`), notice.text);
      assert.ok(!ctx.webview.received.some((m) => m.type === 'session-ready'));
      const pid = ctx.pool.all()[0]!.pid!;
      ctx.handle({ type: 'close-tab', tabId });
      await until(() => c.pool.all().length === 0 && !alive(pid), 15_000, 'the process to end');
    });
  });

  it('closing a tab cancels its prompt and nothing more is sent for it', async () => {
    ctx = setup();
    const tabId = ctx.webview.newTab();
    ctx.handle(ctx.webview.ready());
    const messageId = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId, text: 'tell me a long story' });
    const c = ctx;
    await until(() => c.webview.answer(tabId, messageId).length > 0, 10_000, 'the story to start');
    ctx.webview.model.closeTab(tabId);
    ctx.handle({ type: 'close-tab', tabId });
    const count = ctx.webview.received.length;
    await sleep(500);
    assert.equal(ctx.webview.received.length, count);
    assert.deepEqual(ctx.inspector.getTabs(), []);
  });
});
