// The Sparkle component in the real conductor in front of real ElizACP, HOME pointed at a temp
// folder: first run, the injected `sparkle` server (HTTP and stdio shim), the embodiment turn and
// the prompt it holds, cancelling a held prompt, concurrent insights, core mode, the checkpoint
// nudge and bad settings. The trace file (--trace-dir) shows what reached the agent and when.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';
import { respond } from '../eliza/engine';
import { CONDUCTOR_JS, elizaCommand, initialize, newSession, prompt, sleep, startProcess, tempDir, waitFor, type Harness } from './harness';

interface Start {
  flags?: string[];
  agentArgs?: string[];
  env?: Record<string, string>;
  trace?: boolean;
}
interface Run {
  h: Harness;
  home: string;
  ws: string;
  traceDir: string;
}

const TOOLS =
  'session_checkpoint, save_insight, setup_sparkle, create_sparkler, list_sparklers, rename_sparkler, update_collaborator_profile, update_sparkler_identity, load_evolution, fetch_profile_data';

function start(o: Start = {}): Run {
  const home = tempDir('sparkle-home-');
  const ws = tempDir('sparkle-ws-');
  const traceDir = tempDir('sparkle-trace-');
  const argv = [
    process.execPath,
    CONDUCTOR_JS,
    '--components',
    'sparkle',
    ...(o.flags ?? []),
    '--trace-dir',
    traceDir,
    '--log',
    'debug',
    '--',
    ...elizaCommand(o.agentArgs),
  ];
  // HOME moves ~/.sparkle; an empty SPARKLE_DIR means "not set" (the harness sets one by default).
  return { h: startProcess(argv, {}, { HOME: home, SPARKLE_DIR: '', ...o.env }), home, ws, traceDir };
}

interface TraceRecord {
  from: string;
  to: string;
  message: { id?: number; method?: string; params?: { prompt?: { text?: string; _meta?: unknown }[]; _meta?: unknown }; result?: unknown };
}
function trace(dir: string): TraceRecord[] {
  const file = readdirSync(dir).find((f) => f.endsWith('.jsonl'))!;
  return readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TraceRecord);
}
const promptText = (r: TraceRecord): string => (r.message.params?.prompt ?? []).map((b) => b.text ?? '').join('\n');

