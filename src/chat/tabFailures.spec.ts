// What a tab is told: an exited process gives its own account (exit code, stderr), any other error
// its message; a prompt interrupted by an exit says so.
import * as assert from 'node:assert/strict';
import { AgentExitedError } from '../agents/agentEnd';
import type { AgentFailure } from '../protocol/webview';
import { newChatTab } from './chatTab';
import { newSettingNotices, noFolderFailure, promptFailureText, sessionStartFailure } from './tabFailures';

const exited: AgentFailure = { agentName: 'ElizACP', message: 'exited with code 3', exitCode: 3, signal: null, stderrTail: 'boom' };

describe('tabFailures', () => {
  it('a session that could not start: the exit as the process reported it', () => {
    assert.deepEqual(sessionStartFailure(new AgentExitedError(exited), 'ignored'), exited);
  });

  it('a session that could not start: any other error under the agent’s name', () => {
    assert.deepEqual(sessionStartFailure(new Error('session/new refused'), 'ElizACP'), {
      agentName: 'ElizACP',
      message: 'session/new refused',
      exitCode: null,
      signal: null,
      stderrTail: '',
    });
    assert.equal(sessionStartFailure('plain string', 'ElizACP').message, 'plain string');
  });

  it('no folder chosen', () => {
    assert.equal(noFolderFailure().message, 'No workspace folder chosen for this chat.');
    assert.notEqual(noFolderFailure(), noFolderFailure(), 'a fresh object each time');
  });

  it('a failed prompt: interrupted by an exit, else the error message', () => {
    assert.equal(promptFailureText(new AgentExitedError(exited)), 'Interrupted: exited with code 3');
    assert.equal(promptFailureText(new Error('rate limited')), 'rate limited');
    assert.equal(promptFailureText(42), '42');
  });

  it('a setting the session could not honour: one notice per tab, with where to fix it', () => {
    const tab = newChatTab('t1', 'Chat');
    const config = {
      agent: { name: 'ElizACP', command: 'x', args: [], env: {} },
      components: null,
      workspaceFolder: '/w',
      settingProblems: [{ text: 'symposium.currentAgent names "claude"…', target: 'remote' as const }],
    };
    assert.deepEqual(newSettingNotices(tab, config), [
      { type: 'tab-notice', tabId: 't1', level: 'warning', text: 'symposium.currentAgent names "claude"…', settings: 'remote' },
    ]);
    assert.deepEqual(newSettingNotices(tab, config), [], 'said once');
  });
});
