import * as assert from 'node:assert/strict';
import type { Conversation } from '../src/protocol/conversation';
import { buttonAction, fileClickAction, linkClickAction } from './cardActions';
import { CONTINUE_IN_NEW_SESSION_BUTTON_ID, RESTART_BUTTON_ID } from './mappers/chatItems';
import { OPEN_DIFF_PREFIX } from './mappers/toolCall';

const tab = 'tab-1';
const conv = {
  blocks: [
    {
      kind: 'turn',
      messageId: 'm1',
      prompt: 'edit it',
      status: 'running',
      updates: [
        {
          sessionUpdate: 'tool_call',
          toolCallId: 't1',
          title: 'Edit',
          content: [{ type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b' }],
        },
      ],
      permissions: [
        {
          requestId: 'r1',
          position: 1,
          toolCall: { toolCallId: 't1' },
          options: [
            { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
            { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
          ],
        },
      ],
    },
  ],
} as unknown as Conversation;

describe('card actions (what a click in a card sends to the host)', () => {
  it('restart and continue-in-new-session', () => {
    assert.deepEqual(buttonAction(conv, tab, undefined, RESTART_BUTTON_ID), { post: { type: 'restart-agent', tabId: tab } });
    assert.deepEqual(buttonAction(conv, tab, undefined, CONTINUE_IN_NEW_SESSION_BUTTON_ID), {
      post: { type: 'continue-in-new-session', tabId: tab },
    });
  });

  it("a setting notice's button opens the settings it names, and nothing else", () => {
    assert.deepEqual(buttonAction(conv, tab, undefined, 'open-settings:remote'), {
      post: { type: 'open-settings', tabId: tab, target: 'remote' },
      reenable: true,
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'open-settings:workbench.action.terminal.new'), {});
  });

  it('a permission choice answers with the option id; bypass; an unknown request sends nothing', () => {
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:1'), {
      post: { type: 'permission-answer', tabId: tab, requestId: 'r1', optionId: 'deny' },
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:bypass'), {
      post: { type: 'permission-answer', tabId: tab, requestId: 'r1', bypass: true },
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r9:0'), {});
    // The card's words go with a reject option only, trimmed; an approval never carries them.
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:1', { feedback: '  use the test db ' }), {
      post: { type: 'permission-answer', tabId: tab, requestId: 'r1', optionId: 'deny', feedback: 'use the test db' },
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:0', { feedback: 'use the test db' }), {
      post: { type: 'permission-answer', tabId: tab, requestId: 'r1', optionId: 'allow' },
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:1', { feedback: '   ' }), {
      post: { type: 'permission-answer', tabId: tab, requestId: 'r1', optionId: 'deny' },
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:7'), {});
  });

  it('open diff names the tool call and its file, and keeps the button usable', () => {
    assert.deepEqual(buttonAction(conv, tab, 'm1:tool:t1', `${OPEN_DIFF_PREFIX}0`), {
      post: { type: 'open-diff', tabId: tab, toolCallId: 't1', path: '/w/a.ts' },
      reenable: true,
    });
    assert.deepEqual(buttonAction(conv, tab, 'm1:tool:t1', `${OPEN_DIFF_PREFIX}5`), { reenable: true });
  });

  it('a file click opens the diff of a tool card, else the file at its line', () => {
    assert.deepEqual(fileClickAction(conv, tab, '/w/a.ts', 'm1:tool:t1', { action: 'diff' }), {
      type: 'open-diff',
      tabId: tab,
      toolCallId: 't1',
      path: '/w/a.ts',
    });
    assert.deepEqual(fileClickAction(conv, tab, 'src/b.ts', undefined, { line: '12' }), {
      type: 'open-location',
      tabId: tab,
      path: 'src/b.ts',
      line: 12,
    });
    assert.deepEqual(fileClickAction(conv, tab, 'src/b.ts', undefined, { line: 'x' }), {
      type: 'open-location',
      tabId: tab,
      path: 'src/b.ts',
    });
  });
});

describe('linkClickAction: a link in an answer', () => {
  const open = (path: string, line?: number) => ({
    kind: 'open',
    post: { type: 'open-location', tabId: tab, path, ...(line ? { line } : {}) },
  });
  const cases: [string, unknown][] = [
    ['https://example.com/a?b#c', { kind: 'browser' }],
    ['HTTP://example.com', { kind: 'browser' }],
    ['mailto:someone@example.com', { kind: 'browser' }],
    ['#section', { kind: 'browser' }],
    ['src/parser.ts', open('src/parser.ts')],
    ['src/parser.ts#L4', open('src/parser.ts', 4)],
    ['src/parser.ts#L4C2', open('src/parser.ts', 4)],
    ['src/parser.ts:12', open('src/parser.ts', 12)],
    ['src/parser.ts:12:3', open('src/parser.ts', 12)],
    ['./docs/my%20notes.md#intro', open('./docs/my notes.md')],
    ['/work/ws/a.ts#10', open('/work/ws/a.ts', 10)],
    ['file:///work/ws/my%20file.ts#L7', open('/work/ws/my file.ts', 7)],
    ['C:\\ws\\a.ts:3', open('C:\\ws\\a.ts', 3)],
    ['vscode://file/etc/passwd', { kind: 'blocked', scheme: 'vscode' }],
    ['vscode-insiders://vscode.git/clone?url=x', { kind: 'blocked', scheme: 'vscode-insiders' }],
    ['command:workbench.action.terminal.new', { kind: 'blocked', scheme: 'command' }],
    ['javascript:alert(1)', { kind: 'blocked', scheme: 'javascript' }],
    ['data:text/html,x', { kind: 'blocked', scheme: 'data' }],
  ];
  for (const [href, expected] of cases)
    it(`${href} → ${(expected as { kind: string }).kind}`, () => assert.deepEqual(linkClickAction(tab, href), expected));
});

describe('the queued prompts card', () => {
  it('Edit withdraws them and gives their text back for the input, in order; with none queued, nothing', () => {
    const queued = {
      ...conv,
      queued: [
        { messageId: 'q1', text: 'one' },
        { messageId: 'q2', text: 'two\nlines' },
      ],
    } as unknown as Conversation;
    assert.deepEqual(buttonAction(queued, tab, 'queued-prompts', 'withdraw-queued'), {
      post: { type: 'withdraw-queued', tabId: tab },
      restoreInput: 'one\n\ntwo\nlines',
    });
    assert.deepEqual(buttonAction(conv, tab, 'queued-prompts', 'withdraw-queued'), {});
  });
});
