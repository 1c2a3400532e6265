import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TabPayload } from '../protocol/webview';
import { HistoryStore } from './historyStore';
import { HistoryRecorder } from './recorder';
import { silentLog } from '../log/logEvent';

const T = '11111111-1111-4111-8111-111111111111';

function setup(): { store: HistoryStore; recorder: HistoryRecorder; open: string[][] } {
  const store = new HistoryStore(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-recorder-')), {
    maxConversations: () => 200,
    maxImageBytes: () => 1000,
  });
  const open: string[][] = [];
  const recorder = new HistoryRecorder({ log: silentLog, store, sessionIdOf: () => 'sess-1', onOpenChanged: (ids) => open.push(ids) });
  return { store, recorder, open };
}
const chunk = (text: string): TabPayload => ({
  type: 'agent-update',
  tabId: T,
  messageId: 'm1',
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
});

describe('HistoryRecorder', () => {
  it('records a tab once it has a session and a prompt; chunks merged; the index follows', () => {
    const { store, recorder, open } = setup();
    recorder.observe({ type: 'session-ready', tabId: T, agentName: 'ElizACP', cwd: '/w' });
    assert.equal(store.list().length, 0, 'a tab nobody wrote in is not recorded');
    recorder.observe({ type: 'prompt-started', tabId: T, messageId: 'm1', text: 'Why is the sky blue?\nSecond line' });
    for (const t of ['Because ', 'of ', 'scattering.']) recorder.observe(chunk(t));
    recorder.observe({ type: 'prompt-ended', tabId: T, messageId: 'm1', stopReason: 'end_turn' });
    const [meta] = store.list();
    assert.ok(meta);
    assert.deepEqual([meta.title, meta.turns, meta.sessionId, meta.agentName], ['Why is the sky blue?', 1, 'sess-1', 'ElizACP']);
    const entries = store.read(meta.id)!.entries;
    assert.deepEqual(
      entries.map((e) => e.type),
      ['session-ready', 'prompt-started', 'agent-update', 'prompt-ended'],
    );
    assert.deepEqual(open.at(-1), [meta.id]);
    recorder.close(T);
    assert.deepEqual(open.at(-1), []);
  });

  it('an agent title (session_info_update) names the conversation; a replay starts it over', () => {
    const { store, recorder } = setup();
    recorder.observe({ type: 'prompt-started', tabId: T, messageId: 'm1', text: 'hi' });
    recorder.observe({ type: 'session-ready', tabId: T, agentName: 'A', cwd: '/w' });
    recorder.observe({
      type: 'agent-update',
      tabId: T,
      messageId: 'm1',
      update: { sessionUpdate: 'session_info_update', title: 'Greetings' },
    });
    const id = recorder.conversationOf(T)!;
    assert.equal(store.meta(id)?.title, 'Greetings');
    recorder.replaced(T, [{ type: 'prompt-started', messageId: 'r-1', text: 'hi' }]);
    assert.deepEqual(store.read(id)!.entries, [{ type: 'prompt-started', messageId: 'r-1', text: 'hi' }]);
  });

  it('closing tabs while the window closes keeps the list of tabs to restore', async () => {
    const { recorder, open } = setup();
    recorder.adopt(T, 'conv-1');
    await recorder.keepingOpenList(async () => recorder.close(T));
    assert.deepEqual(open.at(-1), ['conv-1']);
  });

  it("keeps the tab's mode: picked before the first prompt, changed by the user and by the agent", () => {
    const { store, recorder } = setup();
    const modes = {
      currentModeId: 'auto',
      availableModes: [
        { id: 'auto', name: 'Auto' },
        { id: 'default', name: 'Default' },
      ],
    };
    recorder.observe({ type: 'session-ready', tabId: T, agentName: 'Qwen Code', cwd: '/w', controls: { modes } });
    recorder.observe({ type: 'controls-changed', tabId: T, controls: { modes: { ...modes, currentModeId: 'default' } } });
    recorder.observe({ type: 'prompt-started', tabId: T, messageId: 'm1', text: 'hi' });
    const id = recorder.conversationOf(T)!;
    assert.equal(store.meta(id)?.mode, 'default', 'the mode picked before the conversation was recorded');
    recorder.observe({
      type: 'agent-update',
      tabId: T,
      messageId: 'm1',
      update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
    });
    assert.equal(store.meta(id)?.mode, 'plan', "the agent's own change");
  });

  it('an agent with a mode config option: its value is the mode; its older mode updates are not', () => {
    const { store, recorder } = setup();
    const option = (currentValue: string) => ({
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select' as const,
      currentValue,
      options: [
        { value: 'read-only', name: 'Read Only' },
        { value: 'auto', name: 'Default' },
      ],
    });
    recorder.observe({
      type: 'session-ready',
      tabId: T,
      agentName: 'Codex',
      cwd: '/w',
      controls: { configOptions: [option('read-only')] },
    });
    recorder.observe({ type: 'prompt-started', tabId: T, messageId: 'm1', text: 'hi' });
    const id = recorder.conversationOf(T)!;
    assert.equal(store.meta(id)?.mode, 'read-only');
    recorder.observe({
      type: 'agent-update',
      tabId: T,
      messageId: 'm1',
      update: { sessionUpdate: 'current_mode_update', currentModeId: 'x' },
    });
    assert.equal(store.meta(id)?.mode, 'read-only');
    recorder.observe({ type: 'controls-changed', tabId: T, controls: { configOptions: [option('auto')] } });
    assert.equal(store.meta(id)?.mode, 'auto');
  });
});
