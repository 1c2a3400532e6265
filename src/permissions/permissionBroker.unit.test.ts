import * as assert from 'node:assert/strict';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { PermissionPolicy } from '../agents/agentSettings';
import { parsePermissionPolicy } from '../agents/agentSettings';
import { PermissionBroker, type DecisionRecord } from './permissionBroker';

const quiet: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const TAB = '11111111-1111-4111-8111-111111111111';
const params = (kind: 'edit' | 'read' = 'edit', options: readonly ('allow_once' | 'allow_always' | 'reject_once' | 'reject_always')[] = ['allow_once', 'allow_always', 'reject_once', 'reject_always']): RequestPermissionRequest => ({
  sessionId: 's1',
  toolCall: { toolCallId: 't1', title: 'Edit a.ts', kind },
  options: options.map((k) => ({ optionId: `${k}-id`, name: k, kind: k })),
});

function setup(policy: Partial<PermissionPolicy> = {}, hasTab = true) {
  const posted: { type: string; requestId: string; decision?: unknown }[] = [];
  const records: DecisionRecord[] = [];
  const bypassed: string[] = [];
  const broker = new PermissionBroker({
    log: quiet,
    policyFor: () => ({ bypassPermissions: false, autoApprove: [], problems: [], ...policy }),
    tabFor: () => (hasTab ? { tabId: TAB, messageId: 'm' } : undefined),
    post: (p) => posted.push(p),
    enableBypass: async (a) => { bypassed.push(a); },
    record: (r) => records.push(r),
  });
  const ask = (p = params(), signal = new AbortController().signal) => broker.request({ actorKey: 'k', agentName: 'Agent', params: p, signal });
  return { broker, posted, records, bypassed, ask };
}

describe('PermissionBroker', () => {
  it('waits for the user and answers with the chosen option; the card is told the decision', async () => {
    const { broker, posted, records, ask } = setup();
    const answer = ask();
    await Promise.resolve();
    const [pending] = broker.pendingFor(TAB);
    assert.ok(pending);
    assert.equal(posted[0]?.type, 'permission-requested');
    assert.equal(broker.answer(TAB, pending.requestId, { optionId: 'nope' }), 'The agent did not offer the option "nope".');
    assert.equal(broker.answer(TAB, pending.requestId, { optionId: 'reject_once-id' }), undefined);
    assert.deepEqual(await answer, { outcome: { outcome: 'selected', optionId: 'reject_once-id' } });
    assert.equal(posted[1]?.type, 'permission-resolved');
    assert.equal(records[0]?.decision.outcome, 'selected');
    assert.equal(broker.answer(TAB, pending.requestId, { optionId: 'allow_once-id' }), 'This permission request is no longer pending.');
  });

  it('bypass approves at once and persists the setting', async () => {
    const { broker, ask, bypassed } = setup();
    const answer = ask();
    const [pending] = broker.pendingFor();
    broker.answer(TAB, pending!.requestId, { bypass: true });
    assert.deepEqual(await answer, { outcome: { outcome: 'selected', optionId: 'allow_once-id' } });
    assert.deepEqual(bypassed, ['Agent']);
  });

  it('rules: bypass and auto-approved kinds answer allow-once without a pending card', async () => {
    assert.deepEqual(await setup({ bypassPermissions: true }).ask(), { outcome: { outcome: 'selected', optionId: 'allow_once-id' } });
    const auto = setup({ autoApprove: ['read'] });
    assert.deepEqual(await auto.ask(params('read')), { outcome: { outcome: 'selected', optionId: 'allow_once-id' } });
    assert.deepEqual(auto.posted.map((p) => p.type), ['permission-requested', 'permission-resolved'], 'shown as already decided');
    void auto.ask(params('edit'));
    assert.equal(auto.broker.pendingFor().length, 1, 'other kinds still ask');
    // Without an allow option nothing can be auto-approved.
    void setup({ bypassPermissions: true }).ask(params('edit', ['reject_once']));
  });

  it('cancel, tab close, the agent withdrawing, and no tab: never left hanging, never approved', async () => {
    const { broker, ask } = setup();
    const a = ask();
    broker.cancelTab(TAB, 'the prompt was cancelled');
    assert.deepEqual(await a, { outcome: { outcome: 'cancelled' } });
    const ac = new AbortController();
    const b = ask(params(), ac.signal);
    ac.abort();
    assert.deepEqual(await b, { outcome: { outcome: 'cancelled' } });
    const c = ask();
    broker.dispose();
    assert.deepEqual(await c, { outcome: { outcome: 'cancelled' } });
    assert.deepEqual(await setup({}, false).ask(), { outcome: { outcome: 'selected', optionId: 'reject_once-id' } });
  });

  it('reads the policy from settings, reporting bad values', () => {
    assert.deepEqual(parsePermissionPolicy({ A: { bypassPermissions: true, autoApprove: ['read', 'bogus'] } }, 'A'),
      { bypassPermissions: true, autoApprove: ['read'], problems: ['symposium.agents.A.autoApprove: unknown tool kind "bogus"'] });
    assert.deepEqual(parsePermissionPolicy(undefined, 'A'), { bypassPermissions: false, autoApprove: [], problems: [] });
    assert.equal(parsePermissionPolicy({ A: { bypassPermissions: 'yes' } }, 'A').problems.length, 1);
  });

  it('a command is covered by an approved execute tool call of the session, once; otherwise the user is asked', async () => {
    const { broker, ask, posted } = setup();
    const ctx = { actorKey: 'k', agentName: 'Agent', signal: new AbortController().signal };
    const approval = ask({ ...params(), toolCall: { toolCallId: 'x', title: 'Run tests', kind: 'execute' } });
    broker.answer(TAB, broker.pendingFor()[0]!.requestId, { optionId: 'allow_once-id' });
    await approval;
    const before = posted.length;
    assert.equal(await broker.authorizeCommand(ctx, 's1', { title: 'Run: npm test', rawInput: {} }), true);
    assert.equal(posted.length, before, 'not asked again');
    const second = broker.authorizeCommand(ctx, 's1', { title: 'Run: rm -rf build', rawInput: { cwd: '/w', env: ['CI'] } });
    const [asked] = broker.pendingFor();
    assert.equal(asked?.title, 'Run: rm -rf build');
    assert.equal(asked?.kind, 'execute');
    broker.answer(TAB, asked!.requestId, { optionId: 'reject-once' });
    assert.equal(await second, false);
    broker.forgetSession('k', 's1');
  });
});
