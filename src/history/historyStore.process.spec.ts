import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConversationEntry } from '../protocol/webview';
import { HistoryStore } from './historyStore';
import { ENV_VALUE_REMOVED, scrubEntry } from './scrub';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-history-'));
const store = (dir: string, max = 200, maxImageBytes = 1_000): HistoryStore =>
  new HistoryStore(dir, { maxConversations: () => max, maxImageBytes: () => maxImageBytes });
const chunk = (messageId: string, text: string): ConversationEntry => ({
  type: 'agent-update',
  messageId,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
});

describe('HistoryStore', () => {
  it('appends entries and reads them back with the index entry', () => {
    const s = store(tmp());
    const m = s.create({ agentName: 'ElizACP', folder: '/w' });
    s.append(m.id, [
      { t: 'entry', e: { type: 'prompt-started', messageId: 'm1', text: 'Hello' } },
      { t: 'entry', e: chunk('m1', 'Hi.') },
    ]);
    s.update(m.id, { title: 'Hello', turns: 1, sessionId: 'sess-1' });
    const read = s.read(m.id)!;
    assert.equal(read.entries.length, 2);
    assert.equal(read.meta.title, 'Hello');
    assert.equal(read.meta.sessionId, 'sess-1');
    assert.deepEqual(
      s.list().map((c) => c.id),
      [m.id],
    );
  });

  it('skips a torn last line (a crash in the middle of a write) and keeps everything before it', () => {
    const dir = tmp();
    const s = store(dir);
    const m = s.create({ agentName: 'ElizACP', folder: '/w' });
    s.append(m.id, [{ t: 'entry', e: { type: 'prompt-started', messageId: 'm1', text: 'Hello' } }]);
    fs.appendFileSync(path.join(dir, `${m.id}.jsonl`), '{"t":"entry","e":{"type":"agent-upd');
    const read = s.read(m.id)!;
    assert.equal(read.entries.length, 1);
    assert.equal(read.skippedLines, 1);
    // Writing continues on a fresh line after the torn one.
    fs.appendFileSync(path.join(dir, `${m.id}.jsonl`), '\n');
    s.append(m.id, [{ t: 'entry', e: chunk('m1', 'after') }]);
    assert.equal(s.read(m.id)!.entries.length, 2);
  });

  it('a reset line starts the conversation over (a replay replaced it)', () => {
    const s = store(tmp());
    const m = s.create({ agentName: 'a', folder: '/w' });
    s.append(m.id, [{ t: 'entry', e: chunk('m1', 'old') }, { t: 'reset' }, { t: 'entry', e: chunk('r-1', 'new') }]);
    assert.deepEqual(s.read(m.id)!.entries, [chunk('r-1', 'new')]);
  });

  it('prunes the least recently active conversations beyond the limit, never the kept ones', () => {
    const s = store(tmp(), 3);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = s.create({ agentName: 'a', folder: '/w' });
      s.update(m.id, { lastActivity: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() });
      ids.push(m.id);
    }
    const newest = s.create({ agentName: 'a', folder: '/w' }, new Set([ids[0]!]));
    const left = s.list().map((c) => c.id);
    assert.equal(left.length, 3);
    assert.ok(left.includes(newest.id) && left.includes(ids[0]!) && left.includes(ids[2]!), 'the oldest unkept one (ids[1]) went');
    assert.ok(!left.includes(ids[1]!));
  });

  it('delete and clear remove conversations and their files', () => {
    const dir = tmp();
    const s = store(dir);
    const a = s.create({ agentName: 'a', folder: '/w' });
    const b = s.create({ agentName: 'a', folder: '/w' });
    s.append(a.id, [{ t: 'entry', e: chunk('m', 'x') }]);
    s.delete(a.id);
    assert.deepEqual(
      s.list().map((c) => c.id),
      [b.id],
    );
    s.clear();
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('search finds text in the transcript, case-insensitively', () => {
    const s = store(tmp());
    const m = s.create({ agentName: 'a', folder: '/w' });
    s.append(m.id, [{ t: 'entry', e: chunk('m', 'The Borrow Checker') }]);
    assert.equal(s.matches(m.id, 'borrow checker'), true);
    assert.equal(s.matches(m.id, 'lifetimes'), false);
  });

  it('two windows (two processes) writing at once: every line intact, both conversations listed', async function () {
    this.timeout(60_000);
    const dir = tmp();
    const shared = store(dir).create({ agentName: 'a', folder: '/w' });
    const script = `
      const mod = await import(${JSON.stringify(path.join(__dirname, 'historyStore.ts'))});
      const HistoryStore = mod.HistoryStore ?? mod.default.HistoryStore;
      const s = new HistoryStore(${JSON.stringify(dir)}, { maxConversations: () => 200, maxImageBytes: () => 1000 });
      const own = s.create({ agentName: process.argv[1], folder: '/w' });
      for (let i = 0; i < 300; i++) {
        s.append(${JSON.stringify(shared.id)}, [{ t: 'entry', e: { type: 'agent-update', messageId: process.argv[1], update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: process.argv[1] + ':' + i + ':' + 'x'.repeat(2000) } } } }]);
        s.append(own.id, [{ t: 'entry', e: { type: 'prompt-started', messageId: 'p' + i, text: 'hi' } }]);
        s.update(${JSON.stringify(shared.id)}, { turns: i });
      }`;
    const run = (name: string): Promise<number | null> =>
      new Promise((resolve, reject) => {
        const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, name], {
          stdio: ['ignore', 'inherit', 'inherit'],
          cwd: process.cwd(),
        });
        p.on('error', reject);
        p.on('exit', resolve);
      });
    assert.deepEqual(await Promise.all([run('w1'), run('w2')]), [0, 0]);
    const s = store(dir);
    const read = s.read(shared.id)!;
    assert.equal(read.skippedLines, 0);
    assert.equal(read.entries.length, 600);
    for (const w of ['w1', 'w2']) assert.equal(read.entries.filter((e) => e.type === 'agent-update' && e.messageId === w).length, 300);
    const agents = s.list().map((c) => c.agentName);
    assert.ok(agents.includes('w1') && agents.includes('w2'));
    assert.equal(read.meta.turns, 299);
  });
});

describe('scrubEntry', () => {
  it('removes environment values (ACP list form and map form) and keeps their names', () => {
    const e: ConversationEntry = {
      type: 'agent-update',
      messageId: 'm',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 't',
        title: 'run',
        rawInput: { command: 'make', env: { GITHUB_TOKEN: 'ghp_secret' }, nested: { env: [{ name: 'API_KEY', value: 'sk-secret' }] } },
      },
    };
    const json = JSON.stringify(scrubEntry(e, 1000));
    assert.ok(!json.includes('ghp_secret') && !json.includes('sk-secret'), json);
    assert.ok(json.includes('GITHUB_TOKEN') && json.includes('API_KEY') && json.includes(ENV_VALUE_REMOVED));
  });

  it('drops image bytes above the cap and keeps small ones', () => {
    const image = (data: string): ConversationEntry => ({
      type: 'agent-update',
      messageId: 'm',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data } },
    });
    const big = scrubEntry(image('A'.repeat(4000)), 1000) as { update: { content: { data: string; _meta: Record<string, unknown> } } };
    assert.equal(big.update.content.data, '');
    assert.equal(big.update.content._meta.symposiumOmittedBytes, 3000);
    const small = scrubEntry(image('AAAA'), 1000) as { update: { content: { data: string } } };
    assert.equal(small.update.content.data, 'AAAA');
  });
});
