// ACP terminals without VS Code (over 400 lines: one real-process harness for every terminal
// method, kept together): the byte-capped output buffer (UTF-8 boundaries), command-line
// display, and the registry driving real processes with a fake view and fake chat deps (sessions,
// cwd confinement, asking first, env names, output limit, kill/release/session end, cancellation).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClientRequestContext } from '../agents/clientHandlers';
import { silentLog, type LogEvent } from '../log/logEvent';
import type { TerminalOutput } from '../protocol/webview';
import { groupMembers } from '../test/processGroup';
import { OutputBuffer, StreamDecoder, charStart } from './outputBuffer';
import { formatCommandLine, invocationOf, type ExitStatus, type TerminalMirror, type MirrorInfo } from './terminalProcess';
import { TerminalRegistry, type TerminalRegistryDeps } from './terminalRegistry';
import { PermissionBroker } from '../permissions/permissionBroker';
import { loadAcpSdk } from '../agents/acpSdk';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function waitFor(what: string, pred: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('terminal output buffer', () => {
  it('keeps everything under the limit', () => {
    const b = new OutputBuffer(100);
    b.append('hello ');
    b.append('wörld');
    assert.deepEqual(b.text(), { text: 'hello wörld', truncated: false });
  });

  it('drops from the start, never splitting a multi-byte character', () => {
    // 'ab' + three 3-byte euro signs = 11 bytes.
    const cases: [number, string][] = [
      [11, 'ab€€€'],
      [10, 'b€€€'],
      [9, '€€€'],
      [8, '€€'],
      [7, '€€'],
      [6, '€€'],
      [5, '€'],
      [2, ''],
      [0, ''],
    ];
    for (const [limit, want] of cases) {
      const b = new OutputBuffer(limit);
      b.append('ab€€€');
      assert.equal(b.text().text, want, `limit ${limit}`);
      assert.equal(b.text().truncated, limit < 11, `limit ${limit}`);
    }
  });

  it('stays a valid suffix within the limit over many appends of mixed text (4-byte emoji too)', () => {
    const pieces = ['a', 'é', '€', '😀', 'line\n', 'ñandú ', '漢字', '🦀🦀'];
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const limit of [1, 3, 4, 5, 17, 64, 1000]) {
      const b = new OutputBuffer(limit);
      let all = '';
      for (let i = 0; i < 400; i++) {
        const s = Array.from({ length: 1 + rand(5) }, () => pieces[rand(pieces.length)]).join('');
        all += s;
        b.append(s);
        const { text, truncated } = b.text();
        assert.ok(all.endsWith(text), 'a suffix of everything written');
        assert.ok(!text.includes('\uFFFD'), 'no broken character');
        assert.ok(bytes(text) <= limit, `at most ${limit} bytes`);
        if (truncated) assert.ok(bytes(text) > limit - 4, 'drops no more than the split character');
        assert.equal(truncated, bytes(all) > limit);
      }
    }
  });

  it('text(maxBytes) gives a tail at a character boundary', () => {
    const b = new OutputBuffer(1000);
    b.append('xx😀😀');
    assert.deepEqual(b.text(5), { text: '😀', truncated: true });
    assert.deepEqual(b.text(100), { text: 'xx😀😀', truncated: false });
  });

  it('decodes each pipe on its own, so interleaved reads never tear a character', () => {
    const euro = Buffer.from('€');
    const out = new StreamDecoder();
    const err = new StreamDecoder();
    const b = new OutputBuffer(100);
    b.append(out.write(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)])));
    b.append(err.write(Buffer.from('[err]')));
    b.append(out.write(euro.subarray(2)));
    b.append(out.end() + err.end());
    assert.equal(b.text().text, 'a[err]€');
    assert.equal(charStart(euro, 1), 3);
  });
});