/** The embodiment turn's marked reply text, and where its updates sit among the session's. */
function embodiment(h: Harness, sessionId: string): { text: string; lastMarked: number; firstUnmarkedChunk: number } {
  const mine = h.updates.filter((u) => u.sessionId === sessionId);
  const marked = mine.map((u, i) => [u, i] as const).filter(([u]) => sparkleMarkOf(u.update) === 'embodiment');
  const text = marked
    .map(([u]) => (u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' ? u.update.content.text : ''))
    .join('');
  const firstUnmarkedChunk = mine.findIndex((u) => u.update.sessionUpdate === 'agent_message_chunk' && !sparkleMarkOf(u.update));
  return { text, lastMarked: marked.length ? marked[marked.length - 1]![1] : -1, firstUnmarkedChunk };
}

describe('Sparkle component (real conductor + ElizACP)', function () {
  this.timeout(60_000);
  let run: Run | undefined;
  afterEach(async () => {
    await run?.h.close();
    run = undefined;
  });

  it('first run: creates a default profile and the sparkler "Sparkle"; injects the sparkle server with upstream\'s tools', async () => {
    run = start();
    await initialize(run.h);
    const s = await newSession(run.h, run.ws);
    assert.equal((await prompt(run.h, s, 'list tools from sparkle')).text, `Tools from sparkle: ${TOOLS}`);
    assert.deepEqual(readdirSync(join(run.home, '.sparkle')).sort(), [
      'collaboration-evolution.md',
      'collaborator-profile.md',
      'config.toml',
      'pattern-anchors.md',
      'sparkler-identity.md',
    ]);
    assert.match(readFileSync(join(run.home, '.sparkle', 'config.toml'), 'utf8'), /\[ai\]\nname = "Sparkle"/);
    assert.equal(existsSync(join(run.ws, '.sparkle-space')), false, 'embodying writes nothing in the workspace');
  });

  it('holds the first prompt until the embodiment turn ends, then answers it; the embodiment updates are marked', async () => {
    run = start({ env: { ELIZACP_EMBODIMENT_DELAY_MS: '600' } });
    await initialize(run.h);
    const s = await newSession(run.h, run.ws);
    const answer = await prompt(run.h, s, 'Hello there');
    assert.equal(answer.text, respond('Hello there', { deterministic: true }));
    const e = embodiment(run.h, s);
    assert.equal(e.text, 'Embodiment received.');
    assert.ok(e.lastMarked >= 0 && e.lastMarked < e.firstUnmarkedChunk, 'every embodiment update comes before the answer');
    await run.h.close();
    const records = trace(run.traceDir);
    const embodimentReq = records.find(
      (r) => r.from === 'sparkle' && r.message.method === 'session/prompt' && sparkleMarkOf(r.message.params) === 'embodiment',
    )!;
    assert.ok(promptText(embodimentReq).startsWith('# Sparkle embodiment\n'));
    const userIn = records.findIndex((r) => r.to === 'sparkle' && r.message.method === 'session/prompt' && promptText(r) === 'Hello there');
    const embodied = records.findIndex(
      (r) => r.from === 'agent-edge' && r.to === 'sparkle' && r.message.id === embodimentReq.message.id && r.message.result !== undefined,
    );
    const userOut = records.findIndex(
      (r) => r.from === 'sparkle' && r.message.method === 'session/prompt' && promptText(r) === 'Hello there',
    );
    assert.ok(
      userIn >= 0 && userIn < embodied && embodied < userOut,
      `the prompt arrived (${userIn}), waited for the embodiment's answer (${embodied}), then went on (${userOut})`,
    );
  });

  it('cancelling a held prompt answers it "cancelled" without reaching the agent; the embodiment goes on', async () => {
    run = start({ env: { ELIZACP_EMBODIMENT_DELAY_MS: '1500' } });
    await initialize(run.h);
    const s = await newSession(run.h, run.ws);
    const held = run.h.conn.agent.request('session/prompt', { sessionId: s, prompt: [{ type: 'text', text: 'Hello there' }] });
    await sleep(300);
    const cancelledAt = Date.now();
    await run.h.conn.agent.notify('session/cancel', { sessionId: s });
    assert.equal((await held).stopReason, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 1000, 'answered at once, not after the embodiment');
    const h = run.h;
    await waitFor(() => embodiment(h, s).text === 'Embodiment received.', 10_000, 'the embodiment to finish anyway');
    assert.equal((await prompt(run.h, s, 'Hello again')).text, respond('Hello again', { deterministic: true }));
    await run.h.close();
    const records = trace(run.traceDir);
    assert.ok(
      !records.some((r) => r.from === 'sparkle' && promptText(r) === 'Hello there'),
      'the cancelled prompt never left the component',
    );
    assert.ok(!records.some((r) => r.from === 'sparkle' && r.message.method === 'session/cancel'), 'nor did the cancel');
  });

  for (const mode of ['http', 'stdio'] as const) {
    it(`session_checkpoint and save_insight through the injected server (${mode}) land on disk; the next session is embodied with them`, async () => {
      run = start({ agentArgs: mode === 'stdio' ? ['--no-http-mcp'] : [] });
      await initialize(run.h);
      const s = await newSession(run.h, run.ws);
      const cp = await prompt(
        run.h,
        s,
        'use tool sparkle::session_checkpoint with {"working_memory":{"focus":"sparkle tests"},"checkpoint_content":"# Day one\\nWe wrote the tests."}',
      );
      assert.match(cp.text, /^Checkpoint saved\./);
      assert.deepEqual(JSON.parse(readFileSync(join(run.ws, '.sparkle-space', 'working-memory.json'), 'utf8')), { focus: 'sparkle tests' });
      const [checkpoint] = readdirSync(join(run.ws, '.sparkle-space', 'checkpoints'));
      assert.match(checkpoint!, /^checkpoint-\d{4}-\d\d-\d\d-\d{6}\.md$/);
      const ins = await prompt(
        run.h,
        s,
        'use tool sparkle::save_insight with {"insight_type":"PatternAnchor","content":"Tests first, then talk."}',
      );
      assert.match(ins.text, /Insight saved \(PatternAnchor\)/);
      assert.match(readFileSync(join(run.home, '.sparkle', 'pattern-anchors.md'), 'utf8'), /Pattern Anchor\n\nTests first, then talk\./);
      const next = await newSession(run.h, run.ws);
      const h = run.h;
      await waitFor(() => embodiment(h, next).text === 'Embodiment received.', 10_000, 'the second embodiment');
      await run.h.close();
      const second = trace(run.traceDir).filter(
        (r) => r.from === 'sparkle' && r.message.method === 'session/prompt' && sparkleMarkOf(r.message.params) === 'embodiment',
      )[1]!;
      assert.match(promptText(second), /## Pattern anchors[\s\S]*Tests first, then talk\.[\s\S]*"focus": "sparkle tests"[\s\S]*# Day one/);
    });
  }

  it('refuses bad names with an MCP error that says why, and creates nothing', async () => {
    run = start();
    await initialize(run.h);
    const s = await newSession(run.h, run.ws);
    assert.match(
      (await prompt(run.h, s, 'use tool sparkle::create_sparkler with {"name":"../escape"}')).text,
      /^Tool error: create_sparkler: sparkler name "\.\.\/escape" contains a path separator/,
    );
    assert.match(
      (await prompt(run.h, s, 'use tool sparkle::save_insight with {"insight_type":"Gossip","content":"x"}')).text,
      /^Tool error: save_insight: unknown insight_type "Gossip"; use one of PatternAnchor, CollaborationEvolution, WorkspaceInsight/,
    );
    assert.match(
      (await prompt(run.h, s, 'use tool sparkle::save_insight with {"insight_type":"PatternAnchor","content":"x","sparkler":"a/b"}')).text,
      /^Tool error: save_insight: sparkler "a\/b" contains a path separator/,
    );
    assert.equal(existsSync(join(run.home, 'escape')), false);
    assert.equal(existsSync(join(run.home, '.sparkle', 'sparklers')), false);
  });

  it('50 save_insight calls sent at once from 5 sessions lose nothing and never interleave', async () => {
    run = start();
    await initialize(run.h);
    const sessions = await Promise.all(Array.from({ length: 5 }, () => newSession(run!.h, run!.ws)));
    // All 50 requests go out at once; ElizACP runs a session's prompts one after another, so the
    // five sessions' tool calls reach the component's per-file queue concurrently.
    const calls = sessions.flatMap((s, i) =>
      Array.from({ length: 10 }, (_, j) =>
        run!.h.conn.agent.request('session/prompt', {
          sessionId: s,
          prompt: [
            {
              type: 'text',
              text: `use tool sparkle::save_insight with {"insight_type":"CollaborationEvolution","content":"insight s${i}-n${j} ${'z'.repeat(300)}"}`,
            },
          ],
        }),
      ),
    );
    assert.deepEqual(new Set((await Promise.all(calls)).map((r) => r.stopReason)), new Set(['end_turn']));
    const failed = run.h.updates.filter((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status !== 'completed');
    assert.deepEqual(failed, [], 'every tool call completed');
    const file = readFileSync(join(run.home, '.sparkle', 'collaboration-evolution.md'), 'utf8');
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 10; j++) {
        assert.equal(file.match(new RegExp(`\\n\\ninsight s${i}-n${j} z{300}\\n\\n---\\n`, 'g'))?.length, 1, `s${i}-n${j} once and whole`);
      }
    assert.equal(file.match(/^## .* - Collaboration Evolution$/gm)?.length, 50);
  });

  it('core mode keeps nothing in the workspace: no session_checkpoint, workspace insights go to ~/.sparkle', async () => {
    run = start({ flags: ['--sparkle-mode', 'core'] });
    await initialize(run.h);
    const s = await newSession(run.h, run.ws);
    assert.equal(
      (await prompt(run.h, s, 'list tools from sparkle')).text,
      `Tools from sparkle: ${TOOLS.replace('session_checkpoint, ', '')}`,
    );
    assert.match(
      (await prompt(run.h, s, 'use tool sparkle::session_checkpoint with {"working_memory":{},"checkpoint_content":"x"}')).text,
      /^Tool error: .*session_checkpoint not found/,
    );
    assert.match(
      (await prompt(run.h, s, 'use tool sparkle::save_insight with {"insight_type":"WorkspaceInsight","content":"api/ talks to db/"}'))
        .text,
      /Insight saved/,
    );
    await newSession(run.h, run.ws);
    assert.match(readFileSync(join(run.home, '.sparkle', 'workspace-map.md'), 'utf8'), /api\/ talks to db\//);
    assert.deepEqual(readdirSync(run.ws), [], 'the workspace is untouched');
  });

  it('every N-th user prompt carries the checkpoint nudge to the agent, not into the reply', async () => {
    run = start({ flags: ['--sparkle-checkpoint-every', '2'] });
    await initialize(run.h);
    const s = await newSession(run.h, run.ws);
    for (const text of ['one', 'two', 'three', 'four'])
      assert.equal((await prompt(run.h, s, text)).text, respond(text, { deterministic: true }));
    await run.h.close();
    const toAgent = trace(run.traceDir).filter(
      (r) => r.from === 'sparkle' && r.message.method === 'session/prompt' && sparkleMarkOf(r.message.params) !== 'embodiment',
    );
    assert.deepEqual(
      toAgent.map((r) => r.message.params!.prompt!.map((b) => sparkleMarkOf(b) ?? 'user')),
      [['user'], ['user', 'checkpoint-nudge'], ['user'], ['user', 'checkpoint-nudge']],
    );
    assert.match(toAgent[1]!.message.params!.prompt![1]!.text!, /call the sparkle tool `session_checkpoint`/);
  });

  /** The embodiment prompt the agent received, from the trace. */
  const embodimentPrompt = (traceDir: string): string =>
    promptText(
      trace(traceDir).find(
        (r) => r.from === 'sparkle' && r.message.method === 'session/prompt' && sparkleMarkOf(r.message.params) === 'embodiment',
      )!,
    );
  /** A `.sparkle-space/` file of `ws`, its folders created. */
  const spaceFile = (ws: string, ...parts: string[]): string => {
    const path = join(ws, '.sparkle-space', ...parts);
    mkdirSync(join(path, '..'), { recursive: true });
    return path;
  };
  /** Ages a file (not through a link) so the newest checkpoint is the one the test means. */
  const age = (path: string, secondsAgo: number): void => {
    const t = new Date(Date.now() - secondsAgo * 1000);
    execFileSync('touch', ['-h', '-d', t.toISOString(), path]);
  };

  it("a repository's .sparkle-space linked to /proc/self/environ or outside files puts none of it in the embodiment", async () => {
    const secret = `env-secret-${process.pid}-${Date.now()}`;
    const outside = tempDir('sparkle-outside-');
    writeFileSync(join(outside, 'id_ed25519'), 'OUTSIDE-FILE-SECRET');
    writeFileSync(join(outside, 'memory.json'), '{"stolen":"OUTSIDE-JSON-SECRET"}');
    run = start({ env: { SPARKLE_TEST_SECRET: secret } });
    symlinkSync('/proc/self/environ', spaceFile(run.ws, 'workspace-map.md'));
    symlinkSync(join(outside, 'memory.json'), spaceFile(run.ws, 'working-memory.json'));
    symlinkSync(join(outside, 'id_ed25519'), spaceFile(run.ws, 'checkpoints', 'checkpoint-2099-01-01-000000.md'));
    await initialize(run.h);
    const s = await newSession(run.h, run.ws);
    assert.equal((await prompt(run.h, s, 'Hello there')).text, respond('Hello there', { deterministic: true }));
    await run.h.close();
    const text = embodimentPrompt(run.traceDir);
    assert.ok(text.startsWith('# Sparkle embodiment\n'));
    for (const leaked of [secret, 'SPARKLE_TEST_SECRET', 'OUTSIDE-FILE-SECRET', 'OUTSIDE-JSON-SECRET'])
      assert.ok(!text.includes(leaked), `the embodiment holds ${leaked}`);
    for (const file of ['workspace-map.md', 'working-memory.json', 'checkpoint-2099-01-01-000000.md'])
      assert.match(text, new RegExp(`${file.replace(/\./g, '\\.')} was not read: .* is outside the session's workspace folder`));
  });

  it('a FIFO, /dev/zero and a 600 MB file in .sparkle-space: the conductor answers at once, RSS stays bounded', async () => {
    run = start();
    execFileSync('mkfifo', [spaceFile(run.ws, 'working-memory.json')]);
    const zero = spaceFile(run.ws, 'checkpoints', 'checkpoint-zero.md');
    symlinkSync('/dev/zero', zero);
    age(zero, 10);
    const fifo = spaceFile(run.ws, 'checkpoints', 'checkpoint-fifo.md');
    execFileSync('mkfifo', [fifo]);
    age(fifo, 20);
    const big = spaceFile(run.ws, 'checkpoints', 'checkpoint-big.md');
    writeFileSync(big, '# A long story\n');
    truncateSync(big, 600 * 1024 * 1024); // sparse: costs no disk, only whoever reads it
    utimesSync(big, new Date(Date.now() - 30_000), new Date(Date.now() - 30_000));
    symlinkSync('/dev/zero', spaceFile(run.ws, 'workspace-map.md'));
    await initialize(run.h);
    const started = Date.now();
    const s = await newSession(run.h, run.ws);
    assert.equal((await prompt(run.h, s, 'Hello there')).text, respond('Hello there', { deterministic: true }));
    assert.ok(Date.now() - started < 10_000, `answered after ${Date.now() - started} ms`);
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${run.h.child.pid}/status`, 'utf8'))![1]);
    assert.ok(peakKb < 250 * 1024, `the conductor's peak RSS was ${Math.round(peakKb / 1024)} MB`);
    await run.h.close();
    const text = embodimentPrompt(run.traceDir);
    assert.match(text, /working-memory\.json was not read: .* is a FIFO/);
    assert.match(text, /checkpoint-zero\.md was not read: .* is outside/);
    assert.match(text, /checkpoint-fifo\.md was not read: .* is a FIFO/);
    assert.match(
      text,
      /## This workspace: latest checkpoint\n\n# A long story[\s\S]*\(cut here: the rest of the file in .*checkpoint-big\.md \(629145600 bytes in all\)\)/,
    );
    assert.ok(text.length < 300_000, `the embodiment is ${text.length} characters`);
  });

  it('a bad --sparkle-* value stops the conductor at start, naming the flag', () => {
    for (const [flag, value, why] of [
      ['--sparkle-mode', 'turbo', /--sparkle-mode must be "full" or "core"/],
      ['--sparkle-checkpoint-every', '-1', /whole number/],
      ['--sparkle-sparkler', '../x', /path separator/],
    ] as const) {
      const r = spawnSync(process.execPath, [CONDUCTOR_JS, flag, value, '--', ...elizaCommand()], { encoding: 'utf8', input: '' });
      assert.equal(r.status, 1);
      assert.match(r.stderr, why);
    }
  });
});
