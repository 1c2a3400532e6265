import * as assert from 'node:assert/strict';
import { formatLogLine } from '../protocol/logLine';
import { agentStderrLines, noticeIfSlow, slowStartNotice } from './slowStart';

const stderr = [
  formatLogLine('info', 'conductor', 'starting agent'),
  formatLogLine('info', 'conductor/agent/stderr', 'Usage: tool [options]'),
  'a line the conductor did not write',
  formatLogLine('info', 'conductor/agent/stderr', '   '),
  formatLogLine('info', 'conductor/agent/stderr', 'Waiting for input…'),
].join('\n');

describe('slow start: what a tab says when its agent has not started a session', () => {
  it("reads the agent's own stderr lines from the conductor's, the last ones", () => {
    assert.deepEqual(agentStderrLines(stderr), ['Usage: tool [options]', 'Waiting for input…']);
    assert.deepEqual(agentStderrLines(stderr, 1), ['Waiting for input…']);
    assert.deepEqual(agentStderrLines(''), []);
  });

  it('names the unanswered step, what runs and what it printed, and offers the settings', () => {
    const notice = slowStartNotice(
      'tab-1',
      { currentState: 'starting', stderrText: () => stderr },
      { name: 'My Agent', command: 'node', args: ['/opt/my agent/cli.js'] },
      20_000,
    );
    assert.equal(notice.type, 'tab-notice');
    if (notice.type !== 'tab-notice') return;
    assert.equal(notice.level, 'warning');
    assert.equal(notice.settings, 'user');
    assert.match(notice.text, /^My Agent has not started a session after 20 s: its process runs but has not answered ACP’s initialize\./);
    assert.match(notice.text, /It runs: node "\/opt\/my agent\/cli\.js"/);
    assert.match(notice.text, /It last printed: Usage: tool \[options\] \/ Waiting for input…/);
    const later = slowStartNotice('tab-1', { currentState: 'running', stderrText: () => '' }, { name: 'A', command: 'a', args: [] }, 5_000);
    assert.ok(later.type === 'tab-notice' && /after 5 s: it started but has not answered session\/new/.test(later.text));
    assert.ok(later.type === 'tab-notice' && later.text.includes('It has printed nothing.'));
  });

  it('notifies only when the work is still running at the deadline, and passes its outcome on', async () => {
    let told = 0;
    assert.equal(await noticeIfSlow(Promise.resolve(7), 20, () => told++), 7);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(told, 0);
    const slow = new Promise<string>((r) => setTimeout(() => r('done'), 60));
    assert.equal(await noticeIfSlow(slow, 10, () => told++), 'done');
    assert.equal(told, 1);
    await assert.rejects(
      noticeIfSlow(Promise.reject(new Error('refused')), 1_000, () => told++),
      /refused/,
    );
    assert.equal(told, 1);
  });
});