describe('command line display', () => {
  it('a whole shell line with no args runs through a POSIX shell; a program (with args, or a path that exists) runs directly', () => {
    const none = (): boolean => false;
    assert.deepEqual(invocationOf('cd sub && npm test', [], '/bin/bash', none), {
      program: '/bin/bash',
      args: ['-c', 'cd sub && npm test'],
      shellLine: 'cd sub && npm test',
    });
    assert.deepEqual(invocationOf('echo hi', [], '/usr/bin/fish', none).program, '/bin/sh', 'not a POSIX shell: sh');
    assert.deepEqual(invocationOf('echo hi', [], undefined, none).program, '/bin/sh');
    assert.deepEqual(invocationOf('ls', [], '/bin/bash', none), { program: 'ls', args: [] });
    assert.deepEqual(invocationOf('/usr/bin/env', ['a b'], '/bin/bash', none), { program: '/usr/bin/env', args: ['a b'] });
    assert.deepEqual(
      invocationOf('npm test', ['--x'], '/bin/bash', none),
      { program: 'npm test', args: ['--x'] },
      'with args: never a shell',
    );
    assert.deepEqual(
      invocationOf('/opt/My Tools/run', [], '/bin/bash', (p) => p === '/opt/My Tools/run'),
      {
        program: '/opt/My Tools/run',
        args: [],
      },
    );
  });

  it('quotes like a shell, reproducing a typical typed line', () => {
    assert.equal(formatCommandLine('node', ['-e', "console.log('hi'); process.exit(3)"]), `node -e "console.log('hi'); process.exit(3)"`);
    assert.equal(formatCommandLine('ls', ['-la', 'src/a.ts']), 'ls -la src/a.ts');
    assert.equal(formatCommandLine('echo', ['$HOME', "it's"]), `echo '$HOME' "it's"`);
    assert.equal(formatCommandLine('echo', ['a"b$']), `echo 'a"b$'`);
    assert.equal(formatCommandLine('echo', ['']), 'echo ""');
  });
});

class FakeView implements TerminalMirror {
  text = '';
  exit: ExitStatus | undefined;
  disposed = false;
  constructor(readonly info: MirrorInfo) {}
  write(t: string): void {
    this.text += t;
  }
  exited(s: ExitStatus): void {
    this.exit = s;
  }
  dispose(): void {
    this.disposed = true;
  }
}

