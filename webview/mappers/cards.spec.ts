import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { addUpdate, applyEntry, emptyConversation, type PermissionCard } from '../../src/protocol/conversation';
import { blockToChatItems, turnToChatItems } from './chatItems';
import { unifiedDiff } from './diffText';
import { describeDecision, parsePermissionButton, permissionToChatItem } from './permission';
import { planToChatItem } from './plan';
import { pickedCommand, pickerChanges, pickersFor, promptWithCommand, slashCommandsFor, tabStoreFor, tabTitleFor } from './tabStore';
import { forMynahSafe } from './untrusted';
import { toolCallToChatItem } from './toolCall';
import { turn } from './chatItems.spec';

const TAB = '11111111-1111-4111-8111-111111111111';
const call: SessionUpdate = {
  sessionUpdate: 'tool_call',
  toolCallId: 't1',
  title: 'Edit a.ts',
  kind: 'edit',
  status: 'pending',
  locations: [{ path: '/w/src/a.ts', line: 3 }],
  rawInput: { path: '/w/src/a.ts' },
};

describe('tool-call cards', () => {
  it('one card per toolCallId, updated in place; partial updates keep the other fields', () => {
    const t = turn({});
    addUpdate(t, call);
    addUpdate(t, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'working' } });
    addUpdate(t, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' });
    let items = turnToChatItems(t).filter((i) => i.messageId === 'm:tool:t1');
    assert.equal(items.length, 1);
    assert.equal(items[0]?.header?.body, '**Edit a.ts**');
    assert.equal(items[0]?.header?.status?.text, 'Running');
    addUpdate(t, {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      status: 'completed',
      content: [{ type: 'diff', path: '/w/src/a.ts', oldText: 'a\nb\nc', newText: 'a\nB\nc' }],
    });
    items = turnToChatItems(t);
    const card = items.find((i) => i.messageId === 'm:tool:t1')!;
    assert.equal(card.header?.status?.text, 'Completed');
    assert.equal(card.header?.icon, 'pencil');
    assert.deepEqual(
      card.buttons?.map((b) => b.id),
      ['open-diff:0'],
    );
    assert.match(card.summary?.collapsedContent?.map((c) => c.body).join('\n') ?? '', /-b\n\+B/);
    assert.equal(card.summary?.isCollapsed, true, 'input and output are collapsed by default');
    assert.deepEqual(card.fileList?.filePaths, ['/w/src/a.ts']);
    // Text after the tool card is a new item after it (mynah has one stream per tab).
    assert.deepEqual(
      items.map((i) => i.messageId),
      ['m:prompt', 'm:tool:t1', 'm:1'],
    );
  });

  it('a call still pending or running when its turn is stopped shows as stopped, when the agent ended it as "Turn ended", without a shimmer; finished ones keep their status', () => {
    const ended = (over: Parameters<typeof turn>[0]) => {
      const t = turn({});
      addUpdate(t, call); // pending
      addUpdate(t, { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Run tests', kind: 'execute', status: 'in_progress' });
      addUpdate(t, { sessionUpdate: 'tool_call', toolCallId: 't3', title: 'Read a.ts', kind: 'read', status: 'completed' });
      const running = turnToChatItems(t);
      Object.assign(t, over);
      return { running, after: turnToChatItems(t) };
    };
    const view = (items: ReturnType<typeof turnToChatItems>, id: string) => {
      const card = items.find((i) => i.messageId === `m:tool:${id}`);
      return [card?.header?.status?.text, card?.header?.status?.icon, card?.shimmer];
    };
    const stopped = ['Stopped', 'stop', false];
    const unreported = ['Turn ended', 'info', false];
    for (const [over, shown] of [
      [{ status: 'done' as const, stopReason: 'cancelled' as const }, stopped],
      [{ status: 'done' as const, stopReason: 'max_tokens' as const }, stopped],
      [{ status: 'failed' as const, error: 'the agent exited' }, stopped],
      [{ status: 'done' as const, stopReason: 'end_turn' as const }, unreported],
    ] as const) {
      const { running, after } = ended(over);
      assert.deepEqual(view(running, 't1'), ['Pending', 'progress', true], 'while the turn runs');
      assert.deepEqual(view(running, 't2'), ['Running', 'progress', true]);
      assert.deepEqual(view(after, 't1'), shown, JSON.stringify(over));
      assert.deepEqual(view(after, 't2'), shown, JSON.stringify(over));
      assert.deepEqual(view(after, 't3'), ['Completed', 'ok', false]);
    }
    // The agent reports the call's end after its turn (as Codex does): the card shows it.
    const t = turn({});
    addUpdate(t, { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Run tests', kind: 'execute', status: 'in_progress' });
    Object.assign(t, { status: 'done', stopReason: 'end_turn' });
    addUpdate(t, { sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'completed' });
    assert.deepEqual(view(turnToChatItems(t), 't2'), ['Completed', 'ok', false]);
  });

  it('a call without status is running; failed calls say so; raw input is pretty JSON', () => {
    const c = toolCallToChatItem(
      { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Run ls', kind: 'execute', rawInput: { command: 'ls', args: ['-l'] } },
      'id',
    );
    assert.equal(c.header?.status?.text, 'Running');
    assert.equal(c.shimmer, true);
    assert.match(c.summary?.collapsedContent?.[0]?.body ?? '', /```json\n\{\n {2}"command": "ls"/);
    const failed = toolCallToChatItem(
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'x',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'boom' } }],
      },
      'id',
    );
    assert.equal(failed.header?.status?.text, 'Failed');
    assert.equal(failed.header?.status?.status, 'error');
    assert.equal(failed.summary?.collapsedContent?.[0]?.body, 'boom');
  });

  it('locations are clickable files with their line', () => {
    const c = toolCallToChatItem(call as never, 'id');
    assert.deepEqual(c.fileList?.details?.['/w/src/a.ts']?.data, { action: 'location', index: '0', line: '3' });
    assert.match(c.body ?? '', /`a\.ts:3`/);
  });

  it('a unified diff of the changed region, with context', () => {
    assert.equal(unifiedDiff('a\nb\nc', 'a\nB\nc'), '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c');
    assert.equal(unifiedDiff(null, 'new'), '@@ -1,0 +1,1 @@\n+new');
    assert.equal(unifiedDiff('same', 'same'), '(no changes)');
  });
});

describe('permission cards', () => {
  const card: PermissionCard = {
    requestId: 'r1',
    position: 1,
    toolCall: { toolCallId: 't1', title: 'Edit a.ts', kind: 'edit' },
    options: [
      { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow-always', name: 'Allow always', kind: 'allow_always' },
      { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
    ],
  };

  it('shows title, kind, parameters (from the tool card) and the agent options plus Bypass, in order', () => {
    const item = permissionToChatItem(card, 'm:perm:r1', call as never);
    assert.match(item.header?.body ?? '', /Permission needed: Edit a\.ts/);
    assert.match(item.body ?? '', /\*\*Edit\*\* requested/);
    assert.match(item.body ?? '', /"path": "\/w\/src\/a\.ts"/);
    assert.deepEqual(
      [...item.buttons!].reverse().map((b) => b.text),
      ['Allow once', 'Allow always', 'Reject', 'Bypass Permissions'],
    );
    assert.deepEqual(parsePermissionButton(item.buttons!.at(-1)!.id), { requestId: 'r1', choice: 0 });
    assert.deepEqual(parsePermissionButton('perm:r1:bypass'), { requestId: 'r1', choice: 'bypass' });
    assert.equal(parsePermissionButton('restart-agent'), undefined);
  });

  it('after a decision the card shows it instead of buttons', () => {
    const decided = permissionToChatItem(
      { ...card, decision: { outcome: 'selected', optionId: 'reject-once', optionName: 'Reject', optionKind: 'reject_once', by: 'user' } },
      'x',
    );
    assert.deepEqual(decided.buttons, []);
    assert.equal(decided.header?.status?.text, 'Rejected');
    assert.match(decided.body ?? '', /Rejected: Reject, by you\./);
    assert.equal(describeDecision({ outcome: 'cancelled', reason: 'the prompt was cancelled' }), 'Cancelled: the prompt was cancelled.');
    assert.equal(
      describeDecision({ outcome: 'selected', optionId: 'a', optionName: 'Allow once', optionKind: 'allow_once', by: 'bypass' }),
      'Allowed: Allow once, automatically (Bypass Permissions).',
    );
  });

  it('the card sits where the request came in, and survives a replay of the same entries', () => {
    const c = emptyConversation();
    const entries = [
      { type: 'prompt-started', messageId: 'm', text: 'go' },
      { type: 'agent-update', messageId: 'm', update: call },
      { type: 'permission-requested', messageId: 'm', requestId: 'r1', toolCall: card.toolCall, options: card.options },
      { type: 'agent-update', messageId: 'm', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } } },
      {
        type: 'permission-resolved',
        messageId: 'm',
        requestId: 'r1',
        decision: { outcome: 'selected', optionId: 'allow-once', optionName: 'Allow once', optionKind: 'allow_once', by: 'user' },
      },
    ] as const;
    for (const e of entries) applyEntry(c, e as never);
    applyEntry(c, entries[2] as never); // a replayed duplicate is ignored
    const ids = turnToChatItems(c.blocks[0] as never).map((i) => i.messageId);
    assert.deepEqual(ids, ['m:prompt', 'm:tool:t1', 'm:perm:r1', 'm:1']);
  });
});

describe('plans', () => {
  it('a checklist with progress, one card per turn updated in place', () => {
    const item = planToChatItem(
      [
        { content: 'Read', priority: 'high', status: 'completed' },
        { content: 'Edit', priority: 'high', status: 'in_progress' },
        { content: 'Test', priority: 'low', status: 'pending' },
      ],
      'm:plan',
    );
    assert.equal(item.body, '☑ ~~Read~~  \n◐ **Edit**  \n☐ Test');
    assert.equal(item.header?.status?.text, '1/3 done');
    const t = turn({});
    addUpdate(t, { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'low', status: 'pending' }] });
    addUpdate(t, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } });
    addUpdate(t, { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'low', status: 'completed' }] });
    assert.equal(turnToChatItems(t).filter((i) => i.messageId === 'm:plan').length, 1);
    assert.match(turnToChatItems(t)[1]?.body ?? '', /☑/);
  });
});

describe('tab controls: slash commands and pickers', () => {
  const controls = {
    modes: {
      currentModeId: 'ask',
      availableModes: [
        { id: 'ask', name: 'Ask' },
        { id: 'code', name: 'Code' },
      ],
    },
    configOptions: [
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select' as const,
        currentValue: 'a',
        options: [
          { value: 'a', name: 'A' },
          { value: 'b', name: 'B' },
        ],
      },
    ],
    models: { currentModelId: 'x', availableModels: [{ modelId: 'x', name: 'X' }] },
  };

  it('slash commands from available_commands_update; commands with input get a placeholder', () => {
    const c = emptyConversation();
    applyEntry(c, {
      type: 'agent-update',
      update: {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { name: 'help', description: 'Help' },
          { name: 'plan', description: 'Plan', input: { hint: 'what to plan' } },
        ],
      },
    });
    assert.deepEqual(slashCommandsFor(c)[0]?.commands, [
      { command: '/help', description: 'Help' },
      { command: '/plan', description: 'Plan', placeholder: 'what to plan' },
    ]);
    assert.equal(promptWithCommand('/plan', ' my day '), '/plan my day');
    assert.equal(promptWithCommand('/help', ''), '/help');
    assert.equal(promptWithCommand(undefined, 'plain'), 'plain');
    // mynah is given names made safe; a picked one goes to the agent under its own name.
    applyEntry(c, {
      type: 'agent-update',
      update: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'a<b>', description: '' }] },
    });
    assert.equal(pickedCommand(c, forMynahSafe(slashCommandsFor(c))[0]?.commands[0]?.command), '/a<b>');
    assert.equal(pickedCommand(c, '/typed'), '/typed');
    assert.equal(pickedCommand(c, undefined), undefined);
  });

  it('modes and config options are selects; legacy models only without a model config option', () => {
    assert.deepEqual(
      pickersFor(controls).map((p) => [p.id, p.value]),
      [
        ['mode', 'ask'],
        ['config:model', 'a'],
      ],
    );
    assert.deepEqual(
      pickersFor({ models: controls.models }).map((p) => p.id),
      ['model'],
    );
    assert.deepEqual(pickerChanges(TAB, controls, { mode: 'code', 'config:model': 'a' }), [
      { type: 'set-mode', tabId: TAB, modeId: 'code' },
    ]);
    assert.deepEqual(pickerChanges(TAB, controls, { 'config:model': 'b' }), [
      { type: 'set-config-option', tabId: TAB, configId: 'model', value: 'b' },
    ]);
    assert.deepEqual(pickerChanges(TAB, { models: controls.models }, { model: 'y' }), [{ type: 'set-model', tabId: TAB, modelId: 'y' }]);
    assert.deepEqual(pickerChanges(TAB, controls, { unknown: 'z' }), []);
  });

  it('mode and config updates from the agent move the pickers', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'session-ready', agentName: 'A', cwd: '/w', controls });
    applyEntry(c, { type: 'agent-update', update: { sessionUpdate: 'current_mode_update', currentModeId: 'code' } });
    applyEntry(c, {
      type: 'agent-update',
      update: { sessionUpdate: 'config_option_update', configOptions: [{ ...controls.configOptions[0]!, currentValue: 'b' }] },
    });
    const store = tabStoreFor(c);
    assert.deepEqual(
      store.promptInputOptions?.map((p) => p.value),
      ['code', 'b'],
    );
    assert.equal(store.loadingChat, false);
    assert.equal(store.promptInputInfo, 'A · /w');
  });

  it("the tab title: none before a prompt; then the first line of the first prompt, cut; the agent's title wins, and clears", () => {
    const c = emptyConversation();
    assert.equal(tabTitleFor(c), undefined);
    assert.equal(tabStoreFor(c).tabTitle, undefined, 'the tab keeps its title');
    applyEntry(c, { type: 'prompt-started', messageId: 'm', text: '\n   fix   the\tparser  \nplease' });
    assert.equal(tabTitleFor(c), 'fix the parser');
    assert.equal(tabStoreFor(c).tabTitle, 'fix the parser');
    applyEntry(c, { type: 'agent-update', messageId: 'm', update: { sessionUpdate: 'session_info_update', title: 'x'.repeat(80) } });
    assert.equal(tabTitleFor(c), `${'x'.repeat(49)}…`);
    applyEntry(c, { type: 'agent-update', messageId: 'm', update: { sessionUpdate: 'session_info_update', title: 'a <i>b</i> & c' } });
    assert.equal(tabTitleFor(c), 'a ‹i›b‹/i› ＆ c');
    applyEntry(c, {
      type: 'agent-update',
      messageId: 'm',
      update: { sessionUpdate: 'session_info_update', updatedAt: '2026-11-27T00:00:00Z' },
    });
    assert.equal(tabTitleFor(c), 'a ‹i›b‹/i› ＆ c', 'an update without a title keeps it');
    applyEntry(c, { type: 'agent-update', messageId: 'm', update: { sessionUpdate: 'session_info_update', title: null } });
    assert.equal(tabTitleFor(c), 'fix the parser');
  });

  it('prompts queued behind a running turn are a card above the input, quoted as typed, with Edit; none, no card', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'session-ready', agentName: 'A', cwd: '/w' });
    assert.equal(tabStoreFor(c).promptInputStickyCard, null);
    c.queued = [{ messageId: 'q1', text: 'first\nsecond line' }];
    const one = tabStoreFor(c).promptInputStickyCard;
    assert.equal(one?.body, '**Queued: sent when the agent finishes**\n\n> first\n> second line');
    assert.deepEqual(
      one?.buttons?.map((b) => [b.id, b.text]),
      [['withdraw-queued', 'Edit']],
    );
    c.queued.push({ messageId: 'q2', text: 'a <b>bold</b> move' });
    const two = forMynahSafe(tabStoreFor(c)).promptInputStickyCard;
    assert.match(String(two?.body), /^\*\*2 prompts queued/);
    assert.ok(String(two?.body).includes('> a &lt;b>bold&lt;/b> move'), "the user's text is made safe like any other");
    // Where the agent takes input into its running turn, the card also offers to send them now.
    c.queued = [{ messageId: 'q3', text: 'make it shorter', steerable: true }];
    assert.deepEqual(
      tabStoreFor(c).promptInputStickyCard?.buttons?.map((b) => [b.id, b.text]),
      [
        ['withdraw-queued', 'Edit'],
        ['steer-queued', 'Send now (steer)'],
      ],
    );
  });

  it("a running turn that waits on a permission card says so, not 'Working…'", () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'session-ready', agentName: 'A', cwd: '/w' });
    applyEntry(c, { type: 'prompt-started', messageId: 'm', text: 'go' });
    assert.equal(tabStoreFor(c, undefined, 4).promptInputInfo, 'Working… 4 s · A · /w');
    const options = [{ optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' as const }];
    applyEntry(c, {
      type: 'permission-requested',
      messageId: 'm',
      requestId: 'r1',
      toolCall: { toolCallId: 't1', title: 'Edit' },
      options,
    });
    assert.equal(tabStoreFor(c, undefined, 5).promptInputInfo, 'Waiting for your answer above · A · /w');
    applyEntry(c, {
      type: 'permission-resolved',
      messageId: 'm',
      requestId: 'r1',
      decision: { outcome: 'selected', optionId: 'allow-once', optionName: 'Allow once', optionKind: 'allow_once', by: 'user' },
    });
    assert.equal(tabStoreFor(c, undefined, 6).promptInputInfo, 'Working… 6 s · A · /w');
  });

  it('a past conversation the agent did not continue is read-only until a new session is ready; its notice offers the new session', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'session-ready', agentName: 'A', cwd: '/w' });
    applyEntry(c, { type: 'tab-notice', level: 'warning', text: 'A cannot continue old sessions…', offer: 'continue-in-new-session' });
    assert.equal(tabStoreFor(c).promptInputDisabledState, true);
    assert.match(String(tabStoreFor(c).promptInputInfo), /Read-only/);
    const notice = c.blocks.at(-1);
    assert.ok(notice?.kind === 'notice');
    assert.deepEqual(
      blockToChatItems(notice)[0]?.buttons?.map((b) => b.id),
      ['continue-in-new-session'],
    );
    applyEntry(c, { type: 'session-ready', agentName: 'A', cwd: '/w' });
    assert.equal(tabStoreFor(c).promptInputDisabledState, false);
    assert.equal(tabStoreFor(c).promptInputInfo, 'A · /w');
  });
});
