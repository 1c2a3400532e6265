import * as assert from 'node:assert/strict';
import type { Conversation } from './conversation';
import { buttonAction, fileClickAction } from './cardActions';
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

  it('a permission choice answers with the option id; bypass; an unknown request sends nothing', () => {
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:1'), {
      post: { type: 'permission-answer', tabId: tab, requestId: 'r1', optionId: 'deny' },
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r1:bypass'), {
      post: { type: 'permission-answer', tabId: tab, requestId: 'r1', bypass: true },
    });
    assert.deepEqual(buttonAction(conv, tab, undefined, 'perm:r9:0'), {});
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
