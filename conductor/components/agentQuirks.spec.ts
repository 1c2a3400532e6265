// The agent quirks as a table: which answers change, for which agent.
import * as assert from 'node:assert/strict';
import { isNotFound, readOutcomeFor } from './agentQuirks';

describe('agent quirks', () => {
  const notFound = { error: { code: -32002, message: 'Resource not found', data: { uri: '/w/new.txt' } } };
  const enoent = { error: { code: -32602, message: "ENOENT: no such file or directory, open '/w/new.txt'" } };
  const denied = { error: { code: -32602, message: '/etc/passwd is outside the session folder; refused' } };
  const found = { result: { content: 'text' } };

  it('Gemini CLI gets a missing file as an empty one (so it can create files); its other answers are unchanged', () => {
    assert.deepEqual(readOutcomeFor('gemini-cli', notFound), { result: { content: '' } });
    assert.deepEqual(readOutcomeFor('gemini-cli', enoent), { result: { content: '' } });
    assert.deepEqual(readOutcomeFor('gemini-cli', denied), denied, 'a refusal stays a refusal');
    assert.deepEqual(readOutcomeFor('gemini-cli', found), found);
  });

  it('every other agent keeps the not-found error', () => {
    for (const agent of ['@zed-industries/claude-code-acp', 'qwen-code', 'OpenCode', undefined])
      assert.deepEqual(readOutcomeFor(agent, notFound), notFound);
    assert.equal(isNotFound(denied.error), false);
  });
});
