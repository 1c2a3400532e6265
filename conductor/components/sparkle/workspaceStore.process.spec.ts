// The workspace store: checkpoints (working memory replaced, narratives added, bad JSON set aside),
// what the embodiment reads back, and the symlink confinement.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SparkleError } from './names';
import { STORE_FILE_MAX_BYTES } from './atomicFile';
import { checkpointText, EMBODIMENT_READ_BYTES, SparkleSpace } from './workspaceStore';

const at = new Date('2026-11-23T13:04:05Z');
const temp = (): string => mkdtempSync(join(tmpdir(), 'sparkle-ws-'));

describe('sparkle workspace store', () => {
  it('session_checkpoint writes working-memory.json and a new checkpoint file each time', async () => {
    const ws = temp();
    const space = new SparkleSpace(ws, () => at);
    const r1 = await space.checkpoint({ focus: 'tests' }, '# Checkpoint\n\nWe wrote tests.', 'Sparkle');
    assert.deepEqual(JSON.parse(readFileSync(join(ws, '.sparkle-space', 'working-memory.json'), 'utf8')), { focus: 'tests' });
    assert.equal(r1.checkpointPath, join(ws, '.sparkle-space', 'checkpoints', 'checkpoint-2026-11-23-130405.md'));
    assert.equal(readFileSync(r1.checkpointPath, 'utf8'), '# Checkpoint\n\n**Sparkler:** Sparkle\n\nWe wrote tests.\n');
    const r2 = await space.checkpoint({ focus: 'docs' }, 'Docs next.', 'Sparkle');
    assert.equal(
      r2.checkpointPath,
      join(ws, '.sparkle-space', 'checkpoints', 'checkpoint-2026-11-23-130405-2.md'),
      'same second: a second file, the first kept',
    );
    assert.equal(readdirSync(join(ws, '.sparkle-space', 'checkpoints')).length, 2);
  });

  it('a working-memory.json that does not parse is set aside (and said) before the new one is written', async () => {
    const ws = temp();
    mkdirSync(join(ws, '.sparkle-space'));
    writeFileSync(join(ws, '.sparkle-space', 'working-memory.json'), '{oops');
    const r = await new SparkleSpace(ws, () => at).checkpoint({ ok: 1 }, 'x', 'Sparkle');
    assert.ok(r.setAside);
    assert.equal(readFileSync(r.setAside, 'utf8'), '{oops');
    writeFileSync(join(ws, '.sparkle-space', 'working-memory.json'), 'also bad');
    const memory = await new SparkleSpace(ws, () => at).read();
    assert.equal(memory.workingMemory, undefined);
    assert.match(memory.problems[0]!, /was not valid JSON .* it was moved to .*working-memory\.json\.bad-/);
  });

  it('read() gives the working memory, the newest checkpoint and the workspace insights', async () => {
    const ws = temp();
    const space = new SparkleSpace(ws, () => at);
    assert.deepEqual(await space.read(), { problems: [] });
    assert.equal(existsSync(join(ws, '.sparkle-space')), false, 'reading creates nothing');
    await space.checkpoint({ focus: 'a' }, 'older', 'Sparkle');
    const newer = await space.checkpoint({ focus: 'b' }, 'newer', 'Sparkle');
    utimesSync(newer.checkpointPath, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    await space.appendInsight({ type: 'WorkspaceInsight', content: 'the api lives in api/' });
    const memory = await space.read();
    assert.deepEqual(JSON.parse(memory.workingMemory!.text), { focus: 'b' });
    assert.match(memory.latestCheckpoint!.text, /newer/);
    assert.match(memory.workspaceMap!.text, /the api lives in api\//);
  });

  it('refuses to follow a .sparkle-space link out of the workspace', async () => {
    const ws = temp();
    const elsewhere = temp();
    symlinkSync(elsewhere, join(ws, '.sparkle-space'));
    const space = new SparkleSpace(ws, () => at);
    await assert.rejects(
      space.checkpoint({}, 'x', 'Sparkle'),
      (err: Error) => err instanceof SparkleError && /outside the session's workspace folder/.test(err.message),
    );
    await assert.rejects(space.appendInsight({ type: 'WorkspaceInsight', content: 'x' }), SparkleError);
    assert.deepEqual(readdirSync(elsewhere), []);
    assert.match((await space.read()).problems[0]!, /outside/);
  });

  it('reads no file of .sparkle-space that links out, and names each in problems', async () => {
    const ws = temp();
    const elsewhere = temp();
    writeFileSync(join(elsewhere, 'secret.md'), 'SECRET-OUTSIDE');
    writeFileSync(join(elsewhere, 'memory.json'), '{"secret":"SECRET-OUTSIDE"}');
    mkdirSync(join(ws, '.sparkle-space', 'checkpoints'), { recursive: true });
    symlinkSync(join(elsewhere, 'memory.json'), join(ws, '.sparkle-space', 'working-memory.json'));
    symlinkSync('/proc/self/environ', join(ws, '.sparkle-space', 'workspace-map.md'));
    symlinkSync(join(elsewhere, 'secret.md'), join(ws, '.sparkle-space', 'checkpoints', 'checkpoint-new.md'));
    writeFileSync(join(ws, '.sparkle-space', 'checkpoints', 'checkpoint-old.md'), 'the real one');
    utimesSync(join(ws, '.sparkle-space', 'checkpoints', 'checkpoint-old.md'), new Date(0), new Date(0));
    const memory = await new SparkleSpace(ws, () => at).read();
    assert.equal(memory.workingMemory, undefined);
    assert.equal(memory.workspaceMap, undefined);
    assert.equal(memory.latestCheckpoint?.text, 'the real one', 'the newest checkpoint that can be read');
    assert.equal(memory.problems.length, 3);
    for (const p of memory.problems) assert.match(p, /was not read: .* is outside the session's workspace folder/);
    assert.ok(!JSON.stringify(memory).includes('SECRET-OUTSIDE'));
  });

  it('a link that stays inside the workspace is read', async () => {
    const ws = temp();
    mkdirSync(join(ws, '.sparkle-space'));
    writeFileSync(join(ws, 'notes.md'), 'kept in the repository');
    symlinkSync(join(ws, 'notes.md'), join(ws, '.sparkle-space', 'workspace-map.md'));
    assert.equal((await new SparkleSpace(ws, () => at).read()).workspaceMap?.text, 'kept in the repository');
  });

  it('a FIFO and a 5 GiB file in the folder cost nothing: refused or cut, at once', async () => {
    const ws = temp();
    mkdirSync(join(ws, '.sparkle-space', 'checkpoints'), { recursive: true });
    execFileSync('mkfifo', [join(ws, '.sparkle-space', 'working-memory.json')]);
    execFileSync('mkfifo', [join(ws, '.sparkle-space', 'checkpoints', 'checkpoint-fifo.md')]);
    const map = join(ws, '.sparkle-space', 'workspace-map.md');
    writeFileSync(map, '# Workspace Map\n');
    truncateSync(map, 5 * 1024 ** 3); // 5 GiB, sparse
    const started = Date.now();
    const memory = await new SparkleSpace(ws, () => at).read();
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    assert.equal(memory.workingMemory, undefined);
    assert.equal(memory.latestCheckpoint, undefined);
    assert.match(
      memory.problems.join('\n'),
      /working-memory\.json was not read: .* is a FIFO[\s\S]*checkpoint-fifo\.md was not read: .* is a FIFO/,
    );
    assert.equal(Buffer.byteLength(memory.workspaceMap!.text), EMBODIMENT_READ_BYTES);
    assert.deepEqual(memory.workspaceMap!.cut, { size: 5 * 1024 ** 3 });
    // Appending to it would read it whole: refused with a reason, nothing lost.
    await assert.rejects(new SparkleSpace(ws, () => at).appendInsight({ type: 'WorkspaceInsight', content: 'x' }), /larger than/);
    assert.ok(STORE_FILE_MAX_BYTES < 5 * 1024 ** 3);
  });

  it('a narrative without a title gets one; the sparkler line goes after the title', () => {
    assert.equal(
      checkpointText('Plain text.', 'Nova', at),
      '# Session Checkpoint 2026-11-23 13:04:05 UTC\n\n**Sparkler:** Nova\n\nPlain text.\n',
    );
    assert.equal(checkpointText('# T\nbody', 'Nova', at), '# T\n\n**Sparkler:** Nova\n\nbody\n');
  });
});
