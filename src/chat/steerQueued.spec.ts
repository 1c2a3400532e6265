// "Send now (steer)": a prompt the agent takes is shown in the running turn; one it answers "no turn
// running" before it was heard from in the turn is asked again once it speaks (the prompt may still
// be in the chain); one it refuses after that goes back to the queue. The agent here is a stand-in
// for the steering answer only (the real path is the host test 26-steering).
import * as assert from 'node:assert/strict';
import type { AgentActor } from '../agents/agentActor';
import type { SteeringOutcome } from '../protocol/steering';
import type { TabPayload } from '../protocol/webview';
import { newActiveTurn, newChatTab, type ChatTab } from './chatTab';
import type { UserPrompt } from './promptTurn';
import { steerQueued, type SteerDeps } from './steerQueued';

const TAB = '11111111-1111-4111-8111-111111111111';
const silentLog = { debug() {}, info() {}, warn() {}, error() {} } as unknown as SteerDeps['log'];

function setUp(answers: SteeringOutcome[]) {
  const asked: string[] = [];
  const actor = {
    canSteer: true,
    steer: async (_s: string, text: string) => {
      asked.push(text);
      return answers.shift() ?? 'promptRequired';
    },
  } as unknown as AgentActor;
  const tab: ChatTab = newChatTab(TAB, 'tab');
  tab.active = newActiveTurn('m1', actor, 's1');
  tab.waiting = [{ messageId: 'm2', text: 'make it shorter', context: [] }];
  const sent: TabPayload[] = [];
  const requeued: UserPrompt[] = [];
  const deps: SteerDeps = { log: silentLog, send: (m) => sent.push(m), sendQueue: () => {}, requeue: (_t, p) => requeued.push(p) };
  return { tab, asked, sent, requeued, deps };
}

const shownInTurn = (sent: TabPayload[]) =>
  sent.flatMap((m) => (m.type === 'agent-update' && m.update.sessionUpdate === 'user_message_chunk' ? [m.messageId] : []));

describe('steerQueued', () => {
  it('taken: shown in the running turn as the user message, and out of the queue', async () => {
    const { tab, asked, sent, requeued, deps } = setUp(['injected']);
    await steerQueued(deps, tab);
    assert.deepEqual(asked, ['make it shorter']);
    assert.deepEqual(shownInTurn(sent), ['m1']);
    assert.deepEqual(requeued, []);
    assert.deepEqual(tab.waiting, []);
  });

  it('"no turn running" before the agent spoke in the turn: asked again once it speaks', async () => {
    const { tab, asked, sent, requeued, deps } = setUp(['promptRequired', 'injected']);
    const steering = steerQueued(deps, tab);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(asked, ['make it shorter'], 'waits for the agent before asking again');
    tab.active!.hear();
    await steering;
    assert.deepEqual(asked, ['make it shorter', 'make it shorter']);
    assert.deepEqual(shownInTurn(sent), ['m1']);
    assert.deepEqual(requeued, []);
  });

  it('"no turn running" after the agent spoke, or when the turn ended meanwhile: back to the queue', async () => {
    const spoke = setUp(['promptRequired']);
    spoke.tab.active!.hear();
    await steerQueued(spoke.deps, spoke.tab);
    assert.deepEqual(spoke.asked.length, 1);
    assert.deepEqual(
      spoke.requeued.map((p) => p.text),
      ['make it shorter'],
    );

    const ended = setUp(['promptRequired']);
    const steering = steerQueued(ended.deps, ended.tab);
    await new Promise((r) => setImmediate(r));
    const turn = ended.tab.active!;
    ended.tab.active = undefined;
    turn.hear();
    await steering;
    assert.equal(ended.asked.length, 1, 'not asked again once the turn is over');
    assert.deepEqual(
      ended.requeued.map((p) => p.text),
      ['make it shorter'],
    );
    assert.deepEqual(shownInTurn(ended.sent), []);
  });
});