describe('terminal registry (real processes, fake view)', function () {
  before(() => loadAcpSdk()); // its errors are the ACP SDK's, loaded before any agent connects (acpSdk.ts)

  this.timeout(20_000);
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-term-')));
  const ws = path.join(base, 'ws');
  const extra = path.join(base, 'extra');
  const outside = path.join(base, 'outside');
  for (const d of [ws, path.join(ws, 'sub'), extra, outside]) fs.mkdirSync(d, { recursive: true });

  const ACTOR = 'actor-1';
  const SESSION = 'session-1';
  let sessions: Map<string, { tabId: string; cwd: string; agentName: string }>;
  let answer: (desc: { title: string; rawInput: unknown }) => Promise<boolean>;
  let asked: { title: string; rawInput: unknown }[];
  let outputs: TerminalOutput[];
  let views: FakeView[];
  let logs: LogEvent[];
  let reg: TerminalRegistry;
  const ctx = (signal = new AbortController().signal): ClientRequestContext => ({ actorKey: ACTOR, agentName: 'ElizACP', signal });
  const node = (code: string): { command: string; args: string[] } => ({ command: process.execPath, args: ['-e', code] });

  beforeEach(() => {
    sessions = new Map([
      [`${ACTOR}/${SESSION}`, { tabId: 'tab-1', cwd: ws, agentName: 'ElizACP' }],
      [`${ACTOR}/session-2`, { tabId: 'tab-2', cwd: ws, agentName: 'ElizACP' }],
    ]);
    asked = [];
    outputs = [];
    views = [];
    logs = [];
    answer = async () => true;
    const log =
      (level: LogEvent['level']) =>
      (category: string, message: string, data?: unknown): void => {
        logs.push({ timestamp: '', level, category, message, data });
      };
    const deps: TerminalRegistryDeps = {
      log: { trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
      lookupSession: (a, s) => sessions.get(`${a}/${s}`),
      authorize: (_ctx, _sessionId, desc) => {
        asked.push(desc);
        return answer(desc);
      },
      onOutput: (p) => outputs.push(p),
      allowedFolders: () => [extra],
    };
    reg = new TerminalRegistry(
      deps,
      (info) => {
        const v = new FakeView(info);
        views.push(v);
        return v;
      },
      { killGraceMs: 300, throttleMs: 100 },
    );
  });
  afterEach(() => reg.dispose());

  it('runs a command: stdout and stderr in one output, exit code, the view and the chat see it', async () => {
    const { terminalId } = await reg.create(
      { sessionId: SESSION, ...node("console.log('out'); console.error('err'); process.exit(3)") },
      ctx(),
    );
    const exit = await reg.waitForExit({ sessionId: SESSION, terminalId }, ctx());
    assert.deepEqual(exit, { exitCode: 3, signal: null });
    const out = await reg.output({ sessionId: SESSION, terminalId }, ctx());
    assert.match(out.output, /out\n/);
    assert.match(out.output, /err\n/);
    assert.equal(out.truncated, false);
    assert.deepEqual(out.exitStatus, { exitCode: 3, signal: null });
    assert.equal(views.length, 1);
    assert.equal(views[0]!.info.cwd, ws, 'the session folder by default');
    assert.match(views[0]!.text, /out/);
    assert.deepEqual(views[0]!.exit, { exitCode: 3, signal: null });
    const last = outputs.at(-1)!;
    assert.equal(last.tabId, 'tab-1');
    assert.equal(last.terminalId, terminalId);
    assert.deepEqual(last.exitStatus, { exitCode: 3, signal: null });
    assert.match(last.output, /out/);
    assert.equal(asked[0]!.title, `Run: ${process.execPath} -e "console.log('out'); console.error('err'); process.exit(3)"`);
    await reg.release({ sessionId: SESSION, terminalId }, ctx());
    assert.ok(views[0]!.disposed);
    await assert.rejects(reg.output({ sessionId: SESSION, terminalId }, ctx()), /No terminal/);
  });

  it('asks with the command line, cwd and env names, never env values; passes the env', async () => {
    const { terminalId } = await reg.create(
      {
        sessionId: SESSION,
        ...node('console.log(process.env.SYMPOSIUM_SECRET)'),
        cwd: 'sub',
        env: [{ name: 'SYMPOSIUM_SECRET', value: 'hunter2' }],
      },
      ctx(),
    );
    assert.deepEqual(asked[0]!.rawInput, {
      command: process.execPath,
      args: ['-e', 'console.log(process.env.SYMPOSIUM_SECRET)'],
      cwd: path.join(ws, 'sub'),
      env: ['SYMPOSIUM_SECRET'],
    });
    assert.ok(!JSON.stringify(asked).includes('hunter2'));
    await reg.waitForExit({ sessionId: SESSION, terminalId }, ctx());
    assert.equal((await reg.output({ sessionId: SESSION, terminalId }, ctx())).output, 'hunter2\n');
    assert.ok(!JSON.stringify(logs).includes('hunter2'), 'values are not logged either');
  });

  it('refuses a cwd outside the workspace (before asking), allows an allowed folder', async () => {
    await assert.rejects(reg.create({ sessionId: SESSION, ...node('1'), cwd: outside }, ctx()), /outside the folders this agent may use/);
    await assert.rejects(reg.create({ sessionId: SESSION, ...node('1'), cwd: path.join(ws, '..', 'outside') }, ctx()), /outside/);
    await assert.rejects(reg.create({ sessionId: SESSION, ...node('1'), cwd: path.join(ws, 'missing') }, ctx()), /does not exist/);
    assert.equal(asked.length, 0);
    assert.equal(views.length, 0);
    const { terminalId } = await reg.create({ sessionId: SESSION, ...node('console.log(process.cwd())'), cwd: extra }, ctx());
    await reg.waitForExit({ sessionId: SESSION, terminalId }, ctx());
    assert.equal((await reg.output({ sessionId: SESSION, terminalId }, ctx())).output.trim(), extra);
  });

  it('unknown session, declined command, a program that does not exist: clear errors, nothing runs', async () => {
    await assert.rejects(reg.create({ sessionId: 'nope', ...node('1') }, ctx()), /No chat tab has session nope/);
    answer = async () => false;
    await assert.rejects(
      reg.create({ sessionId: SESSION, command: 'echo', args: ['hi there'] }, ctx()),
      /The user declined to run "echo "hi there""/,
    );
    assert.equal(views.length, 0);
    answer = async () => true;
    await assert.rejects(
      reg.create({ sessionId: SESSION, command: 'symposium-no-such-program-xyz' }, ctx()),
      /Could not start "symposium-no-such-program-xyz": .*ENOENT/,
    );
    assert.deepEqual(reg.list(), []);
  });

  it('the agent withdrawing the request aborts a pending authorization and a pending wait_for_exit', async () => {
    const ac = new AbortController();
    answer = () => new Promise<boolean>(() => undefined); // the user never answers
    const creating = reg.create({ sessionId: SESSION, ...node('1') }, ctx(ac.signal));
    await waitFor('the question', () => asked.length === 1);
    ac.abort();
    await assert.rejects(creating, /Request cancelled/);
    assert.equal(views.length, 0);

    answer = async () => true;
    const { terminalId } = await reg.create({ sessionId: SESSION, ...node('setInterval(() => {}, 1000)') }, ctx());
    const ac2 = new AbortController();
    const waiting = reg.waitForExit({ sessionId: SESSION, terminalId }, ctx(ac2.signal));
    ac2.abort();
    await assert.rejects(waiting, /Request cancelled/);
    assert.equal((await reg.output({ sessionId: SESSION, terminalId }, ctx())).exitStatus, undefined, 'still running');
  });

  it('caps output at outputByteLimit from a real process, at a character boundary', async () => {
    const { terminalId } = await reg.create(
      { sessionId: SESSION, ...node("process.stdout.write('start' + 'é€😀'.repeat(3000) + 'END')"), outputByteLimit: 101 },
      ctx(),
    );
    await reg.waitForExit({ sessionId: SESSION, terminalId }, ctx());
    const { output, truncated } = await reg.output({ sessionId: SESSION, terminalId }, ctx());
    assert.equal(truncated, true);
    assert.ok(bytes(output) <= 101 && bytes(output) > 97, `${bytes(output)} bytes`);
    assert.ok(output.endsWith('😀END'));
    assert.ok(!output.includes('\uFFFD'));
  });

  it('kill: SIGTERM to the whole group (children too), SIGKILL when ignored', async () => {
    const { terminalId } = await reg.create({ sessionId: SESSION, command: 'sh', args: ['-c', 'sleep 30 & sleep 30'] }, ctx());
    const pid = reg.list()[0]!.pid!;
    await waitFor('the child', () => groupMembers(pid).length >= 2);
    await reg.kill({ sessionId: SESSION, terminalId }, ctx());
    assert.deepEqual(await reg.waitForExit({ sessionId: SESSION, terminalId }, ctx()), { exitCode: null, signal: 'SIGTERM' });
    await waitFor('the group to be gone', () => groupMembers(pid).length === 0);
    assert.equal(reg.list().length, 1, 'still there until released');

    const stubborn = await reg.create(
      { sessionId: SESSION, ...node("process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)") },
      ctx(),
    );
    await waitFor('ready', () => views.at(-1)!.text.includes('ready'));
    await reg.kill({ sessionId: SESSION, terminalId: stubborn.terminalId }, ctx());
    assert.deepEqual(await reg.waitForExit({ sessionId: SESSION, terminalId: stubborn.terminalId }, ctx()), {
      exitCode: null,
      signal: 'SIGKILL',
    });
  });

  it('release kills a running command and forgets it; another session cannot use it', async () => {
    const { terminalId } = await reg.create({ sessionId: SESSION, ...node('setInterval(() => {}, 1000)') }, ctx());
    const pid = reg.list()[0]!.pid!;
    await assert.rejects(reg.output({ sessionId: 'session-2', terminalId }, ctx()), /does not belong to session session-2/);
    await assert.rejects(reg.release({ sessionId: 'session-2', terminalId }, ctx()), /does not belong/);
    await reg.release({ sessionId: SESSION, terminalId }, ctx());
    assert.ok(views[0]!.disposed);
    await waitFor('the process to be gone', () => groupMembers(pid).length === 0);
    await assert.rejects(reg.waitForExit({ sessionId: SESSION, terminalId }, ctx()), /No terminal/);
    await assert.rejects(reg.kill({ sessionId: SESSION, terminalId }, ctx()), /No terminal/);
    await waitFor('the final output for the chat', () =>
      outputs.some((o) => o.terminalId === terminalId && o.exitStatus?.signal === 'SIGTERM'),
    );
  });

  it('the session ending releases its terminals only; dispose releases everything', async () => {
    const a = await reg.create({ sessionId: SESSION, ...node('setInterval(() => {}, 1000)') }, ctx());
    const b = await reg.create({ sessionId: 'session-2', ...node('setInterval(() => {}, 1000)') }, ctx());
    const [pa, pb] = reg.list().map((t) => t.pid!);
    reg.releaseSession(ACTOR, SESSION);
    await waitFor('session 1 process gone', () => groupMembers(pa!).length === 0);
    assert.deepEqual(
      reg.list().map((t) => t.terminalId),
      [b.terminalId],
    );
    await assert.rejects(reg.output({ sessionId: SESSION, terminalId: a.terminalId }, ctx()), /No terminal/);
    reg.dispose();
    await waitFor('session 2 process gone', () => groupMembers(pb!).length === 0);
    await assert.rejects(reg.create({ sessionId: SESSION, ...node('1') }, ctx()), /shutting down/);
  });

  it('a session closed while the user decides: the command does not run', async () => {
    let allow!: (v: boolean) => void;
    answer = () => new Promise<boolean>((r) => (allow = r));
    const creating = reg.create({ sessionId: SESSION, ...node('1') }, ctx());
    await waitFor('the question', () => asked.length === 1);
    sessions.delete(`${ACTOR}/${SESSION}`);
    allow(true);
    await assert.rejects(creating, /ended before/);
    assert.equal(views.length, 0);
  });

  it('the user closing the view kills the command', async () => {
    const { terminalId } = await reg.create({ sessionId: SESSION, ...node('setInterval(() => {}, 1000)') }, ctx());
    views[0]!.info.onUserClose();
    assert.equal((await reg.waitForExit({ sessionId: SESSION, terminalId }, ctx())).signal, 'SIGTERM');
  });

  it('throttles the chat snapshots and always sends one at exit', async () => {
    const { terminalId } = await reg.create(
      {
        sessionId: SESSION,
        ...node("let i = 0; const t = setInterval(() => { console.log('tick ' + i); if (++i === 40) { clearInterval(t); } }, 10)"),
      },
      ctx(),
    );
    await reg.waitForExit({ sessionId: SESSION, terminalId }, ctx());
    const mine = outputs.filter((o) => o.terminalId === terminalId);
    assert.ok(mine.length >= 2 && mine.length <= 10, `${mine.length} snapshots for ~400 ms at 100 ms`);
    assert.deepEqual(mine.at(-1)!.exitStatus, { exitCode: 0, signal: null });
    assert.match(mine.at(-1)!.output, /tick 39\n$/);
    assert.equal(mine.filter((o) => o.exitStatus).length, 1);
  });
});

describe('terminal registry + permission broker (real processes): an approval covers its own command, once', function () {
  before(() => loadAcpSdk()); // its errors are the ACP SDK's, loaded before any agent connects (acpSdk.ts)

  this.timeout(20_000);
  /** A real registry asking a real broker, in a fresh folder holding `listed.txt`. */
  function harness() {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-approve-')));
    fs.writeFileSync(path.join(ws, 'listed.txt'), '');
    const broker = new PermissionBroker({
      log: silentLog,
      policyFor: () => ({ bypassPermissions: false, autoApprove: [], problems: [] }),
      tabFor: () => ({ tabId: 'tab-1' }),
      post: () => undefined,
      enableBypass: async () => undefined,
      record: () => undefined,
    });
    const reg = new TerminalRegistry(
      {
        log: silentLog,
        lookupSession: () => ({ tabId: 'tab-1', cwd: ws, agentName: 'A' }),
        onOutput: () => undefined,
        allowedFolders: () => [],
        authorize: (ctx, sessionId, desc) => broker.authorizeCommand(ctx, sessionId, desc),
      },
      (info) => new FakeView(info),
      { killGraceMs: 300, throttleMs: 50 },
    );
    const ctx: ClientRequestContext = { actorKey: 'a', agentName: 'A', signal: new AbortController().signal };
    return {
      ws,
      broker,
      reg,
      ctx,
      /** The agent's own execute tool call, allowed by the user on its card. */
      async approve(toolCall: { title: string; rawInput?: unknown }): Promise<void> {
        return this.approveAsked({ toolCallId: 't', kind: 'execute', ...toolCall });
      },
      /** The agent asks permission for `toolCall` (an ACP tool call update: fields may be left out), the user allows it. */
      async approveAsked(toolCall: { toolCallId: string; kind?: 'execute'; title?: string; rawInput?: unknown }): Promise<void> {
        const approval = broker.request({
          actorKey: 'a',
          agentName: 'A',
          signal: new AbortController().signal,
          params: {
            sessionId: 's',
            toolCall,
            options: [
              { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
              { optionId: 'no', name: 'Reject', kind: 'reject_once' },
            ],
          },
        });
        broker.answer('tab-1', broker.pendingFor()[0]!.requestId, { optionId: 'ok' });
        await approval;
      },
      /** The question the broker shows, answered "Do not run"; its title, or undefined if none came. */
      async declineNextQuestion(): Promise<string | undefined> {
        await sleep(50);
        const [q] = broker.pendingFor();
        if (q) broker.answer('tab-1', q.requestId, { optionId: 'reject-once' });
        return q?.title;
      },
      dispose(): void {
        reg.dispose();
        broker.dispose();
      },
    };
  }

  it("a shell line in `command` (Claude Code's form) runs through the shell, and the agent's approved card for it covers it: one question, not two", async () => {
    const h = harness();
    const { ws, reg, broker, ctx } = h;
    try {
      const line = `echo one > ${path.join(ws, 'a.txt')} && cat ${path.join(ws, 'a.txt')} && echo two`;
      // Claude Code's own permission request for its Bash tool: the command as title, in backticks.
      await h.approve({ title: `\`${line}\``, rawInput: { command: line, description: 'Write and read a file' } });
      const { terminalId } = await reg.create({ sessionId: 's', command: line }, ctx);
      assert.equal(broker.pendingFor().length, 0, 'covered by the approval the user just gave: not asked again');
      assert.deepEqual(await reg.waitForExit({ sessionId: 's', terminalId }, ctx), { exitCode: 0, signal: null });
      assert.equal((await reg.output({ sessionId: 's', terminalId }, ctx)).output, 'one\ntwo\n');

      // Not approved: asked with the line as written, and it does not run when declined.
      const marker = path.join(ws, 'pwned');
      const other = reg.create({ sessionId: 's', command: `touch ${marker} && echo done` }, ctx);
      assert.equal(await h.declineNextQuestion(), `Run: touch ${marker} && echo done`);
      await assert.rejects(other, /declined/);
      assert.equal(fs.existsSync(marker), false);
    } finally {
      h.dispose();
    }
  });

  it("Claude Code's approved Bash call (a request without its kind) covers its terminal as it sends it (marker env CLAUDECODE=1); an unshown variable is asked and does not run", async () => {
    const h = harness();
    const { ws, reg, broker, ctx } = h;
    try {
      const line = 'echo hi-from-shell';
      const card = { title: `\`${line}\``, rawInput: { command: line, description: 'Print a greeting' } };
      // As Claude Code does it: the tool call first (with its kind), then a permission request that leaves the kind out.
      broker.noteToolCall('a', 's', { sessionUpdate: 'tool_call', toolCallId: 'bash-1', kind: 'execute', status: 'pending', ...card });
      await h.approveAsked({ toolCallId: 'bash-1', ...card });
      const claudeEnv = [{ name: 'CLAUDECODE', value: '1' }];
      const { terminalId } = await reg.create({ sessionId: 's', command: line, args: [], cwd: ws, env: claudeEnv }, ctx);
      assert.equal(broker.pendingFor().length, 0, 'covered by the approval the user just gave: not asked again');
      assert.deepEqual(await reg.waitForExit({ sessionId: 's', terminalId }, ctx), { exitCode: 0, signal: null });
      assert.equal((await reg.output({ sessionId: 's', terminalId }, ctx)).output, 'hi-from-shell\n');

      // The same card, but the terminal also sets a variable the card never showed: asked, and declined it does not run.
      await h.approve(card);
      const marker = path.join(ws, 'pwned');
      fs.writeFileSync(path.join(ws, 'startup.sh'), `touch ${marker}\n`);
      const sneaky = reg.create(
        { sessionId: 's', command: line, cwd: ws, env: [...claudeEnv, { name: 'BASH_ENV', value: './startup.sh' }] },
        ctx,
      );
      assert.equal(await h.declineNextQuestion(), `Run: ${line}`);
      await assert.rejects(sneaky, /declined/);
      assert.equal(fs.existsSync(marker), false);

      // Only the marker's own value is left out: CLAUDECODE with another value is asked about too.
      await h.approve(card);
      const otherValue = reg.create({ sessionId: 's', command: line, cwd: ws, env: [{ name: 'CLAUDECODE', value: 'x' }] }, ctx);
      assert.equal(await h.declineNextQuestion(), `Run: ${line}`);
      await assert.rejects(otherValue, /declined/);
    } finally {
      h.dispose();
    }
  });

  it('approved "Run: ls" runs `ls` without asking, once; `sh -c …` and a second `ls` are asked', async () => {
    const h = harness();
    const { ws, reg, broker, ctx } = h;
    try {
      await h.approve({ title: 'Run: ls' });

      const marker = path.join(ws, 'pwned');
      const unrelated = reg.create({ sessionId: 's', command: 'sh', args: ['-c', `echo x > ${marker}`] }, ctx);
      assert.equal(await h.declineNextQuestion(), `Run: sh -c "echo x > ${marker}"`, 'the unrelated command is asked about');
      await assert.rejects(unrelated, /declined/);
      assert.equal(fs.existsSync(marker), false);

      const { terminalId } = await reg.create({ sessionId: 's', command: 'ls' }, ctx);
      assert.equal(broker.pendingFor().length, 0, 'covered: not asked');
      await reg.waitForExit({ sessionId: 's', terminalId }, ctx);
      assert.match((await reg.output({ sessionId: 's', terminalId }, ctx)).output, /listed\.txt/);

      const again = reg.create({ sessionId: 's', command: 'ls' }, ctx);
      assert.equal(await h.declineNextQuestion(), 'Run: ls', 'the approval was used up');
      await assert.rejects(again, /declined/);
    } finally {
      h.dispose();
    }
  });

  it('a card headed "npm test" whose parameters hold another cmdline covers neither: both are asked', async () => {
    const h = harness();
    const { ws, reg, ctx } = h;
    try {
      // `rm -rf ~` stands in as a harmless line that leaves a mark when it runs.
      const marker = path.join(ws, 'pwned');
      const hidden = ['sh', '-c', `echo x > ${marker}`];
      await h.approve({ title: 'npm test', rawInput: { cmdline: `sh -c "echo x > ${marker}"`, description: 'Run the tests' } });

      const buried = reg.create({ sessionId: 's', command: hidden[0]!, args: hidden.slice(1) }, ctx);
      assert.equal(await h.declineNextQuestion(), `Run: sh -c "echo x > ${marker}"`, 'the command buried in the parameters is asked about');
      await assert.rejects(buried, /declined/);
      assert.equal(fs.existsSync(marker), false, 'it did not run');

      const headed = reg.create({ sessionId: 's', command: 'npm', args: ['test'] }, ctx);
      assert.equal(await h.declineNextQuestion(), 'Run: npm test', 'the parameters contradict the title: the title is not covered either');
      await assert.rejects(headed, /declined/);
    } finally {
      h.dispose();
    }
  });
});
