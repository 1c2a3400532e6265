// The home store on a temp folder: first run, insights, sparklers (create, migrate, rename), setup,
// backups, evolution documents, and the refusals (bad names, unreadable config).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SparkleHome } from './homeStore';
import { SparkleError } from './names';

const now = (): Date => new Date('2026-11-23T13:04:05Z');
function freshHome(): SparkleHome {
  return new SparkleHome(join(mkdtempSync(join(tmpdir(), 'sparkle-home-')), '.sparkle'), now);
}
const read = (h: SparkleHome, ...p: string[]): string => readFileSync(join(h.dir, ...p), 'utf8');

describe('sparkle home store', () => {
  it('first run creates a profile and the sparkler "Sparkle"; an existing folder is left alone', async () => {
    const h = freshHome();
    const created = await h.ensure();
    assert.deepEqual(readdirSync(h.dir).sort(), [
      'collaboration-evolution.md',
      'collaborator-profile.md',
      'config.toml',
      'pattern-anchors.md',
      'sparkler-identity.md',
    ]);
    assert.equal(created.length, 5);
    assert.match(read(h, 'config.toml'), /\[ai\]\nname = "Sparkle"/);
    assert.match(read(h, 'sparkler-identity.md'), /^# Sparkle - Sparkler Identity/);
    const other = new SparkleHome(h.dir, now);
    writeFileSync(join(h.dir, 'collaborator-profile.md'), 'mine');
    assert.deepEqual(await other.ensure(), []);
    assert.equal(read(h, 'collaborator-profile.md'), 'mine');
  });

  it("save_insight appends in upstream's format to the sparkler's files and the workspace map", async () => {
    const h = freshHome();
    await h.ensure();
    const r = await h.appendInsight({ type: 'PatternAnchor', content: 'Make it work.', context: 'pairing', tags: ['a', 'b'] }, 'Sparkle');
    assert.equal(r.path, join(h.dir, 'pattern-anchors.md'));
    assert.match(
      read(h, 'pattern-anchors.md'),
      /\n## 2026-11-23 13:04:05 UTC - Pattern Anchor\n\nMake it work\.\n\n\*\*Context\*\*: pairing\n\n\*\*Tags\*\*: a, b\n\n---\n$/,
    );
    await h.appendInsight({ type: 'CollaborationEvolution', content: 'We plan first.' }, 'Sparkle');
    assert.match(read(h, 'collaboration-evolution.md'), /Collaboration Evolution\n\nWe plan first\./);
    await h.appendInsight({ type: 'WorkspaceInsight', content: 'api/ talks to db/.' }, 'Sparkle');
    assert.match(read(h, 'workspace-map.md'), /^# Workspace Map[\s\S]*Workspace Insight\n\napi\/ talks to db\//);
  });

  for (const bad of ['', '   ', '../evil', 'a/b', 'a\\b', '..', '.hidden', 'x'.repeat(65), 'tab\there', 'what?']) {
    it(`refuses the sparkler name ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 5)}…` : bad)} with a reason`, async () => {
      const h = freshHome();
      await h.ensure();
      await assert.rejects(
        h.create(bad),
        (err: Error) => err instanceof SparkleError && /empty|separator|\.\.|dot|longer|control|one of/.test(err.message),
      );
      await assert.rejects(h.appendInsight({ type: 'PatternAnchor', content: 'x' }, bad), SparkleError);
    });
  }

  it("the first extra sparkler moves the existing one's files to sparklers/<name>/; nothing is lost", async () => {
    const h = freshHome();
    await h.ensure();
    await h.appendInsight({ type: 'PatternAnchor', content: 'kept anchor' }, 'Sparkle');
    const r = await h.create('Nova');
    assert.equal(r.moved.length, 3);
    assert.match(read(h, 'sparklers', 'Sparkle', 'pattern-anchors.md'), /kept anchor/);
    assert.ok(existsSync(join(h.dir, 'sparklers', 'Nova', 'sparkler-identity.md')));
    assert.equal(existsSync(join(h.dir, 'pattern-anchors.md')), false);
    assert.equal(existsSync(join(h.dir, 'collaborator-profile.md')), true, 'the profile stays shared at the top');
    const { config } = await h.list();
    assert.deepEqual(config.sparklers, [
      { name: 'Sparkle', default: true },
      { name: 'Nova', default: false },
    ]);
    await assert.rejects(h.create('Nova'), /already exists/);
    await h.appendInsight({ type: 'CollaborationEvolution', content: 'nova learns' }, 'Nova');
    assert.match(read(h, 'sparklers', 'Nova', 'collaboration-evolution.md'), /nova learns/);
    await assert.rejects(
      h.appendInsight({ type: 'PatternAnchor', content: 'x' }, 'Nobody'),
      /no sparkler named "Nobody"; known: Sparkle, Nova/,
    );
  });

  it('rename_sparkler moves the folder with the name (several) or renames [ai] (one)', async () => {
    const h = freshHome();
    await h.ensure();
    await h.rename('Spark', 'Sparkle');
    assert.match(read(h, 'config.toml'), /\[ai\]\nname = "Spark"/);
    await h.create('Nova');
    await h.appendInsight({ type: 'PatternAnchor', content: 'nova anchor' }, 'Nova');
    await h.rename('Vega', 'Nova');
    assert.match(read(h, 'sparklers', 'Vega', 'pattern-anchors.md'), /nova anchor/);
    assert.equal(existsSync(join(h.dir, 'sparklers', 'Nova')), false);
    assert.deepEqual(
      (await h.list()).config.sparklers.map((s) => s.name),
      ['Spark', 'Vega'],
    );
    await assert.rejects(h.rename('Spark', 'Vega'), /already exists/);
    await assert.rejects(h.rename('X', 'Nobody'), /no sparkler named/);
  });

  it('setup_sparkle sets the human name and keeps every existing file', async () => {
    const h = freshHome();
    const r1 = await h.setup('Ada');
    assert.ok(r1.created.some((p) => p.endsWith('collaborator-profile.md')));
    assert.match(read(h, 'collaborator-profile.md'), /^# Ada - Collaborator Profile/);
    writeFileSync(join(h.dir, 'collaborator-profile.md'), 'hand written');
    const r2 = await h.setup('Grace');
    assert.equal(read(h, 'collaborator-profile.md'), 'hand written');
    assert.ok(r2.kept.some((p) => p.endsWith('collaborator-profile.md')));
    assert.equal((await h.readConfig()).config.human, 'Grace');
    await assert.rejects(h.setup(''), /one line/);
  });

  it('profile and identity updates keep the previous version as a backup', async () => {
    const h = freshHome();
    await h.ensure();
    const before = read(h, 'collaborator-profile.md');
    const r = await h.updateProfile('# New profile\n');
    assert.equal(read(h, 'collaborator-profile.md'), '# New profile\n');
    assert.equal(readFileSync(r.backup!, 'utf8'), before);
    assert.match(r.backup!, /collaborator-profile\.2026-11-23-130405\.md$/);
    const again = await h.updateProfile('# Newer\n');
    assert.match(again.backup!, /collaborator-profile\.2026-11-23-130405-2\.md$/, 'same second: a new backup name, none replaced');
    const id = await h.updateIdentity('# Sparkle - me\n', 'Sparkle');
    assert.equal(read(h, 'sparkler-identity.md'), '# Sparkle - me\n');
    assert.ok(id.backup);
  });

  it("load_evolution reads the sparkler's record and evolution/*.md, skipping archives", async () => {
    const h = freshHome();
    await h.ensure();
    mkdirSync(join(h.dir, 'evolution', 'archive'), { recursive: true });
    writeFileSync(join(h.dir, 'evolution', 'design.md'), 'design doc');
    writeFileSync(join(h.dir, 'evolution', 'archive', 'old.md'), 'old');
    writeFileSync(join(h.dir, 'evolution', 'notes.txt'), 'not markdown');
    const r = await h.loadEvolution('Sparkle');
    assert.deepEqual(
      r.files.map((f) => f.path.slice(h.dir.length + 1)),
      ['collaboration-evolution.md', 'pattern-anchors.md', join('evolution', 'design.md')],
    );
  });

  it('an unreadable config.toml is reported, used as defaults for reading, and never rewritten', async () => {
    const h = freshHome();
    await h.ensure();
    writeFileSync(join(h.dir, 'config.toml'), '[human\nbroken');
    const { config, problem } = await h.readConfig();
    assert.equal(config.sparklers[0]!.name, 'Sparkle');
    assert.match(problem!, /config\.toml could not be read \(line 1/);
    await assert.rejects(h.create('Nova'), /could not be read.*Fix or remove it/s);
    await assert.rejects(h.rename('Nova', 'Sparkle'), /could not be read/);
    assert.equal(read(h, 'config.toml'), '[human\nbroken');
  });
});
