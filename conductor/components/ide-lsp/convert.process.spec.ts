import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hoverText, Locator } from './convert';

describe('hoverText (language-server fallback)', () => {
  it('fences a code part with its language, longer than any backtick run in it', () => {
    assert.equal(hoverText({ contents: { language: 'ts', value: 'class Parser' } }), '```ts\nclass Parser\n```');
    const doc = 'a ```js fence``` in a doc comment';
    assert.equal(hoverText({ contents: [{ language: 'ts', value: doc }, 'text'] }), `\`\`\`\`ts\n${doc}\n\`\`\`\`\n\ntext`);
  });
});

describe('Locator: the lines of a file a language server names', () => {
  it('a FIFO is not read (a synchronous read would block the conductor until a writer came); a file is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'symposium-locator-'));
    execFileSync('mkfifo', [join(dir, 'fifo.ts')]);
    writeFileSync(join(dir, 'a.ts'), 'one\ntwo\n');
    const locator = new Locator(
      () => undefined,
      () => true,
    );
    assert.equal(locator.linesOf(pathToFileURL(join(dir, 'fifo.ts')).href), undefined);
    assert.deepEqual(locator.linesOf(pathToFileURL(join(dir, 'a.ts')).href), ['one', 'two', '']);
  });
});
