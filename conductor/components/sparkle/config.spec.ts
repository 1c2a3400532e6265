// config.toml: upstream's two shapes read and written back, unknown keys kept, unreadable TOML
// reported with its line instead of guessed at.
import * as assert from 'node:assert/strict';
import {
  configFromDoc,
  defaultConfigDoc,
  defaultSparkler,
  formatToml,
  parseToml,
  TomlError,
  withHumanName,
  withSingleName,
  withSparklers,
} from './config';

describe('sparkle config.toml', () => {
  it('reads the single-sparkler shape upstream writes (setup_sparkle)', () => {
    const c = configFromDoc(parseToml('[human]\nname = "Ada"\n\n[ai]\nname = "Sparkle"\n'));
    assert.equal(c.human, 'Ada');
    assert.equal(c.layout, 'single');
    assert.deepEqual(c.sparklers, [{ name: 'Sparkle', default: true }]);
  });

  it('reads the several-sparkler shape; the default is the marked one, else the first', () => {
    const text =
      '# mine\n[human]\nname = "Ada" # me\n\n[[sparklers]]\nname = "Sparkle Tester"\ndefault = false\n\n[[sparklers]]\nname = \'Nova\'\ndefault = true\n';
    const c = configFromDoc(parseToml(text));
    assert.equal(c.layout, 'multi');
    assert.deepEqual(
      c.sparklers.map((s) => s.name),
      ['Sparkle Tester', 'Nova'],
    );
    assert.equal(defaultSparkler(c), 'Nova');
    assert.equal(defaultSparkler(configFromDoc(parseToml('[[sparklers]]\nname = "A"\n[[sparklers]]\nname = "B"\n'))), 'A');
  });

  it('a missing human name means "User"; a missing [ai] means "Sparkle"', () => {
    const c = configFromDoc(parseToml(''));
    assert.equal(c.human, 'User');
    assert.deepEqual(c.sparklers, [{ name: 'Sparkle', default: true }]);
  });

  it('writes what it read, unknown tables and keys included, in the shape upstream writes', () => {
    const doc = parseToml(
      '[human]\nname = "Ada"\nemail = "a@b"\n\n[ai]\nname = "Sparkle"\n\n[extra]\nlist = ["x", 1, true]\n"odd key" = "q\\"uote"\n',
    );
    const again = parseToml(formatToml(doc));
    assert.deepEqual(again, doc);
    assert.equal(formatToml(defaultConfigDoc('Ada')), '[human]\nname = "Ada"\n\n[ai]\nname = "Sparkle"\n');
  });

  it('migrating to several sparklers drops [ai] and lists the old one first, as default', () => {
    const doc = withSparklers(parseToml('[human]\nname = "Ada"\n\n[ai]\nname = "Sparkle"\n'), [
      { name: 'Sparkle', default: true },
      { name: 'Nova', default: false },
    ]);
    assert.equal(
      formatToml(doc),
      '[human]\nname = "Ada"\n\n[[sparklers]]\nname = "Sparkle"\ndefault = true\n\n[[sparklers]]\nname = "Nova"\ndefault = false\n',
    );
  });

  it('renames and sets the human name without touching anything else', () => {
    const doc = parseToml('[human]\nname = "Ada"\nrole = "dev"\n\n[ai]\nname = "Sparkle"\n');
    assert.equal(configFromDoc(withSingleName(doc, 'Nova')).sparklers[0]!.name, 'Nova');
    const renamed = withHumanName(doc, 'Grace');
    assert.equal(configFromDoc(renamed).human, 'Grace');
    assert.equal(renamed[1]!.entries.role, 'dev');
    assert.equal(configFromDoc(doc).human, 'Ada', 'the input is not changed');
  });

  for (const [text, why] of [
    ['[human\nname = "x"', /line 1/],
    ['[human]\nname = "unterminated', /line 2: unterminated string/],
    ['[human]\nname.first = "x"', /dotted keys/],
    ['[human]\nname = """multi\nline"""', /multi-line/],
    ['[human]\nname = "a"\nname = "b"', /defined twice/],
    ['[human]\nname = "a" trailing', /unexpected/],
  ] as const) {
    it(`refuses ${JSON.stringify(text.split('\n').pop())} with the line and reason`, () => {
      assert.throws(
        () => parseToml(text),
        (err: Error) => err instanceof TomlError && why.test(err.message),
      );
    });
  }
});
