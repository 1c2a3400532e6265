// Checkpoints with a real agent that changes files by itself: Codex (codex-acp) behind the real
// conductor, against the scripted model server, offline. Its writes never reach the editor's fs/*
// (it runs them itself), yet the turn's "files changed" card lists the file, and Revert takes it
// away again. Needs `node esbuild.mjs` and scripts/test-tools-install.sh.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentLaunch, agentsInstalled } from '../../conductor/test/realAgents/agents';
import { startScriptedModelServer } from '../../conductor/test/realAgents/server';
import { writeStep } from '../../conductor/test/realAgents/steps';
import { tempDir } from '../../conductor/test/harness';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { FilesChanged } from '../protocol/checkpoints';
import { confirmingEditor, setupChat, testCheckpoints, until } from '../test/chatHarness';
import '../../conductor/test/testEnv.setup.cjs';

const ROOT = path.resolve(__dirname, '../..');
const runtime = { execPath: process.execPath, extensionPath: ROOT };

describe('checkpoints with a real agent writing by itself (Codex)', function () {
  this.timeout(180_000);
  before(function () {
    if (!fs.existsSync(path.join(ROOT, 'out/conductor.js'))) throw new Error('build first: node esbuild.mjs');
    if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
  });

  it("lists the file Codex wrote itself on the turn's card, and Revert removes it", async () => {
    const ws = tempDir('symposium-checkpoint-codex-');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'notes\n');
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(ws, 'notes.txt'), past, past);
    const model = await startScriptedModelServer([writeStep('write a greeting file', path.join(ws, 'greeting.txt'), 'hello-from-codex')]);
    const launch = agentLaunch('codex', model.url);
    const config: AgentConfiguration = {
      agent: { name: 'codex', command: launch.command[0]!, args: launch.command.slice(1), env: launch.env },
      components: null,
      workspaceFolder: ws,
    };
    const ctx = setupChat({
      runtime,
      editor: true,
      configure: async () => config,
      checkpoints: (parts) => testCheckpoints(parts, confirmingEditor),
    });
    try {
      const tabId = ctx.webview.newTab();
      ctx.handle(ctx.webview.ready());
      await until(() => ctx.webview.conversation(tabId).agentName !== undefined, 60_000, "codex's session");
      ctx.handle({ type: 'set-mode', tabId, modeId: 'auto' });
      const messageId = randomUUID();
      ctx.handle({ type: 'prompt', tabId, messageId, text: 'now write a greeting file' });
      const card = (): FilesChanged | undefined =>
        ctx.webview.received.find((m): m is FilesChanged & { index: number } => m.type === 'files-changed' && m.messageId === messageId);
      await until(() => !!card(), 90_000, 'the files-changed card');
      assert.equal(fs.readFileSync(path.join(ws, 'greeting.txt'), 'utf8'), 'hello-from-codex');
      assert.deepEqual(ctx.editorRequests, [], 'nothing went through the editor');
      assert.deepEqual(
        card()!.files.map((f) => `${f.kind} ${f.path}`),
        ['added greeting.txt'],
      );
      ctx.handle({
        type: 'checkpoint-action',
        tabId,
        messageId,
        action: 'revert',
        folder: card()!.files[0]!.folder,
        path: 'greeting.txt',
      });
      await until(() => !fs.existsSync(path.join(ws, 'greeting.txt')), 10_000, 'the revert');
      assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'notes\n');

      // Again, then Restore checkpoint on that prompt: the file Codex wrote by itself goes.
      const again = randomUUID();
      ctx.handle({ type: 'prompt', tabId, messageId: again, text: 'now write a greeting file' });
      await until(() => ctx.webview.received.some((m) => m.type === 'files-changed' && m.messageId === again), 90_000, 'the second card');
      assert.ok(fs.existsSync(path.join(ws, 'greeting.txt')));
      ctx.handle({ type: 'checkpoint-action', tabId, messageId: again, action: 'restore' });
      await until(() => !fs.existsSync(path.join(ws, 'greeting.txt')), 20_000, 'the restore');
      assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'notes\n');
    } finally {
      await ctx.controller.dispose();
      await model.close();
    }
  });
});
