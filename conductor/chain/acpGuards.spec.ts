// The typed views of ACP params (acpGuards.ts): for each method, params the conductor can read
// pass through as they are (the very object, nothing copied or dropped), and malformed ones are
// refused with the message the editor edge answers them with.
import * as assert from 'node:assert/strict';
import {
  asCancel,
  asInitialize,
  asPrompt,
  asReadTextFile,
  asRequestPermission,
  asSessionClose,
  asSessionLoad,
  asSessionNew,
  asSessionFork,
  asSessionResume,
  asSessionSetup,
  asWriteTextFile,
  isSessionSetup,
  setUpSessionId,
  paramsProblem,
  sessionIdOf,
} from './acpGuards';

interface Row {
  method: string;
  guard: (params: unknown) => unknown;
  ok: unknown[];
  /** Malformed params, each with the problem paramsProblem names. */
  bad: [unknown, RegExp][];
}

const S = { sessionId: 's1' };
const rows: Row[] = [
  {
    method: 'initialize',
    guard: asInitialize,
    ok: [{ protocolVersion: 1 }, { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true } }, _meta: { x: 1 } }],
    bad: [
      [undefined, /numeric "protocolVersion"/],
      [{ protocolVersion: '1' }, /numeric "protocolVersion"/],
      [{ protocolVersion: 1, clientCapabilities: [] }, /"clientCapabilities" must be an object/],
    ],
  },
  {
    method: 'session/new',
    guard: asSessionNew,
    ok: [{ cwd: '/w' }, { cwd: 'C:\\w', mcpServers: [] }, { cwd: '/w', mcpServers: [{ name: 'm' }], unknownField: true }],
    bad: [
      [null, /absolute "cwd"/],
      [{ cwd: 'rel/dir' }, /absolute "cwd"/],
      [{ cwd: '/w', mcpServers: {} }, /"mcpServers" must be an array/],
    ],
  },
  {
    method: 'session/load',
    guard: asSessionLoad,
    ok: [
      { ...S, cwd: '/w', mcpServers: [] },
      { ...S, cwd: '/w' },
    ],
    bad: [
      [{ cwd: '/w' }, /session\/load needs a "sessionId"/],
      [{ ...S, cwd: 'w' }, /absolute "cwd"/],
    ],
  },
  {
    method: 'session/resume',
    guard: asSessionResume,
    ok: [{ ...S, cwd: '/w' }],
    bad: [[{ cwd: '/w', sessionId: 7 }, /session\/resume needs a "sessionId"/]],
  },
  {
    method: 'session/fork',
    guard: asSessionFork,
    ok: [
      { ...S, cwd: '/w' },
      { ...S, cwd: '/w', mcpServers: [] },
    ],
    bad: [
      [{ cwd: '/w' }, /session\/fork needs a "sessionId"/],
      [{ ...S, cwd: 'w' }, /absolute "cwd"/],
    ],
  },
  {
    method: 'session/prompt',
    guard: asPrompt,
    ok: [
      { ...S, prompt: [] },
      { ...S, prompt: [{ type: 'text', text: 'hi' }] },
    ],
    bad: [
      [{ prompt: [] }, /needs a "sessionId"/],
      [{ ...S, prompt: 'hi' }, /"prompt" array/],
      [[], /needs a "sessionId"/],
    ],
  },
  {
    method: 'session/cancel',
    guard: asCancel,
    ok: [S],
    bad: [
      [{}, /session\/cancel needs a "sessionId"/],
      ['s1', /needs a "sessionId"/],
    ],
  },
  { method: 'session/close', guard: asSessionClose, ok: [S], bad: [[{ sessionId: null }, /session\/close needs a "sessionId"/]] },
  {
    method: 'session/request_permission',
    guard: asRequestPermission,
    ok: [{ ...S, toolCall: { toolCallId: 't' }, options: [] }],
    bad: [
      [{ ...S, options: [] }, /"toolCall" object/],
      [{ ...S, toolCall: {}, options: {} }, /"options" array/],
      [{ toolCall: {}, options: [] }, /"sessionId"/],
    ],
  },
  {
    method: 'fs/read_text_file',
    guard: asReadTextFile,
    // line and limit are read leniently (readLines), so they are not checked here.
    ok: [
      { ...S, path: '/w/a' },
      { ...S, path: 'a', line: 2, limit: null },
      { ...S, path: 'a', line: 'x' },
    ],
    bad: [
      [{ ...S }, /"path" must be a string/],
      [{ path: '/w/a' }, /fs\/read_text_file needs a "sessionId"/],
    ],
  },
  {
    method: 'fs/write_text_file',
    guard: asWriteTextFile,
    ok: [{ ...S, path: '/w/a', content: '' }],
    bad: [
      [{ ...S, content: 'x' }, /"path" must be a string/],
      [{ ...S, path: '/w/a' }, /"content" must be a string/],
      [{ path: 'a', content: 'x' }, /"sessionId"/],
    ],
  },
];

describe('ACP param guards', () => {
  for (const row of rows) {
    it(`${row.method}: well-formed params pass as they are, malformed ones are refused with a reason`, () => {
      for (const params of row.ok) {
        assert.equal(row.guard(params), params, `${row.method} ${JSON.stringify(params)} should pass`);
        assert.equal(paramsProblem(row.method, params), undefined);
      }
      for (const [params, problem] of row.bad) {
        assert.equal(row.guard(params), undefined, `${row.method} ${JSON.stringify(params)} should be refused`);
        assert.match(paramsProblem(row.method, params) ?? '', problem);
      }
    });
  }

  it('methods the conductor does not read have no problem, whatever their params (inherited names too)', () => {
    for (const method of ['session/set_mode', '_symposium/x', 'constructor', 'toString', '__proto__']) {
      assert.equal(paramsProblem(method, 42), undefined);
    }
  });

  it('session setup: new, load, resume and fork, each by its own rule', () => {
    assert.deepEqual(
      ['session/new', 'session/load', 'session/resume', 'session/fork', 'session/prompt', 'constructor'].map(isSessionSetup),
      [true, true, true, true, false, false],
    );
    // new and fork answer the id of the session they made; load and resume name the one they reopen.
    assert.equal(setUpSessionId('session/new', { cwd: '/w' }, { sessionId: 'made' }), 'made');
    assert.equal(setUpSessionId('session/fork', { sessionId: 'source', cwd: '/w' }, { sessionId: 'copy' }), 'copy');
    assert.equal(setUpSessionId('session/resume', { sessionId: 'named', cwd: '/w' }, {}), 'named');
    assert.ok(asSessionSetup('session/new', { cwd: '/w' }));
    assert.equal(asSessionSetup('session/load', { cwd: '/w' }), undefined, 'load names its session');
    assert.equal(asSessionSetup('session/prompt', { ...S, prompt: [] }), undefined);
  });

  it('sessionIdOf reads the session id of any params or result, and nothing else', () => {
    assert.equal(sessionIdOf({ sessionId: 'a', update: {} }), 'a');
    for (const v of [undefined, null, 'a', ['a'], { sessionId: 1 }, {}]) assert.equal(sessionIdOf(v), undefined);
  });
});
