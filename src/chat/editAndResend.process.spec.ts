// "Edit and resend" in the host's chat logic (src/test/chatHarness.ts with real checkpoints), each
// agent behind the real conductor: the earlier prompt's checkpoint is restored, then an agent that
// offers session/fork continues in a fork of the tab's session (it remembers the whole
// conversation, and the tab says so), any other in a new session (it remembers nothing, and the
// tab says that). ElizACP with and without `--fork`, and Claude Code's ACP adapter against the
// scripted model server. Needs `node esbuild.mjs` and scripts/test-tools-install.sh.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentLaunch, agentsInstalled, WITH_REAL_AGENTS } from '../../conductor/test/realAgents/agents';
import { startScriptedModelServer } from '../../conductor/test/realAgents/server';
import { recallStep } from '../../conductor/test/realAgents/steps';
import { tempDir } from '../../conductor/test/harness';
import { builtinAgent, type AgentDefinition } from '../settings/agentDefinition';
import type { TabId } from '../protocol/webview';
import { confirmingEditor, setupChat, testCheckpoints, until } from '../test/chatHarness';
import { RESEND_FORK_NOTICE, RESEND_NOTICE } from './editAndResend';
import '../../conductor/test/testEnv.setup.cjs';

const ROOT = path.resolve(__dirname, '../..');
const runtime = { execPath: process.execPath, extensionPath: ROOT };
const CODEWORD = 'zebra-42';

/** A chat on `agent` in `ws`, with checkpoints whose restore the user confirms. */
function openChat(agent: AgentDefinition, ws: string) {
  const ctx = setupChat({
    runtime,
    editor: true,
    configure: async () => ({ agent, components: null, workspaceFolder: ws }),
    checkpoints: (parts) => testCheckpoints(parts, confirmingEditor),
  });
  const tabId = ctx.webview.newTab();
  ctx.handle(ctx.webview.ready());
  /** Sends a prompt (an edit of `resendOf`, if given) and waits for its answer. */
  const ask = async (text: string, resendOf?: string, timeoutMs = 30_000): Promise<string> => {
    const messageId = randomUUID();
    ctx.handle({ type: 'prompt', tabId, messageId, text, ...(resendOf ? { resendOf } : {}) });
    await until(() => ctx.webview.indicesOf(tabId, 'prompt-ended', messageId).length > 0, timeoutMs, `the answer to "${text}"`);
    return ctx.webview.answer(tabId, messageId);
  };
  const turnId = (text: string): string => ctx.webview.turns(tabId).find((t) => t.prompt === text)!.messageId;
  return { ctx, tabId, ask, turnId, notices: () => tabNotices(ctx.webview.received, tabId) };
}

const tabNotices = (received: ReturnType<typeof setupChat>['webview']['received'], tabId: TabId): string[] =>
  received.flatMap((m) => (m.type === 'tab-notice' && m.tabId === tabId ? [m.text] : []));

const eliza = (flags: string[]): AgentDefinition => {
  const agent = builtinAgent(runtime);
  return { ...agent, args: [...agent.args, ...flags] };
};

