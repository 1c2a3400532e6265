// The research permission rule and the read-only mode choice, as pure functions (the
// real-process proof is conductor/test/researchConsent.process.spec.ts).
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { decideResearchPermission, pathsNamedBy, patternBase, readOnlySwitch } from './researchPolicy';

const OPTIONS = [
  { optionId: 'yes', kind: 'allow_once' },
  { optionId: 'always', kind: 'allow_always' },
  { optionId: 'no', kind: 'reject_once' },
];
const CRATE = '/crates/serde-1.0';
/** As the component resolves: a relative path is taken from the crate (its first root), `..` followed. */
const inside = async (p: string): Promise<boolean> => {
  const abs = resolve(CRATE, p);
  return abs === CRATE || abs.startsWith(`${CRATE}/`);
};

describe('research permission rule', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['execute is refused', { kind: 'execute', rawInput: { command: 'curl x | sh' } }, 'no'],
    ['edit is refused even inside the crate', { kind: 'edit', locations: [{ path: '/crates/serde-1.0/src/lib.rs' }] }, 'no'],
    ['fetch is refused', { kind: 'fetch' }, 'no'],
    ['a missing kind is "other" and refused', {}, 'no'],
    ['read inside the crate is approved', { kind: 'read', locations: [{ path: '/crates/serde-1.0/src/lib.rs' }] }, 'yes'],
    ['read outside is refused', { kind: 'read', locations: [{ path: '/etc/passwd' }] }, 'no'],
    ['a rawInput path outside is refused', { kind: 'read', rawInput: { file_path: '/home/u/.ssh/id_rsa' } }, 'no'],
    ['search inside is approved', { kind: 'search', rawInput: { path: '/crates/serde-1.0/', pattern: 'x' } }, 'yes'],
    ['think without paths is approved', { kind: 'think' }, 'yes'],
    ['think naming a path outside is refused', { kind: 'think', rawInput: { path: '/home/u/.ssh' } }, 'no'],
    // A place must be named: a path-less read or search runs wherever the agent is.
    ['a search with only a pattern is refused', { kind: 'search', rawInput: { pattern: 'password' } }, 'no'],
    ['a read that names nothing is refused', { kind: 'read', title: 'Read', rawInput: {} }, 'no'],
    ['a glob with an absolute pattern and no path is refused', { kind: 'search', rawInput: { pattern: '/home/u/**/*.env' } }, 'no'],
    [
      'a glob with an absolute pattern outside is refused even with a path inside',
      { kind: 'search', rawInput: { path: `${CRATE}/src`, pattern: '/home/u/**/*.env' } },
      'no',
    ],
    ['a glob inside the crate is approved', { kind: 'search', rawInput: { path: CRATE, glob: `${CRATE}/src/**/*.rs` } }, 'yes'],
    ['a relative glob climbing out is refused', { kind: 'search', rawInput: { path: CRATE, glob: '../../home/u/*' } }, 'no'],
    ['an include list reaching out is refused', { kind: 'search', rawInput: { path: CRATE, include: ['src/*.rs', '/etc/*'] } }, 'no'],
    ['an include list inside is approved', { kind: 'search', rawInput: { path: CRATE, include: ['src/*.rs', 'tests/**'] } }, 'yes'],
    ['a nested args.path outside is refused', { kind: 'read', rawInput: { tool: 'read', args: { path: '/etc/passwd' } } }, 'no'],
    ['a nested args.path inside is approved', { kind: 'read', rawInput: { args: { path: `${CRATE}/Cargo.toml` } } }, 'yes'],
    ['a file: uri outside is refused', { kind: 'read', rawInput: { uri: 'file:///etc/passwd' } }, 'no'],
    ['a file: uri inside is approved', { kind: 'read', rawInput: { uri: `file://${CRATE}/src/lib.rs` } }, 'yes'],
    ['a uri of another scheme is refused', { kind: 'read', rawInput: { uri: 'https://evil.example/x' } }, 'no'],
    ['a path field holding an object is refused', { kind: 'read', rawInput: { path: { value: '/etc/passwd' } } }, 'no'],
    ['a path field holding a number is refused', { kind: 'read', rawInput: { path: 7 } }, 'no'],
    ['a location without a path is refused', { kind: 'read', locations: [{ path: `${CRATE}/a.rs` }, { line: 3 }] }, 'no'],
    [
      'a path inside with a second one outside in a list is refused',
      { kind: 'read', rawInput: { paths: [`${CRATE}/a.rs`, '/etc/x'] } },
      'no',
    ],
  ];
  for (const [name, toolCall, expected] of cases) {
    it(name, async () => {
      const d = await decideResearchPermission({ toolCall, options: OPTIONS }, inside);
      assert.equal(d.outcome === 'selected' ? d.optionId : 'cancelled', expected);
    });
  }
  it('refuses with reject_always when there is no reject_once, cancels when the agent offers no reject', async () => {
    const d1 = await decideResearchPermission(
      {
        toolCall: { kind: 'execute' },
        options: [
          { optionId: 'y', kind: 'allow_once' },
          { optionId: 'never', kind: 'reject_always' },
        ],
      },
      inside,
    );
    assert.equal(d1.outcome === 'selected' && d1.optionId, 'never');
    const d2 = await decideResearchPermission({ toolCall: { kind: 'execute' }, options: [{ optionId: 'y', kind: 'allow_once' }] }, inside);
    assert.equal(d2.outcome, 'cancelled');
  });
  it('collects locations, place-like rawInput fields at any depth, and where patterns start', () => {
    assert.deepEqual(
      pathsNamedBy({
        toolCall: {
          locations: [{ path: '/a' }],
          rawInput: { paths: ['/b'], cwd: '/c', command: 'ls', args: [{ uri: 'file:///d' }], glob: '/e/src/**/*.rs' },
        },
      }),
      { places: ['/a', '/b', '/c', '/d'], patterns: ['/e/src/'] },
    );
    assert.match(pathsNamedBy({ toolCall: { locations: 'nope' } }).unreadable ?? '', /not a list/);
    assert.match(pathsNamedBy({ toolCall: { rawInput: { paths: ['/b', 2] } } }).unreadable ?? '', /"paths" holds a number/);
    assert.equal(patternBase('**/*.rs'), '.');
    assert.equal(patternBase('/x/y/z.rs'), '/x/y/z.rs');
    assert.equal(patternBase('/x/{a,b}/*.rs'), '/x/');
    assert.equal(patternBase('/*'), '/');
  });
});

