import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TabPayload } from '../protocol/webview';
import { HistoryStore } from './historyStore';
import { OwnershipLocks } from './ownership';
import { HistoryRecorder } from './recorder';
import { silentLog } from '../log/logEvent';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-ownership-'));
const ID = '22222222-2222-4222-8222-222222222222';

/** Another window: a separate Node process that takes `id` (or tries to) and prints the outcome as JSON. */
function otherWindow(dir: string, id: string, hold: boolean): { child: ChildProcess; outcome: Promise<{ owned: boolean; pid: number }> } {
  const script = `
    const mod = await import(${JSON.stringify(path.join(__dirname, 'ownership.ts'))});
    const { OwnershipLocks } = mod.OwnershipLocks ? mod : mod.default;
    const locks = new OwnershipLocks(${JSON.stringify(dir)}, { heartbeatMs: 0 });
    const r = locks.acquire(${JSON.stringify(id)});
    process.stdout.write(JSON.stringify({ owned: r.owned, pid: process.pid }) + '\\n');
    if (${hold}) setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: process.cwd(),
  });
  const outcome = new Promise<{ owned: boolean; pid: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { owned: boolean; pid: number });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the other window exited (${code}) before it said anything`)));
  });
  return { child, outcome };
}
const exited = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('OwnershipLocks', () => {
  it('one window owns a conversation; another is told who holds it, and gets it once released', () => {
    const dir = tmp();
    const a = new OwnershipLocks(dir, { heartbeatMs: 0 });
    const b = new OwnershipLocks(dir, { heartbeatMs: 0 });
    assert.deepEqual(a.acquire(ID), { owned: true });
    assert.deepEqual(a.acquire(ID), { owned: true }, 'again: still ours');
    const refused = b.acquire(ID);
    assert.equal(refused.owned, false);
    assert.equal(!refused.owned && refused.holder?.instance, a.instance);
    assert.equal(!refused.owned && refused.holder?.pid, process.pid);
    assert.equal(b.isLive(ID), true);
    b.release(ID); // not b's: nothing happens
    assert.equal(a.holder(ID)?.instance, a.instance);
    a.release(ID);
    assert.equal(fs.existsSync(path.join(dir, `${ID}.lock`)), false);
    assert.deepEqual(b.acquire(ID), { owned: true });
    b.dispose();
    assert.equal(fs.existsSync(path.join(dir, `${ID}.lock`)), false, 'a window going away gives everything up');
  });

  it('two processes: the second is refused while the first lives, and takes the lock over once it died', async function () {
    this.timeout(60_000);
    const dir = tmp();
    const { child, outcome } = otherWindow(dir, ID, true);
    try {
      const first = await outcome;
      assert.equal(first.owned, true);
      const mine = new OwnershipLocks(dir, { heartbeatMs: 0 });
      const refused = mine.acquire(ID);
      assert.equal(refused.owned, false);
      assert.equal(!refused.owned && refused.holder?.pid, first.pid, 'the holder is the other process');
      child.kill('SIGKILL'); // a crashed window: its lock stays behind
      await exited(child);
      assert.ok(fs.existsSync(path.join(dir, `${ID}.lock`)), 'the dead window left its lock');
      assert.equal(mine.isLive(ID), false, 'stale: its process is gone');
      assert.deepEqual(mine.acquire(ID), { owned: true });
      assert.equal(mine.holder(ID)?.pid, process.pid);
      mine.dispose();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a lock whose heartbeat stopped is stale even if its pid lives (a reused pid); a fresh one is not', () => {
    const dir = tmp();
    const other = { pid: process.ppid, host: os.hostname(), instance: 'another-window' };
    const write = (heartbeat: Date): void =>
      fs.writeFileSync(path.join(dir, `${ID}.lock`), JSON.stringify({ ...other, heartbeat: heartbeat.toISOString() }));
    const mine = new OwnershipLocks(dir, { heartbeatMs: 0, staleMs: 5_000 });
    write(new Date());
    assert.equal(mine.acquire(ID).owned, false);
    write(new Date(Date.now() - 6_000));
    assert.deepEqual(mine.acquire(ID), { owned: true });
    mine.dispose();
  });

  it('the holder keeps its lock fresh: heartbeat() rewrites it; a lock taken from it is dropped', () => {
    const dir = tmp();
    const a = new OwnershipLocks(dir, { heartbeatMs: 0 });
    a.acquire(ID);
    const file = path.join(dir, `${ID}.lock`);
    const old = JSON.parse(fs.readFileSync(file, 'utf8')) as { heartbeat: string };
    fs.writeFileSync(file, JSON.stringify({ ...old, heartbeat: new Date(Date.now() - 100_000).toISOString() }));
    a.heartbeat();
    assert.ok(Date.now() - Date.parse(a.holder(ID)!.heartbeat) < 5_000);
    fs.writeFileSync(
      file,
      JSON.stringify({ pid: process.pid, host: os.hostname(), instance: 'thief', heartbeat: new Date().toISOString() }),
    );
    a.heartbeat();
    a.release(ID);
    assert.equal(a.holder(ID)?.instance, 'thief', 'release does not remove another window’s lock');
  });

  it('five processes finding the same stale lock: exactly one takes it over', async function () {
    this.timeout(60_000);
    const dir = tmp();
    // Left by a process that no longer exists.
    fs.writeFileSync(
      path.join(dir, `${ID}.lock`),
      JSON.stringify({ pid: 2 ** 22 + 17, host: os.hostname(), instance: 'crashed', heartbeat: new Date().toISOString() }),
    );
    const windows = Array.from({ length: 5 }, () => otherWindow(dir, ID, true));
    try {
      const outcomes = await Promise.all(windows.map((w) => w.outcome));
      const winners = outcomes.filter((o) => o.owned);
      assert.equal(winners.length, 1, JSON.stringify(outcomes));
      assert.equal(new OwnershipLocks(dir, { heartbeatMs: 0 }).holder(ID)?.pid, winners[0]!.pid);
    } finally {
      for (const w of windows) w.child.kill('SIGKILL');
    }
  });
});

describe('HistoryRecorder with ownership', () => {
  const T1 = '33333333-3333-4333-8333-333333333333';
  const T2 = '44444444-4444-4444-8444-444444444444';
  const window = (dir: string): { store: HistoryStore; locks: OwnershipLocks; recorder: HistoryRecorder } => {
    const locks = new OwnershipLocks(dir, { heartbeatMs: 0 });
    const store = new HistoryStore(dir, { maxConversations: () => 200, maxImageBytes: () => 1000, isLive: (id) => locks.isLive(id) });
    return { store, locks, recorder: new HistoryRecorder({ log: silentLog, store, locks, sessionIdOf: () => 'sess-1' }) };
  };
  const say = (tabId: string, messageId: string, text: string): TabPayload[] => [
    { type: 'prompt-started', tabId, messageId, text },
    { type: 'prompt-ended', tabId, messageId, stopReason: 'end_turn' },
  ];

  it('a second window reopening a live conversation: read-only, nothing appended; its fork is a new file with the transcript', () => {
    const dir = tmp();
    const a = window(dir);
    const b = window(dir);
    for (const p of [{ type: 'session-ready', tabId: T1, agentName: 'ElizACP', cwd: '/w' } as TabPayload, ...say(T1, 'm1', 'Hello')])
      a.recorder.observe(p);
    const [meta] = a.store.list();
    assert.ok(meta);
    const before = fs.readFileSync(path.join(dir, `${meta.id}.jsonl`), 'utf8');

    assert.equal(b.recorder.adopt(T2, meta.id), false, 'window A has it');
    for (const p of say(T2, 'm2', 'typed in window B')) b.recorder.observe(p);
    assert.equal(fs.readFileSync(path.join(dir, `${meta.id}.jsonl`), 'utf8'), before, 'nothing appended by window B');
    assert.deepEqual(b.recorder.openConversations(), [], 'a read-only view is not among the conversations B writes');
    assert.equal(b.recorder.tabOf(meta.id), T2);

    const stored = b.store.read(meta.id)!;
    const forkId = b.recorder.fork(T2, { meta: stored.meta, entries: stored.entries });
    assert.ok(forkId && forkId !== meta.id);
    for (const p of say(T2, 'm3', 'continued in window B')) b.recorder.observe(p);
    const fork = b.store.read(forkId)!;
    assert.deepEqual(
      fork.entries.flatMap((e) => (e.type === 'prompt-started' ? [e.text] : [])),
      ['Hello', 'continued in window B'],
    );
    assert.equal(fork.meta.title, 'Hello');
    assert.equal(b.locks.holder(forkId)?.instance, b.locks.instance, 'window B owns its fork');
    assert.equal(fs.readFileSync(path.join(dir, `${meta.id}.jsonl`), 'utf8'), before, 'the original is untouched');

    // A keeps writing its own; once A closes the tab, B could take it.
    for (const p of say(T1, 'm4', 'still window A')) a.recorder.observe(p);
    assert.equal(a.store.read(meta.id)!.meta.turns, 2);
    a.recorder.close(T1);
    b.recorder.close(T2);
    assert.equal(b.recorder.adopt(T2, meta.id), true);
  });

  it('pruning keeps a conversation another window has open', () => {
    const dir = tmp();
    const a = window(dir);
    const other = new OwnershipLocks(dir, { heartbeatMs: 0 });
    const old = a.store.create({ agentName: 'x', folder: '/w' });
    other.acquire(old.id);
    const small = new HistoryStore(dir, { maxConversations: () => 1, maxImageBytes: () => 1000, isLive: (id) => a.locks.isLive(id) });
    small.create({ agentName: 'y', folder: '/w' });
    assert.ok(small.meta(old.id), 'live elsewhere: not pruned');
    other.release(old.id);
    small.create({ agentName: 'z', folder: '/w' });
    assert.equal(small.meta(old.id), undefined, 'given up: pruned');
  });
});
