// The process side of an agent actor on plain Node scripts: stderr lines, exit reports (expected
// or not), the escalation of stop() to SIGTERM for a process that ignores EOF, a new process (and
// process scope) after an exit, and the owner's own disposal. And, with the real conductor
// (out/conductor.js, built by `node esbuild.mjs`), that a SIGKILLed conductor leaves no agent.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLog, type Log } from '../log/logEvent';
import { groupAlive, signalGroup } from '../node/processGroup';
import { groupMembers } from '../test/processGroup';
import { ConductorProcess, type ProcessExit } from './conductorProcess';

const node = (code: string) => ({ command: process.execPath, args: ['-e', code], env: {}, unsetEnv: ['NODE_OPTIONS'], cwd: process.cwd() });
const nextExit = (p: ConductorProcess): Promise<ProcessExit> =>
  new Promise((resolve) => {
    const sub = p.onDidExit((e) => {
      sub.dispose();
      resolve(e);
    });
  });

describe('ConductorProcess (plain Node processes)', function () {
  this.timeout(20_000);

  it('passes stderr on line by line, keeps the tail, and reports an exit it did not ask for', async () => {
    const lines: string[] = [];
    const p = new ConductorProcess({
      name: 'crasher',
      spec: node("process.stderr.write('one\\ntw'); process.stderr.write('o\\nlast words'); process.exit(3)"),
      log: silentLog,
      onStderrLine: (l) => lines.push(l),
    });
    let scopeDisposed = false;
    p.processScope.add({
      dispose: () => {
        scopeDisposed = true;
      },
    });
    const exit = nextExit(p);
    p.spawn();
    assert.deepEqual(await exit, { code: 3, signal: null, expected: false });
    assert.deepEqual(lines, ['one', 'two', 'last words'], 'the unterminated last line too');
    assert.equal(p.stderrText(), 'one\ntwo\nlast words');
    assert.ok(scopeDisposed, 'what depended on the process is disposed with it');
    assert.equal(p.running, false);
  });

  it('stop() closes stdin, then SIGTERMs a process that ignores EOF; the exit is expected and the group is gone', async () => {
    const p = new ConductorProcess({
      name: 'stubborn',
      spec: node("process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)"),
      log: silentLog,
      graceMs: 300,
    });
    p.spawn();
    const pid = p.pid!;
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(groupMembers(pid).length >= 1);
    const exit = nextExit(p);
    let prepared = false;
    await p.stop('test', async () => {
      prepared = true;
    });
    assert.ok(prepared, 'the ACP side winds down first');
    assert.deepEqual(await exit, { code: null, signal: 'SIGTERM', expected: true });
    assert.deepEqual(groupMembers(pid), []);
  });

  it('spawns again after an exit (a restart) with a fresh process scope; dispose() ends the process and the listeners', async () => {
    const p = new ConductorProcess({ name: 'again', spec: node('process.stdin.resume()'), log: silentLog, graceMs: 500 });
    const exits: ProcessExit[] = [];
    p.onDidExit((e) => exits.push(e));
    p.spawn();
    const first = p.pid;
    const firstScope = p.processScope;
    await p.stop('restart');
    assert.equal(firstScope.isDisposed, true);
    p.spawn();
    assert.notEqual(p.pid, first);
    assert.equal(p.processScope.isDisposed, false, 'the new process has a scope of its own');
    assert.throws(() => p.spawn(), /already running/);
    await p.dispose();
    assert.equal(p.running, false);
    assert.deepEqual(
      exits.map((e) => e.expected),
      [true, true],
    );
    assert.throws(() => p.spawn(), /disposed/);
  });

  it('ends the agent a SIGKILLed conductor left behind, though it ignores EOF and SIGTERM (the ledger of groups)', async () => {
    const conductor = resolve(__dirname, '../../out/conductor.js');
    assert.ok(existsSync(conductor), 'out/conductor.js is built (node esbuild.mjs)');
    const dir = mkdtempSync(join(tmpdir(), 'symposium-orphan-'));
    const pidFile = join(dir, 'agent.pid');
    const agent = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.on('SIGTERM', () => {}); process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)`;
    const p = new ConductorProcess({
      name: 'orphaned',
      spec: {
        command: process.execPath,
        args: [conductor, '--', process.execPath, '-e', agent],
        env: {},
        unsetEnv: ['NODE_OPTIONS'],
        cwd: dir,
      },
      log: silentLog,
    });
    let agentPid = 0;
    try {
      p.spawn();
      for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
      agentPid = Number(readFileSync(pidFile, 'utf8'));
      assert.ok(groupAlive(agentPid), 'the agent runs, in a group of its own');
      const exit = nextExit(p);
      process.kill(p.pid!, 'SIGKILL');
      assert.equal((await exit).signal, 'SIGKILL');
      for (let i = 0; i < 40 && groupAlive(agentPid); i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(groupAlive(agentPid), false, 'the agent is gone with its conductor');
    } finally {
      if (agentPid > 0) signalGroup(agentPid, 'SIGKILL');
      await p.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the process without a ledger when no temporary folder can be made, and says so in the log', async () => {
    const warnings: string[] = [];
    const log: Log = { ...silentLog, warn: (_category, message) => void warnings.push(message) };
    const p = new ConductorProcess({ name: 'no-tmp', spec: node('process.stdin.resume()'), log, graceMs: 500 });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = join(tmpdir(), 'symposium-missing-tmp', 'not-there');
    try {
      p.spawn();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    assert.equal(p.running, true, 'the process runs');
    assert.ok(
      warnings.some((w) => w.includes('ledger')),
      warnings.join('\n'),
    );
    const exit = nextExit(p);
    await p.stop('test');
    assert.equal((await exit).expected, true);
  });
});