describe('Edit and resend: a fork of the session where the agent offers one, else a new session', function () {
  this.timeout(180_000);
  before(function () {
    if (!fs.existsSync(path.join(ROOT, 'out/conductor.js'))) throw new Error('build first: node esbuild.mjs');
  });

  it('ElizACP --fork: the files are restored, the edited prompt runs in a fork that remembers every turn, and the tab says so', async () => {
    const ws = tempDir('symposium-resend-fork-');
    const chat = openChat(eliza(['--fork']), ws);
    try {
      await chat.ask(`please remember the codeword ${CODEWORD}`);
      const before = await chat.ask('session info');
      await chat.ask(`save file ${path.join(ws, 'later.txt')} with written-later`);
      assert.equal(fs.readFileSync(path.join(ws, 'later.txt'), 'utf8'), 'written-later');

      const edited = chat.turnId(`save file ${path.join(ws, 'later.txt')} with written-later`);
      assert.equal(await chat.ask(`did I say ${CODEWORD}?`, edited), `Yes: you said "${CODEWORD}" earlier in this session.`);
      assert.ok(!fs.existsSync(path.join(ws, 'later.txt')), "the prompt's checkpoint was restored: the later file is gone");
      assert.deepEqual(chat.notices().slice(-1), [RESEND_FORK_NOTICE]);
      // A fork, not the old session: a new session id that still remembers the turn after the edited prompt.
      const after = await chat.ask('session info');
      assert.notEqual(/Session (\S+),/.exec(after)?.[1], /Session (\S+),/.exec(before)?.[1]);
      assert.match(await chat.ask('did I say written-later?'), /^Yes:/, 'the fork copied the later turns too (the notice says so)');
    } finally {
      await chat.ctx.controller.dispose();
    }
  });

  it('ElizACP without fork: the edited prompt runs in a new session that remembers nothing, and the tab says so', async () => {
    const ws = tempDir('symposium-resend-new-');
    const chat = openChat(eliza([]), ws);
    try {
      await chat.ask(`please remember the codeword ${CODEWORD}`);
      chat.ctx.handle({ type: 'set-mode', tabId: chat.tabId, modeId: 'code' });
      await until(() => chat.ctx.webview.received.some((m) => m.type === 'controls-changed'), 10_000, 'the mode changed');
      await chat.ask('I feel tired');
      assert.equal(
        await chat.ask(`did I say ${CODEWORD}?`, chat.turnId('I feel tired')),
        `No: you did not say "${CODEWORD}" earlier in this session.`,
      );
      assert.deepEqual(chat.notices().slice(-1), [RESEND_NOTICE]);
      assert.ok(!chat.notices().includes(RESEND_FORK_NOTICE));
      // The new session began in ElizACP's default mode (ask): the tab's mode was chosen again.
      assert.equal(await chat.ask('what mode'), 'Mode: code. Model: eliza-classic.');
    } finally {
      await chat.ctx.controller.dispose();
    }
  });

  describe(WITH_REAL_AGENTS, () => {
    it('a real agent that forks (claude-code-acp): its model sees the earlier conversation after Edit and resend', async () => {
      if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
      const ws = tempDir('symposium-resend-claude-');
      const model = await startScriptedModelServer([
        { when: 'remember the codeword', text: 'Noted.' },
        { when: 'what colour is the sky', text: 'Blue.' },
        recallStep('what was the codeword', CODEWORD),
      ]);
      const launch = agentLaunch('claude-code-acp', model.url);
      const chat = openChat({ name: 'claude-code-acp', command: launch.command[0]!, args: launch.command.slice(1), env: launch.env }, ws);
      try {
        await chat.ask(`please remember the codeword ${CODEWORD}`, undefined, 90_000);
        await chat.ask('what colour is the sky?', undefined, 90_000);
        const requestsBefore = model.script.log.length;
        const answer = await chat.ask('what was the codeword?', chat.turnId('what colour is the sky?'), 90_000);
        assert.match(answer, new RegExp(`You told me the codeword ${CODEWORD}`));
        assert.ok(model.script.log.length > requestsBefore, 'the resent prompt reached the model');
        assert.deepEqual(chat.notices().slice(-1), [RESEND_FORK_NOTICE]);
      } finally {
        await chat.ctx.controller.dispose();
        await model.close();
      }
    });

    it('claude-agent-acp forks in its default mode: the mode the user chose for the tab is chosen again in the fork', async () => {
      if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
      const ws = tempDir('symposium-resend-claude-agent-');
      const model = await startScriptedModelServer([
        { when: 'remember the codeword', text: 'Noted.' },
        { when: 'what colour is the sky', text: 'Blue.' },
        recallStep('what was the codeword', CODEWORD),
      ]);
      const launch = agentLaunch('claude-agent-acp', model.url);
      const chat = openChat({ name: 'claude-agent-acp', command: launch.command[0]!, args: launch.command.slice(1), env: launch.env }, ws);
      const modeNow = (): unknown => {
        const c = chat.ctx.webview.conversation(chat.tabId).controls;
        return c?.configOptions?.find((o) => o.category === 'mode')?.currentValue ?? c?.modes?.currentModeId;
      };
      try {
        await until(() => modeNow() === 'auto', 60_000, 'the session in its default mode');
        chat.ctx.handle({ type: 'set-config-option', tabId: chat.tabId, configId: 'mode', value: 'default' });
        await until(() => modeNow() === 'default', 20_000, 'Manual chosen');
        await chat.ask(`please remember the codeword ${CODEWORD}`, undefined, 90_000);
        await chat.ask('what colour is the sky?', undefined, 90_000);
        const answer = await chat.ask('what was the codeword?', chat.turnId('what colour is the sky?'), 90_000);
        assert.match(answer, new RegExp(`You told me the codeword ${CODEWORD}`));
        assert.deepEqual(chat.notices().slice(-1), [RESEND_FORK_NOTICE]);
        assert.equal(modeNow(), 'default', 'still Manual in the fork');
      } finally {
        await chat.ctx.controller.dispose();
        await model.close();
      }
    });
  });
});
