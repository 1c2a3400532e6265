// The ledger of process groups (processGroup.ts): what a process started, written down so that
// its owner can end it when the process itself could not (SIGKILL, or the owner exiting first).
// Real processes; Linux (/proc start times).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { endLedgerGroups, GROUPS_LEDGER_VAR, groupAlive, signalGroup, spawnInGroup, untrackGroup } from './processGroup';

const STUBBORN = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)";
const startTime = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};
const until = async (what: () => boolean, ms = 3000): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (what()) return true;
  return what();
};

describe('process groups: the ledger an owner ends', function () {
  this.timeout(20_000);
  let dir: string;
  const pids: number[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'symposium-ledger-'));
  });
  afterEach(() => {
    for (const pid of pids.splice(0)) {
      signalGroup(pid, 'SIGKILL');
      untrackGroup(pid);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('a process whose environment names a ledger writes the groups it starts there; endLedgerGroups kills them (once)', async () => {
    const ledger = join(dir, 'groups');
    process.env[GROUPS_LEDGER_VAR] = ledger;
    let child;
    try {
      child = spawnInGroup(process.execPath, ['-e', STUBBORN], { stdio: 'ignore' });
    } finally {
      delete process.env[GROUPS_LEDGER_VAR];
    }
    pids.push(child.pid!);
    assert.equal(readFileSync(ledger, 'utf8'), `${child.pid} ${startTime(child.pid!)}\n`);
    assert.equal(endLedgerGroups(ledger), 1);
    assert.ok(await until(() => !groupAlive(child.pid!)), 'the group is gone');
    assert.equal(endLedgerGroups(ledger), 0, 'nothing left to kill');
  });

  it('leaves alone a group whose leader started at another time (a reused pid), and lines that are not "pid start"', async () => {
    const child = spawnInGroup(process.execPath, ['-e', STUBBORN], { stdio: 'ignore' });
    pids.push(child.pid!);
    const ledger = join(dir, 'groups');
    writeFileSync(ledger, `${child.pid} 1\ngarbage\n1 -\n-5 7\n\n`);
    assert.equal(endLedgerGroups(ledger), 0);
    assert.ok(groupAlive(child.pid!), 'not ours: still running');
    assert.equal(endLedgerGroups(join(dir, 'missing')), 0, 'no ledger, nothing to do');
  });

  it('refuses to signal pgid 0, 1 or a non-integer (our own group, every process, nonsense)', () => {
    for (const pgid of [0, 1, -1, Number.NaN, 2.5]) {
      assert.equal(signalGroup(pgid, 0), false, `pgid ${pgid}`);
      assert.equal(groupAlive(pgid), false, `pgid ${pgid}`);
    }
  });

  it('an owner that exits ends the groups its child wrote down, though the child never got to', async () => {
    // The owner spawns a "conductor" with a ledger; the conductor starts a stubborn "agent" in a
    // group of its own and reports its pid; then the owner exits (its exit hook is all that runs).
    const processGroup = resolve(__dirname, 'processGroup.ts');
    const pidFile = join(dir, 'agent.pid');
    const conductor = `const { spawnInGroup } = require(${JSON.stringify(processGroup)});
      const agent = spawnInGroup(process.execPath, ['-e', ${JSON.stringify(STUBBORN)}], { stdio: 'ignore' });
      require('fs').writeFileSync(${JSON.stringify(pidFile + '.tmp')}, String(agent.pid));
      require('fs').renameSync(${JSON.stringify(pidFile + '.tmp')}, ${JSON.stringify(pidFile)});
      setInterval(() => {}, 1000);`;
    const owner = `const { spawnWithLedger } = require(${JSON.stringify(processGroup)});
      spawnWithLedger(process.execPath, ['--import', 'tsx', '-e', ${JSON.stringify(conductor)}], ${JSON.stringify(join(dir, 'groups'))}, { stdio: 'ignore' });
      const wait = setInterval(() => { if (require('fs').existsSync(${JSON.stringify(pidFile)})) { clearInterval(wait); process.exit(0); } }, 20);`;
    const ownerProcess = spawn(process.execPath, ['--import', 'tsx', '-e', owner], { stdio: 'inherit' });
    const exited = new Promise<number | null>((r) => ownerProcess.on('exit', r));
    assert.equal(await exited, 0);
    assert.ok(existsSync(pidFile), 'the agent was started');
    const agentPid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(Number.isSafeInteger(agentPid) && agentPid > 1, `the agent's pid: ${agentPid}`);
    pids.push(agentPid);
    assert.ok(await until(() => !groupAlive(agentPid)), 'the agent is gone with its owner');
  });
});
