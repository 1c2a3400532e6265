// The agent actor against real processes: out/conductor.js in front of ElizACP (build first:
// `node esbuild.mjs`). Checks the lifecycle the chat relies on: start, sessions, streaming,
// cancel, crash reporting, and a stop that leaves no process behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { respond } from '../../conductor/eliza/engine';
import { STORY } from '../../conductor/eliza/demos';
import { silentLog } from '../log/logEvent';
import type { AgentFailure } from '../protocol/webview';
import { groupMembers, groupsUnder } from '../test/processGroup';
import { AgentActor } from './agentActor';
import { AgentExitedError } from './agentEnd';
import { conductorSpawnSpec } from './agentConfiguration';
import { builtinAgent, type Runtime } from '../settings/agentDefinition';
import { sparkleMarkOf } from '../protocol/symposium-ext';
// A temp Sparkle home for the conductors these tests start (also when run alone, without .mocharc).
import '../../conductor/test/testEnv.setup.cjs';
import { builtBundle } from '../../conductor/test/builtBundle';

const ROOT = path.resolve(__dirname, '../..');
const rt: Runtime = { execPath: process.execPath, extensionPath: ROOT };

function makeActor(overrides: Partial<{ command: string; graceMs: number }> = {}): AgentActor {
  const agent = builtinAgent(rt);
  const spec = conductorSpawnSpec({ agent, components: null, workspaceFolder: ROOT }, rt);
  if (overrides.command) spec.command = overrides.command;
  return new AgentActor({
    key: 'k',
    agentName: agent.name,
    spec,
    log: silentLog,
    clientInfo: { name: 'test', version: '0' },
    graceMs: overrides.graceMs ?? 2_000,
    onPermissionRequest: async () => ({ outcome: { outcome: 'cancelled' } }),
  });
}

/** Answer text; Sparkle's embodiment turn (default chain) is not part of any answer. */
const textOf = (u: SessionUpdate): string =>
  u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' && !sparkleMarkOf(u) ? u.content.text : '';

