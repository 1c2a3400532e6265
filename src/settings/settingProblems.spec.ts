// What the chat and the status bar say when the user's settings cannot be honoured, and where each
// notice's button leads.
import * as assert from 'node:assert/strict';
import { settingProblems } from './settingProblems';

describe('settings the chat could not honour', () => {
  it('an unknown agent: in a remote window the Remote settings are named and opened, locally the User settings', () => {
    const [remote] = settingProblems({ missingAgent: 'claude', using: 'ElizACP', remote: true });
    assert.equal(remote!.target, 'remote');
    assert.match(remote!.text, /names "claude", but no agent of that name is configured, so this chat uses ElizACP/);
    assert.match(remote!.text, /remote window: symposium\.agents is read from the Remote settings/);
    const [local] = settingProblems({ missingAgent: 'claude', using: 'ElizACP', remote: false });
    assert.equal(local!.target, 'user');
    assert.doesNotMatch(local!.text, /remote/);
  });

  it('an agent held back in an untrusted workspace points to the trust editor; nothing to say, no notice', () => {
    assert.deepEqual(
      settingProblems({ untrustedAgent: 'codex', using: 'ElizACP', remote: false }).map((p) => p.target),
      ['trust'],
    );
    assert.deepEqual(settingProblems({ using: 'claude', remote: true }), []);
  });
});
