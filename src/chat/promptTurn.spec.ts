// A prompt's echo and content: attachments named on the echo only when there are some; the agent
// gets the continued conversation's transcript first, then the typed text (none when blank), then
// the resolved attachments.
import * as assert from 'node:assert/strict';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { promptContent, promptStarted } from './promptTurn';

const TAB = '11111111-1111-4111-8111-111111111111';

describe('promptTurn', () => {
  it('the echo names the attachments, and has none when nothing is attached', () => {
    assert.deepEqual(promptStarted(TAB, { messageId: 'm1', text: 'hi', context: [] }), {
      type: 'prompt-started',
      tabId: TAB,
      messageId: 'm1',
      text: 'hi',
    });
    const withFile = promptStarted(TAB, {
      messageId: 'm2',
      text: 'see',
      context: [{ kind: 'file', name: 'a.ts', uri: 'file:///ws/a.ts' }],
    });
    assert.deepEqual(withFile.type === 'prompt-started' && withFile.attachments, ['a.ts']);
  });

  it('content: transcript, then text, then attachments; blank text is left out', () => {
    const transcript: ContentBlock[] = [{ type: 'text', text: 'earlier conversation' }];
    const attached: ContentBlock[] = [{ type: 'resource_link', name: 'a.ts', uri: 'file:///ws/a.ts' }];
    assert.deepEqual(promptContent(transcript, 'go on', attached), [transcript[0], { type: 'text', text: 'go on' }, attached[0]]);
    assert.deepEqual(promptContent([], '  \n', attached), attached);
    assert.deepEqual(promptContent([], 'only text', []), [{ type: 'text', text: 'only text' }]);
  });
});
