// All workspace folders in one session (ACP `additionalDirectories`) through the real conductor:
// the field reaches the agent through the default chain (whose components inject MCP servers into
// session/new), the extension's client sends it only to an agent that advertises
// `sessionCapabilities.additionalDirectories`, and the fs adapter serves the additional folders
// (and nothing else) when the editor has no fs. Against ElizACP and the pinned claude-agent-acp
// with the scripted model server.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { AgentActor } from '../../src/agents/agentActor';
import { conductorSpawnSpec } from '../../src/agents/agentConfiguration';
import type { AgentDefinition } from '../../src/settings/agentDefinition';
import { silentLog } from '../../src/log/logEvent';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';
import { parseElizaArgs } from '../eliza/main';
import { CONDUCTOR_JS, conductorArgs, elizaCommand, initialize, prompt, startProcess, tempDir, type Harness } from './harness';
import { agentLaunch, agentsInstalled, WITH_REAL_AGENTS } from './realAgents/agents';
import { startScriptedModelServer } from './realAgents/server';
import { readStep } from './realAgents/steps';

const additionalCapability = (init: acp.InitializeResponse): unknown => init.agentCapabilities?.sessionCapabilities?.additionalDirectories;

/** Two folders, each with its own notes file. */
function twoFolders(): { a: string; b: string } {
  const root = tempDir('symposium-two-folders-');
  const a = join(root, 'folder-a');
  const b = join(root, 'folder-b');
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(join(a, 'notes.txt'), 'notes of folder A\n');
  writeFileSync(join(b, 'notes.txt'), 'notes of folder B\n');
  return { a, b };
}

/** The extension's agent actor (its ACP client) in front of the conductor and ElizACP with `flags`. */
function elizaActor(cwd: string, flags: string[]): AgentActor {
  const [command, ...args] = elizaCommand(flags);
  const agent: AgentDefinition = { name: 'ElizACP', command: command!, args, env: {} };
  const rt = { execPath: process.execPath, extensionPath: join(__dirname, '../..') };
  return new AgentActor({
    key: 'k',
    agentName: agent.name,
    spec: conductorSpawnSpec({ agent, components: null, workspaceFolder: cwd }, rt),
    log: silentLog,
    clientInfo: { name: 'test', version: '0' },
    graceMs: 2_000,
    onPermissionRequest: async () => ({ outcome: { outcome: 'cancelled' } }),
  });
}

async function ask(actor: AgentActor, sessionId: string, text: string): Promise<string> {
  let reply = '';
  const sub = actor.onSessionUpdate(({ sessionId: id, update }) => {
    if (id === sessionId && update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && !sparkleMarkOf(update))
      reply += update.content.text;
  });
  try {
    await actor.prompt(sessionId, text);
    await new Promise((r) => setImmediate(r));
    return reply;
  } finally {
    sub.dispose();
  }
}

