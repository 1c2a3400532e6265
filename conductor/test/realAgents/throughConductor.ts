// The agents people run — Claude Code (both ACP adapters), Gemini CLI, Qwen Code, Codex and
// OpenCode — through the conductor's default chain, driven by a raw ACP client over real pipes,
// each against the scripted model server (offline, deterministic). Needs the pinned agents of
// scripts/test-tools-install.sh (npm test installs them) and `node esbuild.mjs`. The suites are
// defined here and run from realAgents.<agents>.process.spec.ts, a few agents per file, so that
// the tier's parallel workers take them side by side (each waits mostly on its agents).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { runInFolder } from '../../../src/mcp/mcpConfig';
import { TSX_IMPORT } from '../../eliza/test-harness';
import { CONDUCTOR_JS, conductorArgs, startProcess, tempDir, waitFor, type Harness } from '../harness';
import { agentLaunch, agentsInstalled, type AgentId, type AgentLaunch } from './agents';
import { writeCompat } from './compat';
import { startScriptedModelServer, type ScriptedModelServer } from './server';
import { mcpStep, mcpToolNames, readStep, recallStep, shellStep, writeStep } from './steps';

/** Agents that list MCP tools only after the model looks them up (ToolSearch / tool_search). */
const DEFERRED_MCP = new Set<AgentId>(['claude-agent-acp', 'qwen']);

const MCP_FIXTURE = join(__dirname, '..', '..', 'eliza', 'fixtures', 'mcp-stdio-server.ts');
const HELLO = 'Hello from the scripted model, in a few streamed chunks for the chat.';
const CODEWORD = 'zebra-42';

interface Run {
  h: Harness;
  model: ScriptedModelServer;
  ws: string;
  sessionId: string;
  permissions: acp.RequestPermissionRequest[];
}

/** What a restarted editor keeps: the folder, the model, the agent's own home (its stored sessions). */
interface Kept {
  model: ScriptedModelServer;
  ws: string;
  launch: AgentLaunch;
}

/** The conductor and its agent, initialized like a client without fs; a new session unless `kept` (a restart). */
async function start(
  id: AgentId,
  kept?: Kept,
): Promise<Run & { kept: Kept; capabilities: acp.AgentCapabilities | undefined; startedAt: number }> {
  const ws = kept?.ws ?? tempDir(`symposium-ws-${id}-`);
  if (!kept) {
    writeFileSync(join(ws, 'notes.txt'), 'the secret word is pelican\n');
    mkdirSync(join(ws, 'src'));
    mkdirSync(join(ws, 'tools'));
    writeFileSync(join(ws, 'src', 'shapes.ts'), 'export class Circle {\n  radius = 1;\n}\n');
  }
  const model =
    kept?.model ??
    (await startScriptedModelServer([
      { when: 'say hello', text: HELLO },
      readStep('read the notes', join(ws, 'notes.txt')),
      writeStep('write a greeting file', join(ws, 'greeting.txt'), 'hello-from-the-agent'),
      shellStep('run the echo command', 'echo hi-from-shell'),
      mcpStep('where is Circle defined', 'symposium-ide', 'find_definitions', { symbol: 'Circle' }),
      mcpStep('where does the probe run', 'folder-probe', 'cwd', {}),
      recallStep('what was the codeword', CODEWORD),
    ]));
  const launch = kept?.launch ?? agentLaunch(id, model.url);
  const permissions: acp.RequestPermissionRequest[] = [];
  const h = startProcess(
    conductorArgs({ agent: launch.command, log: 'debug' }),
    {
      permission: async (p) => {
        permissions.push(p);
        const allow = p.options.find((o) => o.kind === 'allow_once') ?? p.options.find((o) => o.kind.startsWith('allow'))!;
        return { outcome: { outcome: 'selected', optionId: allow.optionId } };
      },
    },
    launch.env,
  );
  const init = await h.conn.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    // A client without fs, like acpx or a minimal editor: the conductor's fs adapter serves files.
    clientCapabilities: {},
    clientInfo: { name: 'symposium-tests', version: '0' },
  });
  const base = { h, model, ws, permissions, kept: { model, ws, launch }, capabilities: init.agentCapabilities, startedAt: Date.now() };
  if (kept) return { ...base, sessionId: '' };
  const { sessionId } = await h.conn.agent.request('session/new', { cwd: ws, mcpServers: userServers(ws) });
  // claude-agent-acp starts in "auto", where a classifier (a model call of its own) decides what may
  // run; its "Manual" mode asks, as a cautious user would set it.
  if (id === 'claude-agent-acp') await h.conn.agent.request('session/set_mode', { sessionId, modeId: 'default' });
  return { ...base, sessionId };
}

