import * as assert from 'node:assert/strict';
import { matchTextChunkLine, textChunkLine } from './textChunkLine';

const line = (update: object, sessionId = 's1'): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });

describe('text chunk lines in the ACP SDK spelling (textChunkLine.ts)', () => {
  it('matches the three text chunk kinds, with or without a message id, and writes the same line back', () => {
    for (const kind of ['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'])
      for (const extra of [{}, { messageId: 'm-1' }]) {
        const l = line({ sessionUpdate: kind, content: { type: 'text', text: 'a "quoted"\nline é 😀' }, ...extra });
        const m = matchTextChunkLine(l);
        assert.ok(m, l);
        assert.equal(m.kind, kind);
        assert.equal(JSON.parse(`"${m.text}"`), 'a "quoted"\nline é 😀');
        assert.equal(textChunkLine(m), l);
      }
  });

  it('does not match anything else: other updates, other content, extra fields, other spellings, invalid JSON', () => {
    const text = { type: 'text', text: 'x' };
    const others = [
      line({ sessionUpdate: 'tool_call', toolCallId: 't' }),
      line({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }),
      line({ sessionUpdate: 'agent_message_chunk', content: { ...text, annotations: { priority: 1 } } }),
      line({ sessionUpdate: 'agent_message_chunk', content: text, _meta: { a: 1 } }),
      line({ sessionUpdate: 'agent_message_chunk', content: text }).replace('{"jsonrpc":"2.0",', '{ "jsonrpc":"2.0",'),
      line({ sessionUpdate: 'agent_message_chunk', content: text }) + ' ',
      line({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'X' } }).replace('X', 'tab\there'),
      line({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'X' } }).replace('X', '\\q'),
    ];
    for (const l of others) assert.equal(matchTextChunkLine(l), undefined, l);
  });
});