describe('additionalDirectories through the conductor (process)', function () {
  this.timeout(120_000);
  const open: Harness[] = [];
  const actors: AgentActor[] = [];
  afterEach(async () => {
    await Promise.all([...open.splice(0).map((h) => h.close()), ...actors.splice(0).map((a) => a.stop())]);
  });
  before(function () {
    if (!existsSync(CONDUCTOR_JS)) throw new Error('build first: node esbuild.mjs');
  });

  it('ElizACP advertises it (withheld with --no-additional-directories) and sees the folders the default chain passed on', async () => {
    assert.equal(parseElizaArgs(['--no-additional-directories']).noAdditionalDirectories, true);
    const { a, b } = twoFolders();
    // The default chain: its components inject MCP servers into session/new and must keep the field.
    const h = startProcess(conductorArgs());
    open.push(h);
    assert.deepEqual(additionalCapability(await initialize(h)), {});
    const { sessionId } = await h.conn.agent.request('session/new', { cwd: a, additionalDirectories: [b], mcpServers: [] });
    assert.equal((await prompt(h, sessionId, 'what folders do you see')).text, `I see 2 folders:\n- ${a} (working directory)\n- ${b}`);
    await assert.rejects(h.conn.agent.request('session/new', { cwd: a, additionalDirectories: ['relative/b'], mcpServers: [] }), {
      code: -32602,
    });

    const withheld = startProcess(conductorArgs({ agent: elizaCommand(['--no-additional-directories']) }));
    open.push(withheld);
    assert.equal(additionalCapability(await initialize(withheld)), undefined);
  });

  it("the extension's client sends the other folders only to an agent that takes them", async () => {
    const { a, b } = twoFolders();
    const taking = elizaActor(a, []);
    actors.push(taking);
    const s = await taking.newSession({ cwd: a, additionalDirectories: [b] });
    assert.deepEqual(taking.sessionDirectories([b]), [b]);
    assert.equal(await ask(taking, s.sessionId, 'what folders do you see'), `I see 2 folders:\n- ${a} (working directory)\n- ${b}`);

    const plain = elizaActor(a, ['--no-additional-directories']);
    actors.push(plain);
    const p = await plain.newSession({ cwd: a, additionalDirectories: [b] });
    assert.deepEqual(plain.sessionDirectories([b]), [], 'nothing besides cwd for an agent that does not take them');
    assert.equal(await ask(plain, p.sessionId, 'what folders do you see'), `I see 1 folder:\n- ${a} (working directory)`);
  });

  it('the fs adapter serves the additional folders, and only those, when the editor has no fs', async () => {
    const { a, b } = twoFolders();
    const elsewhere = tempDir('symposium-elsewhere-');
    writeFileSync(join(elsewhere, 'secret.txt'), 'not for the agent\n');
    const h = startProcess(conductorArgs({ components: ['fs-adapter'] }));
    open.push(h);
    await initialize(h);
    const { sessionId } = await h.conn.agent.request('session/new', { cwd: a, additionalDirectories: [b], mcpServers: [] });
    assert.match((await prompt(h, sessionId, 'read file notes.txt in additional folder 1')).text, /notes of folder B/);
    assert.match((await prompt(h, sessionId, `read file ${join(elsewhere, 'secret.txt')}`)).text, /^Error reading .*outside/s);

    // An agent that does not take the field never hears of folder B: the adapter does not serve it either.
    const plain = startProcess(conductorArgs({ components: ['fs-adapter'], agent: elizaCommand(['--no-additional-directories']) }));
    open.push(plain);
    await initialize(plain);
    const other = await plain.conn.agent.request('session/new', { cwd: a, additionalDirectories: [b], mcpServers: [] });
    assert.match((await prompt(plain, other.sessionId, `read file ${join(b, 'notes.txt')}`)).text, /^Error reading .*outside/s);
  });

  describe(WITH_REAL_AGENTS, () => {
    it('claude-agent-acp: with additionalDirectories its Read of a file there runs without asking; without them it asks', async function () {
      if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
      const { a, b } = twoFolders();
      const model = await startScriptedModelServer([readStep('read the notes of folder B', join(b, 'notes.txt'))]);
      const launch = agentLaunch('claude-agent-acp', model.url);
      const asked: acp.RequestPermissionRequest[] = [];
      const h = startProcess(
        conductorArgs({ agent: launch.command, log: 'info' }),
        {
          permission: async (p) => {
            asked.push(p);
            return {
              outcome: { outcome: 'selected', optionId: (p.options.find((o) => o.kind === 'allow_once') ?? p.options[0]!).optionId },
            };
          },
        },
        launch.env,
      );
      open.push(h);
      try {
        assert.deepEqual(additionalCapability(await initialize(h)), {}, 'claude-agent-acp advertises additionalDirectories');
        const { sessionId } = await h.conn.agent.request('session/new', { cwd: a, additionalDirectories: [b], mcpServers: [] });
        await h.conn.agent.request('session/set_mode', { sessionId, modeId: 'default' });
        const answer = await prompt(h, sessionId, 'please read the notes of folder B');
        assert.match(answer.text, /The file says: .*notes of folder B/s);
        assert.equal(asked.length, 0, 'a file in an additional directory is read without asking');
        const calls = model.script.log.flatMap((r) => (r.reply.kind === 'tool' ? [r.reply.name] : []));
        assert.deepEqual(calls, ['Read'], 'Claude read it with its own Read tool');

        // The same read in a session without the folder: outside its directories, so Claude asks first.
        const narrow = await h.conn.agent.request('session/new', { cwd: a, mcpServers: [] });
        await h.conn.agent.request('session/set_mode', { sessionId: narrow.sessionId, modeId: 'default' });
        await prompt(h, narrow.sessionId, 'please read the notes of folder B');
        assert.equal(asked.length, 1, 'outside the session’s directories the read needs a permission');
        assert.equal(asked[0]!.sessionId, narrow.sessionId);
      } finally {
        await model.close();
      }
    });
  });
});
