import * as assert from 'node:assert/strict';
import type { AgentActor } from '../agents/agentActor';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import { silentLog } from '../log/logEvent';
import type { TabPayload } from '../protocol/webview';
import { continuePastSession, sessionLoadWaitMs, type PastState, type ReopenContext } from './reopen';

const MINUTE = Date.parse('2026-11-28T20:58:00.000Z');

describe('reopening a past session: an agent whose load erases a session of this minute', () => {
  it('Gemini CLI waits until half a second into the minute after the conversation began; others never wait', () => {
    const created = new Date(MINUTE + 12_000).toISOString();
    assert.equal(sessionLoadWaitMs('gemini-cli', created, MINUTE + 20_000), 40_500);
    assert.equal(sessionLoadWaitMs('gemini-cli', created, MINUTE + 60_500), 0);
    assert.equal(sessionLoadWaitMs('gemini-cli', created, MINUTE + 90_000), 0, 'a later minute: at once');
    assert.equal(sessionLoadWaitMs('qwen-code', created, MINUTE + 20_000), 0);
    assert.equal(sessionLoadWaitMs(undefined, created, MINUTE + 20_000), 0, 'no agentInfo');
    assert.equal(sessionLoadWaitMs('gemini-cli', 'not a date', MINUTE), 0);
  });

  /** A reopen against a fake agent that loads; what the tab was told and when the load was sent. */
  function reopen(agentInfoName: string, opts: { continueMeanwhile?: boolean } = {}) {
    let clock = MINUTE + 20_000;
    const sent: TabPayload[] = [];
    const loads: number[] = [];
    const past: PastState = {
      readOnly: true,
      conversation: {
        meta: {
          id: 'c1',
          title: 't',
          agentName: 'Gemini CLI',
          folder: '/ws',
          sessionId: 's1',
          createdAt: new Date(MINUTE + 12_000).toISOString(),
          lastActivity: new Date(MINUTE + 15_000).toISOString(),
          turns: 1,
        },
        entries: [],
      },
    };
    const actor = {
      key: 'k',
      agentInfo: { name: agentInfoName, version: '1' },
      capabilities: async () => ({ loadSession: true }),
      reopenSession: async () => {
        loads.push(clock);
        return { controls: {} };
      },
    } as unknown as AgentActor;
    const config = { agent: { name: 'Gemini CLI' }, workspaceFolder: '/ws' } as AgentConfiguration;
    const cx: ReopenContext = {
      log: silentLog,
      configure: async () => config,
      acquire: () => actor,
      send: (p) => void sent.push(p),
      restore: () => undefined,
      captureUpdates: () => ({ take: () => [] }),
      bind: () => undefined,
      gone: () => false,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        if (opts.continueMeanwhile) past.readOnly = false;
      },
    };
    return continuePastSession(cx, 'tab', past).then(() => ({ sent, loads, past }));
  }

  const texts = (sent: TabPayload[]): string[] => sent.flatMap((p) => (p.type === 'tab-notice' ? [p.text] : []));

  it('the tab says why and how long; the load goes once the minute has passed, and the session continues', async () => {
    const { sent, loads, past } = await reopen('gemini-cli');
    assert.deepEqual(loads, [MINUTE + 60_500]);
    assert.match(texts(sent)[0]!, /would erase a session .* in the minute the session started .*loading it in 41 s/);
    assert.match(texts(sent)[1]!, /loaded this session/);
    assert.equal(past.readOnly, false);
  });

  it('continued in a new session meanwhile: no load is sent', async () => {
    const { loads, sent } = await reopen('gemini-cli', { continueMeanwhile: true });
    assert.deepEqual(loads, []);
    assert.equal(texts(sent).length, 1);
  });

  it('another agent loads at once', async () => {
    const { loads } = await reopen('claude-code');
    assert.deepEqual(loads, [MINUTE + 20_000]);
  });
});
