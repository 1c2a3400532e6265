// The shared IDE-operations protocol: exact position conversion between VS Code/LSP's 0-based
// UTF-16 `character` and our 1-based code-point columns (tabs, emoji, surrogate pairs, past the
// end), the params checks both answerers use, and the capability in clientCapabilities._meta.
import * as assert from 'node:assert/strict';
import {
  columnToUtf16,
  ideCapabilityOf,
  ideOperationOf,
  IdeParamsError,
  ideProgressTokenOf,
  parseIdeParams,
  parseIdeProgress,
  utf16ToColumn,
  withIdeCapability,
  withIdeProgressToken,
} from './ideOperations';

describe('IDE operations protocol (src/protocol/ideOperations.ts)', () => {
  // [line text, 0-based UTF-16 character, 1-based column]
  const POSITIONS: [string, number, number][] = [
    ['const x = 1;', 0, 1],
    ['const x = 1;', 6, 7],
    ['\t\treturn parser;', 2, 3], // a tab is one character
    ['\t\treturn parser;', 9, 10],
    ['const s = "😀"; parse(s);', 11, 12], // the emoji starts at UTF-16 11 …
    ['const s = "😀"; parse(s);', 13, 13], // … takes two code units and one column
    ['const s = "😀"; parse(s);', 16, 16],
    ['😀😀x', 4, 3],
    ['é\u0301x', 2, 3], // a combining mark is its own code point
    ['abc', 3, 4], // end of line
    ['abc', 5, 6], // past the end (LSP allows it): one column per unit
    ['', 0, 1],
  ];
  for (const [text, character, column] of POSITIONS) {
    it(`${JSON.stringify(text)}: UTF-16 ${character} ⇄ column ${column}`, () => {
      assert.equal(utf16ToColumn(text, character), column);
      if (character <= text.length) assert.equal(columnToUtf16(text, column), character);
    });
  }

  it('columnToUtf16 clamps past the end and never splits a surrogate pair', () => {
    assert.equal(columnToUtf16('ab', 10), 2);
    assert.equal(columnToUtf16('😀x', 2), 2);
    assert.equal(utf16ToColumn('😀x', 1), 2, 'an offset inside a pair counts the whole character');
  });

  it("parses every operation's params and names what is wrong", () => {
    assert.deepEqual(parseIdeParams('references', { sessionId: 's', position: { file: 'a.ts', line: 3, column: 5 }, extra: 1 }), {
      sessionId: 's',
      position: { file: 'a.ts', line: 3, column: 5 },
    });
    assert.deepEqual(parseIdeParams('diagnostics', { sessionId: 's' }), { sessionId: 's' });
    assert.deepEqual(parseIdeParams('searchText', { sessionId: 's', path: 'src', regex: 'x', extension: '.ts' }), {
      sessionId: 's',
      path: 'src',
      regex: 'x',
      extension: '.ts',
    });
    const bad: [Parameters<typeof parseIdeParams>[0], unknown, RegExp][] = [
      [
        'hover',
        { sessionId: 's', position: { file: 'a.ts', line: 0, column: 1 } },
        /"position.line" must be an integer ≥ 1 \(lines are 1-based\)/,
      ],
      ['hover', { sessionId: 's', position: { file: 'a.ts', line: 1, column: 1.5 } }, /"position.column" must be an integer ≥ 1/],
      ['definitions', { sessionId: 's' }, /"position" must be an object/],
      ['workspaceSymbols', { query: 'x' }, /"sessionId" must be a string/],
      ['lines', { sessionId: 's', file: 'a', start: 5, end: 2 }, /"end" must not be before "start"/],
      ['documentSymbols', null, /needs params/],
    ];
    for (const [op, params, message] of bad)
      assert.throws(
        () => parseIdeParams(op, params),
        (e: unknown) => e instanceof IdeParamsError && message.test(e.message),
        `${op} ${JSON.stringify(params)}`,
      );
  });

  it('reads and writes the capability under clientCapabilities._meta.symposium.ide', () => {
    const meta = withIdeCapability({ other: 1, symposium: { keep: true } }, { operations: ['references', 'hover'] });
    assert.deepEqual(meta, { other: 1, symposium: { keep: true, ide: { operations: ['references', 'hover'] } } });
    assert.deepEqual(ideCapabilityOf({ _meta: meta }), { operations: ['references', 'hover'] });
    assert.deepEqual(ideCapabilityOf({ _meta: { symposium: { ide: { operations: ['hover', 'bogus', 3] } } } }), { operations: ['hover'] });
    assert.equal(ideCapabilityOf({}), undefined);
    assert.equal(ideCapabilityOf({ _meta: { symposium: { ide: true } } }), undefined);
    assert.equal(ideOperationOf('_symposium/ide/references'), 'references');
    assert.equal(ideOperationOf('_symposium/ide/nope'), undefined);
    assert.equal(ideOperationOf('fs/read_text_file'), undefined);
  });

  it('carries a progress token in _meta.symposium and checks _symposium/ide/progress params', () => {
    const params = withIdeProgressToken({ sessionId: 's', query: 'P', _meta: { other: 1, symposium: { keep: true } } }, 'tok-1');
    assert.deepEqual(params._meta, { other: 1, symposium: { keep: true, progressToken: 'tok-1' } });
    assert.equal(ideProgressTokenOf(params), 'tok-1');
    assert.deepEqual(parseIdeParams('workspaceSymbols', params), { sessionId: 's', query: 'P' }, 'answerers ignore _meta');
    for (const bad of [{}, { _meta: { symposium: { progressToken: 3 } } }, { _meta: { symposium: { progressToken: '' } } }, null])
      assert.equal(ideProgressTokenOf(bad), undefined);
    assert.deepEqual(parseIdeProgress({ token: 't', message: 'tsserver: loading', percentage: 40, finished: true, extra: 1 }), {
      token: 't',
      message: 'tsserver: loading',
      percentage: 40,
      finished: true,
    });
    assert.deepEqual(
      parseIdeProgress({ token: 't', message: 'm', percentage: 140 }),
      { token: 't', message: 'm' },
      'a bad percentage is left out',
    );
    for (const bad of [{ token: 't' }, { token: 1, message: 'm' }, { token: 't', message: '' }, 'x'])
      assert.equal(parseIdeProgress(bad), undefined, JSON.stringify(bad));
    assert.equal(parseIdeProgress({ token: 't', message: 'x'.repeat(1000) })?.message.length, 300);
  });
});
