// The host's chat logic end to end in plain Node: controller + outbox + transcript against the real
// conductor and ElizACP, with a fake webview that applies messages exactly like the real one
// (webview/state.ts SeenIndex, webview/conversation.ts). Build first: `node esbuild.mjs`.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STORY } from '../../conductor/eliza/demos';
import { respond } from '../../conductor/eliza/engine';
import type { Log } from '../log/logEvent';
import type { HostToWebview, TabId } from '../protocol/webview';
import { builtinAgent } from '../agents/agentConfiguration';
import { applyEntry, emptyConversation, type Conversation, type Turn } from '../../webview/conversation';
import { SeenIndex } from '../../webview/state';
import { ChatController } from './chatController';
import type { OutboxLimits } from './outbox';

const ROOT = path.resolve(__dirname, '../..');
const rt = { execPath: process.execPath, extensionPath: ROOT };
const quiet: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** Applies host messages the way webview/chatApp.ts does, and can "save" and be re-created. */
class FakeWebview {
  seen: SeenIndex;
  convs: Map<TabId, Conversation>;
  received: HostToWebview[] = [];
  constructor(saved?: { seen: Record<TabId, number>; convs: Record<TabId, Conversation> }) {
    this.seen = new SeenIndex(saved?.seen);
    this.convs = new Map(Object.entries(structuredClone(saved?.convs ?? {})));
  }
  receive(m: HostToWebview): void {
    this.received.push(m);
    if (m.type === 'context-items') return;
    if (!this.seen.accept(m.tabId, m.index)) return;
    if (m.type === 'open-tab' || m.type === 'query-rendered' || m.type === 'attach-context') return;
    if (m.type === 'resync') {
      const c = emptyConversation();
      for (const e of m.entries) applyEntry(c, e);
      this.convs.set(m.tabId, c);
      return;
    }
    const { tabId, index: _i, ...entry } = m;
    let c = this.convs.get(tabId);
    if (!c) this.convs.set(tabId, (c = emptyConversation()));
    applyEntry(c, entry);
  }
  save(): { seen: Record<TabId, number>; convs: Record<TabId, Conversation> } {
    return { seen: this.seen.toJSON(), convs: structuredClone(Object.fromEntries(this.convs)) };
  }
  answer(tabId: TabId, messageId: string): string {
    const t = this.convs.get(tabId)?.blocks.find((b): b is Turn => b.kind === 'turn' && b.messageId === messageId);
    return (t?.updates ?? []).map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '')).join('');
  }
}

function setup(limits?: OutboxLimits) {
  let webview = new FakeWebview();
  const controller = new ChatController({
    runtime: rt, log: quiet, clientInfo: { name: 'test', version: '0' }, outboxLimits: limits,
    configure: async () => ({ agent: builtinAgent(rt), components: null, workspaceFolder: ROOT }),
    permissions: { policyFor: () => ({ bypassPermissions: false, autoApprove: [], problems: [] }), enableBypass: async () => {}, record: () => {} },
  });
  controller.setPost((m) => webview.receive(m));
  return {
    controller,
    get webview() { return webview; },
    recreate(saved?: ReturnType<FakeWebview['save']>) { webview = new FakeWebview(saved); },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const story = STORY.join('');

describe('ChatController (real conductor + ElizACP)', function () {
  this.timeout(30_000);
  before(function () { if (!fs.existsSync(path.join(ROOT, 'out/conductor.js'))) this.skip(); });
  let ctx: ReturnType<typeof setup> | undefined;
  afterEach(async () => { await ctx?.controller.dispose(); ctx = undefined; });

  it('a fresh webview tab gets a session and the exact reply', async () => {
    ctx = setup();
    const tabId = randomUUID();
    ctx.controller.handle({ type: 'webview-ready', lastSeenIndex: {}, openTabs: [tabId] });
    const messageId = randomUUID();
    ctx.controller.handle({ type: 'prompt', tabId, messageId, text: 'I remember my first computer' });
    await ctx.controller.whenIdle(tabId);
    assert.equal(ctx.webview.answer(tabId, messageId), respond('I remember my first computer', { deterministic: true }));
    const indices = ctx.webview.received.flatMap((m) => ('tabId' in m && m.tabId === tabId ? [m.index] : []));
    assert.deepEqual(indices, indices.map((_, i) => i + 1), 'per-tab indices grow by one while live');
  });

  it('past the buffer limit while hidden, the tab is resynchronized and nothing is lost', async () => {
    ctx = setup({ maxEntries: 50, maxChars: 300 });
    const tabId = randomUUID();
    ctx.controller.handle({ type: 'webview-ready', lastSeenIndex: {}, openTabs: [tabId] });
    await ctx.controller.whenIdle(tabId);
    const messageId = randomUUID();
    ctx.controller.handle({ type: 'prompt', tabId, messageId, text: 'tell me a long story' });
    await sleep(400);
    const saved = ctx.webview.save();
    ctx.controller.handle({ type: 'ack', lastSeenIndex: saved.seen });
    ctx.controller.webviewUnavailable('hidden');
    await sleep(1_500);
    assert.equal(ctx.controller.outboxStats().tabs[tabId]?.resyncPending, true, 'the buffer overflowed');
    ctx.recreate(saved);
    ctx.controller.handle({ type: 'webview-ready', lastSeenIndex: saved.seen, openTabs: [tabId] });
    assert.deepEqual(ctx.webview.received.map((m) => m.type).slice(0, 1), ['resync']);
    await ctx.controller.whenIdle(tabId);
    assert.equal(ctx.webview.answer(tabId, messageId), story);
  });

  it('a webview re-created from older saved state gets exactly the messages it lacks', async () => {
    ctx = setup();
    const tabId = randomUUID();
    ctx.controller.handle({ type: 'webview-ready', lastSeenIndex: {}, openTabs: [tabId] });
    const messageId = randomUUID();
    ctx.controller.handle({ type: 'prompt', tabId, messageId, text: 'tell me a long story' });
    await sleep(700);
    const saved = ctx.webview.save(); // its last setState; what it applied afterwards is lost
    ctx.controller.handle({ type: 'ack', lastSeenIndex: saved.seen });
    await sleep(500);
    ctx.controller.webviewUnavailable('disposed');
    await sleep(500);
    ctx.recreate(saved);
    ctx.controller.handle({ type: 'webview-ready', lastSeenIndex: saved.seen, openTabs: [tabId] });
    await ctx.controller.whenIdle(tabId);
    assert.equal(ctx.webview.answer(tabId, messageId), story);
    assert.ok(ctx.webview.received.every((m) => !('index' in m) || m.index > (saved.seen[tabId] ?? 0)), 'nothing it had saved is sent again');
  });

  it('closing a tab cancels its prompt and nothing more is sent for it', async () => {
    ctx = setup();
    const tabId = randomUUID();
    ctx.controller.handle({ type: 'webview-ready', lastSeenIndex: {}, openTabs: [tabId] });
    ctx.controller.handle({ type: 'prompt', tabId, messageId: randomUUID(), text: 'tell me a long story' });
    await sleep(500);
    ctx.controller.handle({ type: 'close-tab', tabId });
    const count = ctx.webview.received.length;
    await sleep(500);
    assert.equal(ctx.webview.received.length, count);
    assert.deepEqual(ctx.controller.getTabs(), []);
  });
});
