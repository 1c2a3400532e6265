import * as assert from 'node:assert/strict';
import { STARTUP_FD_VAR as CONDUCTOR_STARTUP_FD_VAR, takeAgentEnv } from '../../conductor/startupEnv';
import { STARTUP_FD_VAR } from '../agents/conductorProcess';
import { conductorSpawnSpec, configurationKey, spawnEnv, agentEnvOf, type AgentConfiguration } from '../agents/agentConfiguration';
import { builtinAgent } from './agentDefinition';
import { parseAgentSettings } from './agentSettings';

const rt = { execPath: '/bin/node', extensionPath: '/ext' };

describe('agent settings and configurations', () => {
  it('defaults to the built-in ElizACP and the conductor’s own components', () => {
    const s = parseAgentSettings({ agents: {}, currentAgent: 'ElizACP', enabledComponents: null }, rt);
    assert.deepEqual(s.current, {
      name: 'ElizACP',
      command: '/bin/node',
      args: ['/ext/out/conductor.js', 'eliza', '--deterministic'],
      env: { ELECTRON_RUN_AS_NODE: '1', MALLOC_TRIM_THRESHOLD_: '131072' },
    });
    assert.equal(s.components, null);
    assert.deepEqual(s.problems, []);
  });

  it('reads agents by name and picks the current one', () => {
    const s = parseAgentSettings(
      {
        agents: {
          claude: { command: 'npx', args: ['claude-code-acp'], env: { DEBUG: '1' } },
          broken: { args: [] },
          badArgs: { command: 'x', args: 'nope' },
        },
        currentAgent: 'claude',
        enabledComponents: ['symposium-info', ' fs-adapter ', ''],
      },
      rt,
    );
    assert.deepEqual(s.current, { name: 'claude', command: 'npx', args: ['claude-code-acp'], env: { DEBUG: '1' } });
    assert.deepEqual(s.components, ['symposium-info', 'fs-adapter']);
    assert.deepEqual(Object.keys(s.agents).sort(), ['ElizACP', 'claude']);
    assert.equal(s.problems.length, 2);
  });

  it('falls back to ElizACP for an unknown current agent, and says so', () => {
    const s = parseAgentSettings({ agents: 'oops', currentAgent: 'ghost', enabledComponents: 'x' }, rt);
    assert.equal(s.current.name, 'ElizACP');
    assert.equal(s.problems.length, 3);
    assert.equal(
      parseAgentSettings({ agents: {}, currentAgent: 'elizacp', enabledComponents: null }, rt).problems.length,
      0,
      'names match case-insensitively',
    );
  });

  it('equal configurations share a key; agent, components or folder make a difference', () => {
    const base: AgentConfiguration = { agent: builtinAgent(rt), components: null, workspaceFolder: '/w' };
    assert.equal(configurationKey(base), configurationKey({ ...base, agent: { ...base.agent } }));
    assert.notEqual(configurationKey(base), configurationKey({ ...base, workspaceFolder: '/other' }));
    assert.notEqual(configurationKey(base), configurationKey({ ...base, components: [] }));
    assert.notEqual(configurationKey(base), configurationKey({ ...base, agent: { ...base.agent, env: { A: '1' } } }));
  });

  it('spawns the conductor with the node running the host, components, then the agent command', () => {
    const agent = { name: 'a', command: 'agent-bin', args: ['--acp'], env: { TOKEN: 't' } };
    assert.deepEqual(conductorSpawnSpec({ agent, components: ['x', 'y'], workspaceFolder: '/w' }, rt), {
      command: '/bin/node',
      args: ['/ext/out/conductor.js', '--components', 'x,y', '--', 'agent-bin', '--acp'],
      env: { ELECTRON_RUN_AS_NODE: '1', MALLOC_TRIM_THRESHOLD_: '131072' },
      unsetEnv: ['NODE_OPTIONS', 'NODE_PATH'],
      cwd: '/w',
      startup: { agentEnv: { TOKEN: 't' }, proxyEnv: {} },
    });
    assert.deepEqual(conductorSpawnSpec({ agent, components: [], workspaceFolder: '/w' }, rt).args.slice(1, 3), ['--components', '']);
    assert.deepEqual(conductorSpawnSpec({ agent, components: null, workspaceFolder: '/w' }, rt).args.slice(1, 2), ['--']);
  });
});

