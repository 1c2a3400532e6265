// The workspace store: checkpoints (working memory replaced, narratives added, bad JSON set aside),
// what the embodiment reads back, and the symlink confinement.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SparkleError } from './names';
import { checkpointText, SparkleSpace } from './workspaceStore';

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

  it('a narrative without a title gets one; the sparkler line goes after the title', () => {
    assert.equal(
      checkpointText('Plain text.', 'Nova', at),
      '# Session Checkpoint 2026-11-23 13:04:05 UTC\n\n**Sparkler:** Nova\n\nPlain text.\n',
    );
    assert.equal(checkpointText('# T\nbody', 'Nova', at), '# T\n\n**Sparkler:** Nova\n\nbody\n');
  });
});
