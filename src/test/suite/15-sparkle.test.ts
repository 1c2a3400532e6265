// Sparkle in the real extension (code-server): the default chain embodies every new session, the
// chat shows that turn as one collapsed "Sparkle embodiment" section and the user's first prompt
// waits behind it (the tab stays busy) and is then answered as usual; the sparkle tools write where
// SPARKLE_DIR says (scripts/vscode-host-run.sh points it into the run folder); the settings reach
// the conductor's command line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RenderedItem } from '../../protocol/webview';
import { answerText, cmd, expectedReply, extension, openChat, rendered, sleep, waitFor, waitForIdle } from '../helpers';

const section = (items: RenderedItem[]): RenderedItem | undefined => items.find((i) => i.messageId.endsWith(':sparkle'));

suite('sparkle', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('a new chat shows the collapsed Sparkle embodiment section, then the reply to the first prompt', async () => {
    const tabId = await cmd<string>('simulateNewTab');
    const messageId = await cmd<string>('sendPrompt', tabId, 'Hello there');
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    const embodiment = section(items);
    assert.ok(embodiment, `an embodiment section: ${JSON.stringify(items)}`);
    assert.match(embodiment.header ?? '', /Sparkle embodiment/);
    assert.equal(embodiment.details, 'Embodiment received.');
    assert.equal(answerText(items, messageId), expectedReply('Hello there'), 'the answer is the reply alone');
    const order = items.map((i) => i.messageId);
    assert.ok(order.indexOf(embodiment.messageId) < order.indexOf(`${messageId}:0`), 'the section comes before the answer');
    assert.equal(await cmd('hasActivePrompt', tabId), false);
  });

  test('a chat left alone while Sparkle embodies (as a user opens one, then reads) shows the section before any prompt', async () => {
    const tabId = await cmd<string>('simulateNewTab');
    await waitFor('the embodiment section', async () => section((await rendered(tabId)) ?? []) !== undefined, 15_000);
    const embodiment = section((await rendered(tabId))!)!;
    assert.match(embodiment.header ?? '', /Sparkle embodiment/);
    await waitFor('its reply', async () => section((await rendered(tabId))!)?.details === 'Embodiment received.', 15_000);
  });

  test("a prompt sent during a slow embodiment waits (the tab stays busy), then gets its answer; the embodiment never ends the user's turn", async () => {
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await config.update(
      'agents',
      {
        'Slow Sparkle': {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'],
          env: { ELECTRON_RUN_AS_NODE: '1', ELIZACP_EMBODIMENT_DELAY_MS: '1500' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    await config.update('currentAgent', 'Slow Sparkle', vscode.ConfigurationTarget.Global);
    try {
      const tabId = await cmd<string>('simulateNewTab');
      const messageId = await cmd<string>('sendPrompt', tabId, 'I feel a little anxious about my code');
      await sleep(700);
      assert.equal(await cmd('hasActivePrompt', tabId), true, 'the prompt is still running while Sparkle embodies');
      assert.equal(answerText((await rendered(tabId))!, messageId), '', 'no answer yet');
      await waitForIdle(tabId);
      const items = (await rendered(tabId))!;
      assert.equal(section(items)?.details, 'Embodiment received.');
      assert.equal(answerText(items, messageId), expectedReply('I feel a little anxious about my code'));
      assert.ok(!items.some((i) => i.messageId === `${messageId}:end`), 'ended normally (no Stopped / failed card)');
    } finally {
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('save_insight through the injected server lands in the Sparkle home; core mode from the settings leaves the workspace alone', async () => {
    const home = process.env.SPARKLE_DIR;
    assert.ok(home, 'scripts/vscode-host-run.sh sets SPARKLE_DIR');
    const config = vscode.workspace.getConfiguration('symposium');
    await config.update('sparkle.mode', 'core', vscode.ConfigurationTarget.Global);
    try {
      const tabId = await cmd<string>('simulateNewTab');
      await waitForIdle(tabId);
      const list = await cmd<string>('sendPrompt', tabId, 'list tools from sparkle');
      await waitForIdle(tabId);
      assert.doesNotMatch(answerText((await rendered(tabId))!, list), /session_checkpoint/, 'core mode: no session_checkpoint');
      const save = await cmd<string>(
        'sendPrompt',
        tabId,
        'use tool sparkle::save_insight with {"insight_type":"WorkspaceInsight","content":"The host test was here."}',
      );
      await waitForIdle(tabId);
      assert.match(answerText((await rendered(tabId))!, save), /Insight saved \(WorkspaceInsight\)/);
      await waitFor(
        'the insight on disk',
        () =>
          fs.existsSync(path.join(home, 'workspace-map.md')) &&
          /The host test was here\./.test(fs.readFileSync(path.join(home, 'workspace-map.md'), 'utf8')),
      );
      const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      assert.equal(fs.existsSync(path.join(ws, '.sparkle-space')), false);
    } finally {
      await config.update('sparkle.mode', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