describe("the agent's env stays away from the conductor", () => {
  it("the conductor gets its own clean env; the agent's (NODE_OPTIONS, LD_PRELOAD, ELECTRON_RUN_AS_NODE included) only on the start-up pipe", () => {
    const agent = {
      name: 'a',
      command: 'agent-bin',
      args: [],
      env: { NODE_OPTIONS: '--require /evil.js', LD_PRELOAD: '/evil.so', ELECTRON_RUN_AS_NODE: '', TOKEN: 't' },
    };
    const spec = conductorSpawnSpec({ agent, components: null, workspaceFolder: '/w' }, rt);
    const env = spawnEnv({ PATH: '/bin', NODE_OPTIONS: '--inspect', NODE_PATH: '/x', HOME: '/h' }, spec);
    assert.deepEqual(env, {
      PATH: '/bin',
      HOME: '/h',
      ELECTRON_RUN_AS_NODE: '1',
      MALLOC_TRIM_THRESHOLD_: '131072',
    });
    assert.deepEqual(spec.startup, { agentEnv: agent.env, proxyEnv: {} });
  });

  it('run by hand, the conductor takes SYMPOSIUM_AGENT_ENV out of its environment and hands it to the agent only', () => {
    assert.equal(STARTUP_FD_VAR, CONDUCTOR_STARTUP_FD_VAR, 'both sides name the start-up pipe alike');
    const env: NodeJS.ProcessEnv = { PATH: '/bin', SYMPOSIUM_AGENT_ENV: '{"NODE_OPTIONS":"--require x","A":"1"}' };
    assert.deepEqual(takeAgentEnv(env), { NODE_OPTIONS: '--require x', A: '1' });
    assert.deepEqual(env, { PATH: '/bin' }, 'no child of the conductor inherits it');
    assert.deepEqual(takeAgentEnv({}), {});
    for (const bad of ['nope', '[]', '{"A":1}', '{"A=B":"x"}', '{"":"x"}'])
      assert.throws(() => takeAgentEnv({ SYMPOSIUM_AGENT_ENV: bad }), /SYMPOSIUM_AGENT_ENV/);
  });
});

describe('the workspace trust an agent is told', () => {
  const rt = { execPath: '/usr/bin/node', extensionPath: '/ext' };
  const gemini = { name: 'gemini', command: 'gemini', args: ['--acp'], env: { GEMINI_API_KEY: 'k' } };
  const config = (agent: AgentConfiguration['agent'], workspaceTrusted: boolean): AgentConfiguration => ({
    agent,
    components: null,
    workspaceFolder: '/w',
    workspaceTrusted,
  });
  it('a trusted workspace is said to Gemini CLI (GEMINI_CLI_TRUST_WORKSPACE) in the agent env only; never an untrusted one, never over the user', () => {
    assert.deepEqual(conductorSpawnSpec(config(gemini, true), rt).startup?.agentEnv, {
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_API_KEY: 'k',
    });
    assert.deepEqual(agentEnvOf(config(gemini, false)), { GEMINI_API_KEY: 'k' });
    assert.equal(configurationKey(config(gemini, true)), configurationKey(config(gemini, false)), 'the same process either way');
    const mine = { ...gemini, env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } };
    assert.deepEqual(agentEnvOf(config(mine, true)), { GEMINI_CLI_TRUST_WORKSPACE: 'false' });
    assert.deepEqual(agentEnvOf(config(builtinAgent(rt), true)), builtinAgent(rt).env, 'our own agent needs no word');
  });
});
