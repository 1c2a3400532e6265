// The research permission rule and the read-only mode choice, as pure functions (the
// real-process proof is conductor/test/researchConsent.process.spec.ts).
import * as assert from 'node:assert/strict';
import { decideResearchPermission, pathsNamedBy, readOnlySwitch } from './researchPolicy';

const OPTIONS = [
  { optionId: 'yes', kind: 'allow_once' },
  { optionId: 'always', kind: 'allow_always' },
  { optionId: 'no', kind: 'reject_once' },
];
const inside = async (p: string): Promise<boolean> => p.startsWith('/crates/serde-1.0/');

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
  it('collects locations and path-like rawInput fields', () => {
    assert.deepEqual(
      pathsNamedBy({ toolCall: { locations: [{ path: '/a' }, { line: 3 }], rawInput: { paths: ['/b', 2], cwd: '/c', command: 'ls' } } }),
      ['/a', '/b', '/c'],
    );
    assert.deepEqual(pathsNamedBy({ toolCall: { locations: 'nope', rawInput: ['x'] } }), []);
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