/**
 * A user's stdio server whose mcp.json gives it another folder to run in, declared as the extension
 * declares it (src/mcp/userMcpServers.ts): ACP has no cwd, so `sh` changes folder first.
 */
function userServers(ws: string): acp.McpServer[] {
  const command = { name: 'folder-probe', command: process.execPath, args: ['--import', TSX_IMPORT, MCP_FIXTURE], env: [] };
  return [runInFolder(command, join(ws, 'tools'))];
}

/** What the conductor logged of one of its MCP servers' requests (with `log: 'debug'`). */
const mcpLog = (run: Run, server: string): string =>
  run.h
    .stderr()
    .split('\n')
    .filter((l) => l.includes(`MCP "${server}"`) || l.includes(`MCP server "${server}"`))
    .join('\n');

const minuteOf = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

/** Whether a process is alive (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Every process under `pid`, from /proc (children's children included). */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parentOf)
      if ((parent === pid || out.includes(parent)) && !out.includes(child)) {
        out.push(child);
        grew = true;
      }
  }
  return out;
}

async function ask(run: Run, text: string): Promise<string> {
  const r = await run.h.conn.agent.request('session/prompt', { sessionId: run.sessionId, prompt: [{ type: 'text', text }] });
  await new Promise((res) => setImmediate(res));
  assert.equal(r.stopReason, 'end_turn');
  return run.h.takeText(run.sessionId);
}

/**
 * Each of `ids` through the conductor: prompts, files, a shell command, the injected MCP tools, a
 * session continued after a restart, and no process left. Its agent × feature outcomes go to
 * docs/agents.md's compatibility table (test-results/agent-compat-conductor-<part>.json).
 */
