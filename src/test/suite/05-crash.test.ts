import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  captureLog,
  cmd,
  expectedReply,
  extension,
  groupMembers,
  groupsUnder,
  newTab,
  openChat,
  rendered,
  tabs,
  waitFor,
  waitForIdle,
  answerText,
} from '../helpers';
import type { SessionControls } from '../../protocol/webview';

interface Proc {
  key: string;
  pid: number | undefined;
  state: string;
}

suite('agent crash and restart', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('a crash shows the exit reason and stderr tail in every affected tab; Restart brings them back', async () => {
    const log = captureLog(await extension().activate());
    try {
      const [a, b] = [await newTab(), await newTab()];
      const oldPid = (await tabs()).find((t) => t.tabId === a)!.agentPid!;
      assert.equal((await tabs()).find((t) => t.tabId === b)!.agentPid, oldPid, 'both tabs share the process');
      const oldGroups = groupsUnder(oldPid);
      const oldSessions = (await tabs()).filter((t) => t.tabId === a || t.tabId === b).map((t) => t.sessionId);

      await cmd('sendPrompt', a, 'crash');
      await waitFor(
        'both tabs to fail',
        async () => (await tabs()).filter((t) => (t.tabId === a || t.tabId === b) && t.failed).length === 2,
      );
      await waitForIdle(a);
      for (const tabId of [a, b]) {
        const items = (await rendered(tabId))!;
        const card = items.find((i) => i.messageId.startsWith('notice:'));
        assert.ok(card, `tab ${tabId} shows the failure`);
        assert.match(card.body, /code \d+/);
        assert.match(card.body, /crash/i, 'stderr tail is shown');
      }
      const died = log.events.find((e) => e.category === 'agent' && e.message === 'process died; informing tabs');
      const informed = (died?.data as { tabs: string[] }).tabs;
      assert.ok(informed.includes(a) && informed.includes(b), 'every tab of the process was informed');
      for (const g of oldGroups) assert.deepEqual(groupMembers(g), [], `nothing of the crashed process group ${g} is left`);

      // A prompt in a failed tab says so instead of hanging.
      const m = await cmd<string>('sendPrompt', b, 'Hello?');
      await waitForIdle(b);
      assert.match((await rendered(b))!.find((i) => i.messageId === `${m}:end`)?.body ?? '', /not running/);

      // The card's Restart button (webview → restart-agent).
      await cmd('postFromWebview', { type: 'restart-agent', tabId: a });
      await waitFor(
        'both tabs to recover',
        async () => (await tabs()).filter((t) => (t.tabId === a || t.tabId === b) && !t.failed && t.sessionId).length === 2,
      );
      const newSessions = (await tabs()).filter((t) => t.tabId === a || t.tabId === b).map((t) => t.sessionId);
      assert.ok(
        newSessions.every((s) => s && !oldSessions.includes(s)),
        'fresh sessions',
      );
      const [pidA, pidB] = [a, b].map(async (t) => (await tabs()).find((i) => i.tabId === t)!.agentPid);
      assert.equal(await pidA, await pidB, 'still one shared process');
      assert.notEqual(await pidA, oldPid);
      assert.ok((await cmd<Proc[]>('getAgentProcesses')).every((p) => p.pid !== oldPid));

      for (const tabId of [a, b]) {
        const messageId = await cmd<string>('sendPrompt', tabId, 'Are you back?');
        await waitForIdle(tabId);
        assert.equal(answerText((await rendered(tabId))!, messageId), expectedReply('Are you back?'));
        const card = (await rendered(tabId))!.find((i) => i.messageId.startsWith('notice:') && /stopped/.test(i.body));
        assert.match(card!.body, /Restarted/, 'the failure card no longer offers Restart');
      }
    } finally {
      log.dispose();
    }
  });

  test('Restart Agent restarts a healthy process too, without orphans', async () => {
    const tabId = await newTab();
    const pids = (await cmd<Proc[]>('getAgentProcesses')).map((p) => p.pid!);
    // The conductor's own group, and the group it started its agent in.
    const groups = pids.flatMap((pid) => groupsUnder(pid));
    assert.ok(groups.length >= 2 * pids.length, 'conductor and agent each run in a process group');
    await vscode.commands.executeCommand('symposium.restartAgent');
    await waitForIdle(tabId);
    for (const g of groups) assert.deepEqual(groupMembers(g), [], `process group ${g} is gone`);
    const messageId = await cmd<string>('sendPrompt', tabId, 'Hello again');
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, messageId), expectedReply('Hello again'));
  });

  test("a restarted tab's new session is put back in the mode the user chose (the agent begins it in its default)", async () => {
    const tabId = await newTab();
    await cmd('postFromWebview', { type: 'set-mode', tabId, modeId: 'architect' });
    await waitFor(
      'the mode',
      async () => (await cmd<SessionControls | undefined>('getSessionControls', tabId))?.modes?.currentModeId === 'architect',
    );
    const before = (await cmd<{ tabId: string; sessionId?: string }[]>('getTabs')).find((t) => t.tabId === tabId)?.sessionId;
    await vscode.commands.executeCommand('symposium.restartAgent');
    await waitFor('a new session', async () => {
      const now = (await cmd<{ tabId: string; sessionId?: string }[]>('getTabs')).find((t) => t.tabId === tabId)?.sessionId;
      return now !== undefined && now !== before;
    });
    await waitForIdle(tabId);
    const messageId = await cmd<string>('sendPrompt', tabId, 'what mode');
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, messageId), 'Mode: architect. Model: eliza-classic.');
    assert.equal(
      (await cmd<SessionControls | undefined>('getSessionControls', tabId))?.modes?.currentModeId,
      'architect',
      'the picker says so',
    );
  });
});
