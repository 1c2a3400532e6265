import * as assert from 'node:assert/strict';
import type { AgentActor } from '../agents/agentActor';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import { silentLog } from '../log/logEvent';
import type { SessionControls, TabPayload } from '../protocol/webview';
import type { ConversationMeta } from './historyStore';
import { continuePastSession, sessionLoadWaitMs, type PastState, type ReopenContext } from './reopen';

const MINUTE = Date.parse('2026-11-28T20:58:00.000Z');

/** A reopen's context with `actor` for `agentName`: what it sends goes into `sent`; `more` overrides. */
function contextFor(actor: AgentActor, agentName: string, sent: TabPayload[], more: Partial<ReopenContext> = {}): ReopenContext {
  const config = { agent: { name: agentName }, workspaceFolder: '/ws' } as AgentConfiguration;
  return {
    log: silentLog,
    configure: async () => config,
    acquire: () => actor,
    send: (p) => void sent.push(p),
    restore: () => undefined,
    captureUpdates: () => ({ take: () => [] }),
    bind: () => undefined,
    gone: () => false,
    ...more,
  };
}

/** A past conversation with one turn and a session, read-only until continued. */
function pastState(meta: Partial<ConversationMeta>): PastState {
  const at = new Date(MINUTE).toISOString();
  return {
    readOnly: true,
    conversation: {
      meta: {
        id: 'c1',
        title: 't',
        agentName: 'Agent',
        folder: '/ws',
        sessionId: 's1',
        createdAt: at,
        lastActivity: at,
        turns: 1,
        ...meta,
      },
      entries: [],
    },
  };
}

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
    const past = pastState({ agentName: 'Gemini CLI', createdAt: new Date(MINUTE + 12_000).toISOString() });
    const actor = {
      key: 'k',
      agentInfo: { name: agentInfoName, version: '1' },
      capabilities: async () => ({ loadSession: true }),
      reopenSession: async () => {
        loads.push(clock);
        return { controls: {} };
      },
    } as unknown as AgentActor;
    const cx = contextFor(actor, 'Gemini CLI', sent, {
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        if (opts.continueMeanwhile) past.readOnly = false;
      },
    });
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

describe('reopening a past session: the mode it was in', () => {
  const modes = (current: string) => ({
    currentModeId: current,
    availableModes: [
      { id: 'auto', name: 'Auto' },
      { id: 'default', name: 'Default' },
    ],
  });

  /** Resumes a conversation kept in `mode` with an agent that resumes in Auto; what it was asked and what the tab got. */
  async function resume(mode: string | undefined, setMode: (id: string) => Promise<void> = async () => undefined) {
    const sent: TabPayload[] = [];
    const setModes: string[] = [];
    let bound: SessionControls | undefined;
    const past = pastState({ agentName: 'Qwen Code', ...(mode ? { mode } : {}) });
    const actor = {
      key: 'k',
      agentName: 'Qwen Code',
      capabilities: async () => ({ sessionCapabilities: { resume: {} } }),
      reopenSession: async () => ({ controls: { modes: modes('auto') } }),
      setMode: async (_s: string, id: string) => {
        setModes.push(id);
        await setMode(id);
      },
    } as unknown as AgentActor;
    await continuePastSession(contextFor(actor, 'Qwen Code', sent, { bind: (_a, _s, controls) => void (bound = controls) }), 'tab', past);
    const notices = sent.flatMap((p) => (p.type === 'tab-notice' ? [`${p.level}: ${p.text}`] : []));
    return { setModes, bound, notices };
  }

  it("the agent resumed in its first mode: the conversation's is chosen again before the tab takes prompts", async () => {
    const { setModes, bound, notices } = await resume('default');
    assert.deepEqual(setModes, ['default']);
    assert.equal(bound?.modes?.currentModeId, 'default');
    assert.deepEqual(notices, ['info: Qwen Code resumed this session: it remembers the conversation above.']);
  });

  it('no mode kept, or the same one: nothing is chosen', async () => {
    assert.deepEqual((await resume(undefined)).setModes, []);
    assert.deepEqual((await resume('auto')).setModes, []);
  });

  it('a mode the agent no longer offers, or one it refuses: the tab says which mode it is in', async () => {
    const gone = await resume('plan');
    assert.deepEqual(gone.setModes, []);
    assert.match(
      gone.notices[1]!,
      /^warning: Qwen Code continued in its mode "Auto", not "plan" as before: the agent does not offer that mode now/,
    );
    const refused = await resume('default', async () => {
      throw new Error('no such mode');
    });
    assert.match(refused.notices[1]!, /continued in its mode "Auto", not "Default" as before: choosing it failed \(no such mode\)/);
    assert.equal(refused.bound?.modes?.currentModeId, 'auto', 'the picker shows the mode the agent is in');
  });
});
