// The embodiment prompt (order, modes, caps, notes) and the embodiment gate (hold, cancel, release).
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatherEmbodiment, MAX_SECTION_CHARS } from './embodiment';
import { EmbodimentGate } from './gate';
import { SparkleHome } from './homeStore';
import { SparkleSpace } from './workspaceStore';

function stores(): { home: SparkleHome; space: SparkleSpace; ws: string } {
  const root = mkdtempSync(join(tmpdir(), 'sparkle-emb-'));
  return { home: new SparkleHome(join(root, '.sparkle')), space: new SparkleSpace(join(root, 'ws')), ws: join(root, 'ws') };
}

describe('sparkle embodiment prompt', () => {
  it("has, in order: identity, the sparkler's files, the profile, this workspace, the tools", async () => {
    const { home, space } = stores();
    await home.ensure();
    await home.appendInsight({ type: 'PatternAnchor', content: 'ANCHOR-WORDS' }, 'Sparkle');
    await space.checkpoint({ focus: 'FOCUS-X' }, 'CHECKPOINT-NARRATIVE', 'Sparkle');
    const { text, sparkler } = await gatherEmbodiment(home, space, { mode: 'full', checkpointEvery: 20 });
    assert.equal(sparkler, 'Sparkle');
    assert.ok(text.startsWith('# Sparkle embodiment\n'));
    const order = [
      'You are **Sparkle**',
      '## Who you are (Sparkle)',
      'ANCHOR-WORDS',
      '## Collaboration evolution',
      '## Your collaborator',
      'FOCUS-X',
      'CHECKPOINT-NARRATIVE',
      '## Tools',
      'session_checkpoint',
    ];
    const positions = order.map((s) => text.indexOf(s));
    assert.ok(
      positions.every((p) => p >= 0),
      `all present: ${JSON.stringify(order.filter((_, i) => positions[i]! < 0))}`,
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      'in this order',
    );
    assert.match(text, /reminded every 20 prompts/);
  });

  it('core mode reads nothing from the workspace and does not mention session_checkpoint', async () => {
    const { home, space } = stores();
    await space.checkpoint({ focus: 'FOCUS-X' }, 'CHECKPOINT-NARRATIVE', 'Sparkle');
    const { text } = await gatherEmbodiment(home, space, { mode: 'core', checkpointEvery: 20 });
    assert.ok(!text.includes('FOCUS-X') && !text.includes('session_checkpoint') && !text.includes('This workspace'));
  });

  it('a fresh workspace says so; a first run says where the profile was created', async () => {
    const { home, space } = stores();
    const { text } = await gatherEmbodiment(home, space, { mode: 'full', checkpointEvery: 0 });
    assert.match(text, /No checkpoint yet: this is the first Sparkle session here/);
    assert.match(text, /A new Sparkle profile was created in .*\.sparkle \(first run\)/);
    assert.ok(!text.includes('reminded every'));
  });

  it('an unknown configured sparkler falls back to the default, with a note', async () => {
    const { home, space } = stores();
    const { text, sparkler } = await gatherEmbodiment(home, space, { sparkler: 'Nobody', mode: 'full', checkpointEvery: 20 });
    assert.equal(sparkler, 'Sparkle');
    assert.match(text, /The configured sparkler could not be used \(no sparkler named "Nobody"/);
  });

  it('embodies the configured sparkler of several, and caps a huge file', async () => {
    const { home, space } = stores();
    await home.ensure();
    await home.create('Nova');
    writeFileSync(join(home.dir, 'sparklers', 'Nova', 'sparkler-identity.md'), `# Nova\n${'y'.repeat(MAX_SECTION_CHARS + 100)}`);
    const { text, sparkler } = await gatherEmbodiment(home, space, { sparkler: 'Nova', mode: 'full', checkpointEvery: 20 });
    assert.equal(sparkler, 'Nova');
    assert.match(text, /You are \*\*Nova\*\*/);
    assert.match(text, /cut here: \d+ more characters in .*sparkler-identity\.md/);
  });
});

describe('sparkle embodiment gate', () => {
  it('holds while closed, releases in arrival order, and lets cancelled items go', () => {
    const gate = new EmbodimentGate<string>();
    assert.equal(gate.hold('s', 'early'), false, 'open: not held');
    gate.close('s');
    assert.equal(gate.hold('s', 'a'), true);
    assert.equal(gate.hold('s', 'b'), true);
    assert.equal(gate.hold('s', 'c'), true);
    assert.equal(gate.remove('s', 'b'), true);
    assert.equal(gate.remove('s', 'b'), false);
    assert.equal(gate.hold('other', 'x'), false, 'other sessions are not held');
    assert.deepEqual(gate.open('s'), ['a', 'c']);
    assert.equal(gate.isClosed('s'), false);
  });

  it('takeHeld answers a cancel but keeps the gate closed for the embodiment that still runs', () => {
    const gate = new EmbodimentGate<string>();
    gate.close('s');
    gate.hold('s', 'a');
    assert.deepEqual(gate.takeHeld('s'), ['a']);
    assert.equal(gate.isClosed('s'), true);
    assert.equal(gate.hold('s', 'later'), true);
    assert.deepEqual(gate.drain(), ['later']);
  });
});
