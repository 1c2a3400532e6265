// session/fork (unstable in the ACP schema) through the real conductor: it sets a session up like
// session/new (a new id, in the answer), so every component that serves sessions learns the fork:
// the injected MCP servers (symposium-ide), the ide-lsp adapter's and the fs adapter's folder. The
// fork remembers the conversation it copied. Against ElizACP `--fork` and each pinned agent that
// offers fork (claude-code-acp, claude-agent-acp, OpenCode) with the scripted model server.
import * as assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { parseElizaArgs } from '../eliza/main';
import { CONDUCTOR_JS, conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';
import { agentLaunch, agentsInstalled, type AgentId, WITH_REAL_AGENTS } from './realAgents/agents';
import { startScriptedModelServer } from './realAgents/server';
import { mcpStep, recallStep } from './realAgents/steps';

const CODEWORD = 'zebra-42';
/** The pinned agents that advertise `sessionCapabilities.fork`. */
const FORKING_AGENTS: AgentId[] = ['claude-code-acp', 'claude-agent-acp', 'opencode'];

/** `session/fork` as a client sends it (the SDK's stable client has no typed method for it). */
async function fork(h: Harness, sessionId: string, cwd: string): Promise<string> {
  const r = (await h.conn.agent.request('session/fork', { sessionId, cwd, mcpServers: [] } as never)) as unknown;
  const id = (r as { sessionId?: unknown }).sessionId;
  assert.equal(typeof id, 'string', 'session/fork answers the new session id');
  return id as string;
}

/** `agentCapabilities.sessionCapabilities.fork` (unstable: not in the stable SDK's types). */
const forkCapability = (init: acp.InitializeResponse): unknown =>
  (init.agentCapabilities?.sessionCapabilities as { fork?: unknown } | undefined)?.fork;

describe('session/fork through the conductor (process)', function () {
  this.timeout(120_000);
  const open: Harness[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  before(function () {
    if (!existsSync(CONDUCTOR_JS)) throw new Error('build first: node esbuild.mjs');
  });

  it('ElizACP parses --fork; without it, fork is neither advertised nor answered', async () => {
    assert.equal(parseElizaArgs(['--fork']).fork, true);
    const h = startProcess(conductorArgs({ components: ['symposium-info'] }));
    open.push(h);
    const init = await initialize(h);
    assert.equal(forkCapability(init), undefined);
    const sessionId = await newSession(h, tempDir());
    await assert.rejects(fork(h, sessionId, tempDir()), { code: -32601 });
  });

  it('the editor edge refuses a fork without an absolute folder or a session id', async () => {
    const h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand(['--fork']) }));
    open.push(h);
    await initialize(h);
    const sessionId = await newSession(h, tempDir());
    await assert.rejects(fork(h, sessionId, 'relative/folder'), { code: -32602, message: /absolute "cwd"/ });
    await assert.rejects(h.conn.agent.request('session/fork', { cwd: tempDir(), mcpServers: [] } as never), {
      code: -32602,
      message: /"sessionId"/,
    });
  });

  it('ElizACP --fork: a new session that remembers the earlier prompts, with the injected tools and its folder known', async () => {
    const ws = tempDir('symposium-ws-fork-');
    writeFileSync(join(ws, 'notes.txt'), 'the secret word is pelican\n');
    // A client with neither fs nor IDE operations: the fs adapter and the ide-lsp adapter serve them.
    const h = startProcess(conductorArgs({ components: ['fs-adapter', 'ide-operations'], agent: elizaCommand(['--fork']) }));
    open.push(h);
    const init = await initialize(h);
    assert.deepEqual(forkCapability(init), {});
    const original = await newSession(h, ws);
    await prompt(h, original, `please remember the codeword ${CODEWORD}`);

    const forked = await fork(h, original, ws);
    assert.notEqual(forked, original);
    assert.equal((await prompt(h, forked, `did I say ${CODEWORD}?`)).text, `Yes: you said "${CODEWORD}" earlier in this session.`);
    assert.equal((await prompt(h, forked, 'session info')).text, `Session ${forked}, prompt 3.`, 'the prompt count is copied too');
    // The fork's own folder is known to the ide-lsp adapter, through the symposium-ide server injected into the fork.
    const lines = await prompt(h, forked, 'use tool symposium-ide::ide_operation with {"program":"lines(\\"notes.txt\\", 1, 1)"}');
    assert.match(lines.text, /the secret word is pelican/);
    // ...and to the fs adapter, which serves the fork's fs/read_text_file.
    assert.match((await prompt(h, forked, 'read file notes.txt')).text, /pelican/);

    // The original goes on apart: what was said in the fork is not in it.
    await prompt(h, forked, 'the fork alone heard about walrus-7');
    assert.match((await prompt(h, original, 'did I say walrus-7?')).text, /^No:/);
  });

  describe(WITH_REAL_AGENTS, () => {
    for (const id of FORKING_AGENTS)
      it(`a real agent that offers fork (${id}): the fork answers from the earlier conversation and calls symposium-ide`, async function () {
        if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
        const ws = tempDir('symposium-ws-fork-real-');
        writeFileSync(join(ws, 'shapes.ts'), 'export class Circle {\n  radius = 1;\n}\n');
        const model = await startScriptedModelServer([
          { when: 'remember the codeword', text: 'Noted.' },
          recallStep('what was the codeword', CODEWORD),
          mcpStep('where is Circle defined', 'symposium-ide', 'find_definitions', { symbol: 'Circle' }),
        ]);
        const launch = agentLaunch(id, model.url);
        const allowOnce = async (p: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> => ({
          outcome: { outcome: 'selected', optionId: (p.options.find((o) => o.kind === 'allow_once') ?? p.options[0]!).optionId },
        });
        const h = startProcess(conductorArgs({ agent: launch.command, log: 'info' }), { permission: allowOnce }, launch.env);
        // claude-agent-acp starts in "auto", where a classifier (a model call of its own) decides what
        // may run; its "Manual" mode asks, as a cautious user would set it (in each session it sets up).
        const manual = async (sessionId: string): Promise<void> => {
          if (id === 'claude-agent-acp') await h.conn.agent.request('session/set_mode', { sessionId, modeId: 'default' });
        };
        open.push(h);
        try {
          const init = await h.conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
          assert.ok(forkCapability(init), `${id} advertises sessionCapabilities.fork`);
          const original = await newSession(h, ws);
          await manual(original);
          await prompt(h, original, `please remember the codeword ${CODEWORD}`);
          const embodiments = (): number => model.script.log.filter((r) => r.userText.includes('# Sparkle embodiment')).length;
          const embodiedOnce = embodiments();
          assert.ok(embodiedOnce > 0, 'the original session was embodied (before its first prompt)');

          const forked = await fork(h, original, ws);
          assert.notEqual(forked, original);
          await manual(forked);
          assert.match((await prompt(h, forked, 'what was the codeword?')).text, new RegExp(`You told me the codeword ${CODEWORD}`));
          assert.match((await prompt(h, forked, 'where is Circle defined?')).text, /The tool answered: .*shapes\.ts/s);
          // Sparkle gave the fork its server but did not embody it again: the copied context has the embodiment.
          assert.equal(embodiments(), embodiedOnce, 'no embodiment prompt for the fork');
        } finally {
          await model.close();
        }
      });
  });
});