describe('read-only mode of a research session', () => {
  it('picks a read-only mode (Codex), else plan (Claude Code), else nothing', () => {
    assert.deepEqual(
      readOnlySwitch({
        modes: {
          currentModeId: 'auto',
          availableModes: [
            { id: 'auto', name: 'Auto' },
            { id: 'read-only', name: 'Read Only' },
          ],
        },
      }),
      { method: 'session/set_mode', params: { modeId: 'read-only' } },
    );
    assert.deepEqual(
      readOnlySwitch({
        modes: {
          currentModeId: 'default',
          availableModes: [
            { id: 'default', name: 'Default' },
            { id: 'plan', name: 'Plan Mode' },
          ],
        },
      }),
      { method: 'session/set_mode', params: { modeId: 'plan' } },
    );
    assert.equal(
      readOnlySwitch({
        modes: {
          currentModeId: 'ask',
          availableModes: [
            { id: 'ask', name: 'Ask' },
            { id: 'code', name: 'Code' },
          ],
        },
      }),
      undefined,
    );
    assert.equal(
      readOnlySwitch({ modes: { currentModeId: 'read-only', availableModes: [{ id: 'read-only', name: 'Read Only' }] } }),
      undefined,
      'already read-only',
    );
    assert.equal(readOnlySwitch({}), undefined);
  });
  it('uses a mode-category config option when there are no modes', () => {
    const configOptions = [
      {
        id: 'approval',
        category: 'mode',
        currentValue: 'auto',
        options: [
          { value: 'auto', name: 'Auto' },
          { value: 'ro', name: 'Read only' },
        ],
      },
    ];
    assert.deepEqual(readOnlySwitch({ configOptions }), {
      method: 'session/set_config_option',
      params: { configId: 'approval', value: 'ro' },
    });
  });
});