export function describeThroughConductor(ids: readonly AgentId[], part: string): void {
  const outcomes: Record<string, Record<string, 'passed' | 'failed'>> = {};
  describe('real agents through the conductor (scripted model server)', function () {
    this.timeout(120_000);
    afterEach(function () {
      const t = this.currentTest;
      const agent = t?.parent?.title;
      if (!t || !agent || (t.state !== 'passed' && t.state !== 'failed')) return;
      (outcomes[agent] ??= {})[t.title] = t.state;
    });
    after(() => writeCompat('conductor', outcomes, part));
    before(function () {
      if (!existsSync(CONDUCTOR_JS)) throw new Error('build first: node esbuild.mjs');
      if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
    });

    for (const id of ids) {
      describe(id, () => {
        let run: Awaited<ReturnType<typeof start>> | undefined;
        before(async () => {
          run = await start(id);
        });
        after(async () => {
          await run?.h.close();
          await run?.model.close();
        });

        it('a plain prompt streams the scripted answer', async () => {
          assert.match(await ask(run!, 'say hello'), new RegExp(HELLO.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        });

        it('reads a file and quotes it', async () => {
          assert.match(await ask(run!, 'please read the notes'), /The file says: .*the secret word is pelican/s);
        });

        it('writes a new file', async () => {
          // Codex starts read-only in a folder it does not know; its "Default" mode may edit the workspace.
          if (id === 'codex') await run!.h.conn.agent.request('session/set_mode', { sessionId: run!.sessionId, modeId: 'auto' });
          const text = await ask(run!, 'now write a greeting file');
          assert.match(text, /Wrote it/);
          assert.equal(readFileSync(join(run!.ws, 'greeting.txt'), 'utf8'), 'hello-from-the-agent');
        });

        it('runs a shell command and sees its output', async () => {
          assert.match(await ask(run!, 'please run the echo command'), /The command printed: .*hi-from-shell/s);
        });

        it("calls the conductor's injected symposium-ide tool and gets the real answer; sparkle and rust-crate-sources are offered too", async () => {
          let text = await ask(run!, 'where is Circle defined?');
          // Qwen Code gives a remote MCP server 5 s to connect and list its tools, then drops it for
          // the rest of the session; a cold Qwen Code on a loaded machine can take that long itself
          // (its own start-up shares the discovery's time). Whether the conductor answered in time
          // is in its log; the question is asked again in a new session of the now warm agent.
          if (id === 'qwen' && /Deferred tool "[^"]*find_definitions" is not registered/.test(text)) {
            console.log(
              `      qwen dropped symposium-ide in its first session; the conductor's log of it:\n${mcpLog(run!, 'symposium-ide')}`,
            );
            run!.sessionId = (await run!.h.conn.agent.request('session/new', { cwd: run!.ws, mcpServers: userServers(run!.ws) })).sessionId;
            text = await ask(run!, 'where is Circle defined?');
          }
          // What the agent offered its model: the tools directly, or (looked up on demand) in a search result.
          const offered = [...run!.model.script.toolsSeen(), ...run!.model.script.log.map((l) => l.toolResult?.text ?? '')].join(' ');
          assert.match(text, /The tool answered: .*src\/shapes\.ts/s, `${text}\n(what the agent offered: ${offered.slice(-2000)})`);
          for (const [server, tool] of [
            ['symposium-ide', 'find_definitions'],
            ['sparkle', 'session_checkpoint'],
            ['rust-crate-sources', 'rust_crate_query'],
          ])
            if (!DEFERRED_MCP.has(id))
              assert.ok(
                mcpToolNames(server!, tool!).some((n) => offered.includes(n)),
                `${server} ${tool} offered`,
              );
        });

        it("starts a user's stdio MCP server in the folder its declaration names (through sh), not the session's", async () => {
          assert.match(
            await ask(run!, 'where does the probe run?'),
            new RegExp(`The tool answered: .*runs in ${join(run!.ws, 'tools')}`, 's'),
          );
        });

        it('continues its session after the editor restarts: session/resume where offered, else session/load', async () => {
          assert.match(await ask(run!, `please remember the codeword ${CODEWORD}`), /\S/);
          const { sessionId, kept } = run!;
          // Gemini CLI's session/load, in the wall-clock minute its session was started in, overwrites
          // the session's file before reading it ("No previous sessions found for this project":
          // google-gemini/gemini-cli#28775). A user's reload comes later than that; so does this load.
          if (id === 'gemini') await waitFor(() => minuteOf(Date.now()) !== minuteOf(run!.startedAt), 65_000, 'the next minute');
          await run!.h.close();
          run = await start(id, kept);
          // The order the chat's reopening uses (src/history/reopen.ts): resume keeps the agent's context without a replay.
          const method = run.capabilities?.sessionCapabilities?.resume
            ? 'session/resume'
            : run.capabilities?.loadSession
              ? 'session/load'
              : undefined;
          assert.ok(method, 'the agent offers session/resume or session/load');
          await run.h.conn.agent.request(method, { sessionId, cwd: run.ws, mcpServers: [] });
          run.sessionId = sessionId;
          run.h.takeText(sessionId); // a load's replay
          assert.match(await ask(run, 'what was the codeword?'), new RegExp(`You told me the codeword ${CODEWORD}`));
        });

        it('ends with the editor: closing stdin leaves no process (the agent and everything it started)', async () => {
          const pid = run!.h.child.pid!;
          const tree = descendants(pid);
          assert.ok(tree.length > 0, 'the agent runs under the conductor');
          await run!.h.close();
          await waitFor(() => [pid, ...tree].every((p) => !alive(p)), 10_000, 'the conductor and every process under it to exit');
        });

        it('ends on SIGTERM too: nothing left running', async () => {
          const again = await start(id);
          try {
            const pid = again.h.child.pid!;
            const tree = descendants(pid);
            again.h.child.kill('SIGTERM');
            await waitFor(() => [pid, ...tree].every((p) => !alive(p)), 10_000, 'the conductor and every process under it to exit');
          } finally {
            await again.h.close();
            await again.model.close();
          }
        });
      });
    }
  });
}

/** Sparkle's embodiment and Gemini CLI's trusted / untrusted folders. */
export function describeSparkleToolsCaveat(): void {
  describe("Sparkle's embodiment tells an agent that did not take its tools not to call them (Gemini CLI)", function () {
    this.timeout(120_000);
    for (const trusted of [true, false])
      it(
        trusted
          ? 'a trusted folder: Gemini CLI connects to `sparkle`, the embodiment lists its tools'
          : 'an untrusted folder: Gemini CLI ignores every MCP server, the embodiment offers the tools only if they are in its list',
        async () => {
          const model = await startScriptedModelServer([{ when: 'say hello', text: HELLO }]);
          const launch = agentLaunch('gemini', model.url);
          if (!trusted) delete launch.env.GEMINI_CLI_TRUST_WORKSPACE;
          const h = startProcess(conductorArgs({ agent: launch.command, log: 'info' }), {}, launch.env);
          try {
            await h.conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
            const { sessionId } = await h.conn.agent.request('session/new', { cwd: tempDir('symposium-ws-sparkle-'), mcpServers: [] });
            await h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say hello' }] });
            const embodiment = model.script.log.find((r) => r.userText.includes('# Sparkle embodiment'))?.userText;
            assert.ok(embodiment, 'the embodiment reached the model');
            assert.match(embodiment, /save_insight/);
            const caveat =
              /You have not connected to the MCP server `sparkle` yet\. If its tools are not in your tool list, you do not have them/;
            if (trusted) assert.doesNotMatch(embodiment, caveat);
            else assert.match(embodiment, caveat);
          } finally {
            await h.close();
            await model.close();
          }
        },
      );
  });
}

/** claude-agent-acp's session title, made from its first prompt (Sparkle's embodiment), is not passed on. */
export function itKeepsTheEmbodimentTitleBack(): void {
  it("claude-agent-acp titles a session after its first prompt: through Sparkle, the embodiment's title never reaches the editor", async function () {
    this.timeout(120_000);
    const model = await startScriptedModelServer([{ when: 'say hello', text: HELLO }]);
    const launch = agentLaunch('claude-agent-acp', model.url);
    const h = startProcess(conductorArgs({ agent: launch.command, log: 'info' }), {}, launch.env);
    try {
      await h.conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await h.conn.agent.request('session/new', { cwd: tempDir('symposium-ws-title-'), mcpServers: [] });
      await h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say hello' }] });
      assert.ok(
        model.script.log.some((r) => r.userText.includes('# Sparkle embodiment')),
        'the embodiment was its first prompt',
      );
      // It titles the session a moment later, from its first prompt: the embodiment.
      await waitFor(
        () => /titled the session with its embodiment's text; that title is not passed on/.test(h.stderr()),
        20_000,
        'its title',
      );
      const infos = h.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'session_info_update');
      assert.deepEqual(
        infos.filter((u) => 'title' in u && /Sparkle/.test(String(u.title))),
        [],
        'no title made from the embodiment',
      );
    } finally {
      await h.close();
      await model.close();
    }
  });
}