describe('AgentActor (conductor + ElizACP processes)', function () {
  this.timeout(30_000);
  before(() => builtBundle('conductor.js'));
  let actor: AgentActor | undefined;
  afterEach(async () => {
    await actor?.stop();
    actor = undefined;
  });

  it('streams the exact deterministic reply, with separate concurrent sessions in one process', async () => {
    actor = makeActor();
    const texts = new Map<string, string>();
    actor.onSessionUpdate(({ sessionId, update }) => texts.set(sessionId, (texts.get(sessionId) ?? '') + textOf(update)));
    const [{ sessionId: s1 }, { sessionId: s2 }] = await Promise.all([actor.newSession({ cwd: ROOT }), actor.newSession({ cwd: ROOT })]);
    assert.notEqual(s1, s2);
    const [r1, r2] = await Promise.all([actor.prompt(s1, 'Hello there'), actor.prompt(s2, 'I feel tired')]);
    assert.equal(r1, 'end_turn');
    assert.equal(r2, 'end_turn');
    assert.equal(texts.get(s1), respond('Hello there', { deterministic: true }));
    assert.equal(texts.get(s2), respond('I feel tired', { deterministic: true }));
  });

  it('cancels a long streamed reply', async () => {
    actor = makeActor();
    const s = (await actor.newSession({ cwd: ROOT })).sessionId;
    let text = '';
    actor.onSessionUpdate(({ update }) => {
      text += textOf(update);
    });
    const turn = actor.prompt(s, 'tell me a long story');
    await new Promise<void>((r) => {
      const sub = actor!.onSessionUpdate(() => (text.length > 0 ? (sub.dispose(), r()) : undefined));
    });
    actor.cancel(s);
    assert.equal(await turn, 'cancelled');
    assert.ok(text.length > 0 && text.length < STORY.join('').length, 'stopped part-way');
  });

  it('reports a crash once, with exit code and stderr tail, and fails the running prompt', async () => {
    actor = makeActor();
    const failures: AgentFailure[] = [];
    actor.onDidFail((f) => failures.push(f));
    const s = (await actor.newSession({ cwd: ROOT })).sessionId;
    await assert.rejects(actor.prompt(s, 'crash'), AgentExitedError);
    await new Promise((r) => setTimeout(r, 300)); // a second report would come meanwhile
    assert.equal(failures.length, 1);
    assert.match(failures[0]!.message, /exit/i);
    assert.notEqual(failures[0]!.exitCode, 0);
    assert.match(failures[0]!.stderrTail, /crash/i);
    assert.equal(actor.currentState, 'exited');
    await assert.rejects(actor.newSession({ cwd: ROOT }), AgentExitedError);
  });

  it('stop() ends the conductor and its agent: no process of the group survives', async () => {
    actor = makeActor();
    const s = (await actor.newSession({ cwd: ROOT })).sessionId;
    const pid = actor.pid!;
    // The conductor starts its agent in a process group of the agent's own (conductor/agentProcess.ts).
    const agentGroups = groupsUnder(pid).filter((g) => g !== pid);
    assert.ok(groupMembers(pid).length >= 1 && agentGroups.length >= 1, 'conductor and agent are running');
    const failures: AgentFailure[] = [];
    actor.onDidFail((f) => failures.push(f));
    void actor.prompt(s, 'tell me a long story').catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    await actor.stop();
    assert.deepEqual(groupMembers(pid), []);
    for (const g of agentGroups) assert.deepEqual(groupMembers(g), [], "the agent's group is gone too");
    assert.equal(failures.length, 0, 'a requested stop is not a failure');
  });

  it("the agent's env (NODE_OPTIONS too) reaches the agent only, never the conductor, not even its start-up environment; the host's NODE_OPTIONS is not inherited", async () => {
    // Every Node process that starts with this NODE_OPTIONS writes its argv and env into `seen`.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-env-'));
    const seen = path.join(dir, 'seen.jsonl');
    const preload = path.join(dir, 'preload.cjs');
    fs.writeFileSync(
      preload,
      `require('fs').appendFileSync(${JSON.stringify(seen)}, JSON.stringify({ argv: process.argv.slice(2), token: process.env.AGENT_TOKEN ?? null, carrier: process.env.SYMPOSIUM_AGENT_ENV ?? null }) + '\\n');`,
    );
    const hostPreload = path.join(dir, 'host-preload.cjs');
    fs.writeFileSync(
      hostPreload,
      `require('fs').appendFileSync(${JSON.stringify(seen)}, JSON.stringify({ host: true, argv: process.argv.slice(2) }) + '\\n');`,
    );
    const base = builtinAgent(rt);
    const token = `agent-token-${process.pid}-${Date.now()}`;
    const agent = { ...base, env: { ...base.env, NODE_OPTIONS: `--require ${preload}`, AGENT_TOKEN: token } };
    const previous = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `--require ${hostPreload}`;
    try {
      actor = new AgentActor({
        key: 'k',
        agentName: agent.name,
        spec: conductorSpawnSpec({ agent, components: null, workspaceFolder: ROOT }, rt),
        log: silentLog,
        clientInfo: { name: 'test', version: '0' },
        onPermissionRequest: async () => ({ outcome: { outcome: 'cancelled' } }),
      });
      await actor.newSession({ cwd: ROOT });
    } finally {
      if (previous === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = previous;
    }
    // What the conductor was started with stays readable in /proc for its whole life (a workspace
    // file linked to /proc/self/environ, read by the conductor, would show it): no agent value there.
    const startEnv = fs.readFileSync(`/proc/${actor.pid!}/environ`, 'utf8');
    for (const value of [token, preload]) assert.ok(!startEnv.includes(value), `the conductor started with ${value} in its environment`);
    assert.match(startEnv, /(^|\0)SYMPOSIUM_STARTUP_FD=4\0/, 'only the number of the pipe they came on');
    const lines = fs
      .readFileSync(seen, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { host?: true; argv: string[]; token: string | null; carrier: string | null });
    assert.deepEqual(
      lines,
      [{ argv: ['eliza', '--deterministic'], token, carrier: null }],
      'only the agent started with them; the conductor (argv "--", …) did not',
    );
  });

  it('a command that cannot start is reported, not thrown later', async () => {
    actor = makeActor({ command: '/nonexistent/node' });
    await assert.rejects(actor.start(), (e: unknown) => e instanceof AgentExitedError && /could not be started/.test(e.message));
  });
});
