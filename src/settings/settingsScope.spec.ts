// Which symposium.* values count: user-level ones only for the security-relevant settings, absolute
// allowed folders, workspace settings files that try to set them, the built-in agent when untrusted.
import * as assert from 'node:assert/strict';
import { builtinAgent } from './agentDefinition';
import {
  actsWithoutAsking,
  agentForTrust,
  currentAgentChoice,
  lmEnabledFor,
  onUnlessTurnedOff,
  parseAllowedFolders,
  stripJsonc,
  userLevel,
  userOnlyKeysIn,
} from './settingsScope';

describe('settings a workspace may not set', () => {
  it('userLevel: the user (or default) value; a workspace or folder value is never used, only reported', () => {
    assert.deepEqual(userLevel({ defaultValue: {}, globalValue: { A: 1 }, workspaceValue: { B: 2 } }), {
      value: { A: 1 },
      fromWorkspace: true,
    });
    assert.deepEqual(userLevel({ defaultValue: {}, workspaceFolderValue: { ElizACP: { bypassPermissions: true } } }), {
      value: {},
      fromWorkspace: true,
    });
    assert.deepEqual(userLevel({ defaultValue: [] }), { value: [], fromWorkspace: false });
    assert.deepEqual(userLevel(undefined), { value: undefined, fromWorkspace: false });
  });

  it('allowedFolders: absolute paths, ~ and ~/x expanded; relative and other entries refused with a reason', () => {
    const { folders, problems } = parseAllowedFolders(
      ['/srv/data/', '~', '~/notes', 'rel/dir', './x', '~bob/x', '', 42, '/a/../b'],
      '/home/me',
    );
    assert.deepEqual(folders, ['/srv/data/', '/home/me', '/home/me/notes', '/b']);
    assert.equal(problems.length, 5);
    assert.match(problems[0]!, /"rel\/dir" is not an absolute path/);
    assert.match(problems[2]!, /"~bob\/x"/);
    assert.deepEqual(parseAllowedFolders(undefined, '/h'), { folders: [], problems: [] });
    assert.equal(parseAllowedFolders('/tmp', '/h').problems.length, 1);
  });

  it('finds user-only settings in settings.json and .code-workspace text (comments, trailing commas, nested form)', () => {
    const text = `{
      // a repository's settings
      "editor.tabSize": 2, /* block */
      "symposium.agents": { "ElizACP": { "bypassPermissions": true }, },
      "symposium.currentAgent": "ElizACP",
      "url": "http://x//y",
    }`;
    assert.match(stripJsonc(text), /"http:\/\/x\/\/y"/, 'strings keep their slashes');
    assert.deepEqual(userOnlyKeysIn(text), ['agents']);
    assert.deepEqual(userOnlyKeysIn('{"symposium": {"allowedFolders": ["/"], "enabledComponents": []}}'), [
      'allowedFolders',
      'enabledComponents',
    ]);
    assert.deepEqual(userOnlyKeysIn('{"folders": [], "settings": {"symposium.allowedFolders": ["/"]}}', 'settings'), ['allowedFolders']);
    assert.deepEqual(userOnlyKeysIn('{"symposium.currentAgent": "x"}'), [], 'a workspace may name the agent');
    // The agent picker's registry files: a repository may not add agents to your list.
    assert.deepEqual(userOnlyKeysIn('{"symposium.registry.urls": ["https://evil.example/r.json"]}'), ['registry.urls']);
    assert.deepEqual(userOnlyKeysIn('{"symposium": {"registry": {"urls": []}}}'), ['registry.urls']);
    // External proxies are processes: a repository may not put one into your chain.
    assert.deepEqual(userOnlyKeysIn('{"symposium.proxies": {"p": {"command": "curl"}}}'), ['proxies']);
    assert.deepEqual(userOnlyKeysIn('not json'), []);
  });

  it('untrusted workspace: only the built-in agent starts; a configured one is held back until trusted', () => {
    const builtin = builtinAgent({ execPath: '/bin/node', extensionPath: '/ext' });
    const custom = { name: 'claude', command: 'claude-acp', args: [], env: {} };
    assert.deepEqual(agentForTrust(custom, builtin, false), { agent: builtin, heldBack: 'claude' });
    assert.deepEqual(agentForTrust(custom, builtin, true), { agent: custom });
    assert.deepEqual(agentForTrust(builtin, builtin, false), { agent: builtin });
  });

  it("currentAgent: a workspace's pick of an agent that acts without asking counts only with the user's consent", () => {
    const agents = {
      Careful: { command: 'a' },
      Bold: { command: 'b', bypassPermissions: true },
      Eager: { command: 'c', autoApprove: ['edit'] },
    };
    const never = (): boolean => false;
    assert.equal(actsWithoutAsking(agents, 'bold'), true, 'matched like currentAgent, ignoring case');
    assert.equal(actsWithoutAsking(agents, 'Careful'), false);
    assert.equal(actsWithoutAsking({ Eager: { autoApprove: [] } }, 'Eager'), false);
    const ws = (name: string) => ({ defaultValue: 'ElizACP', globalValue: 'Careful', workspaceValue: name });
    assert.deepEqual(currentAgentChoice(ws('Careful'), agents, never), { value: 'Careful' });
    assert.deepEqual(currentAgentChoice({ ...ws('x'), workspaceValue: undefined, workspaceFolderValue: 'Bold' }, agents, never), {
      value: 'Careful',
      heldBack: 'Bold',
    });
    assert.deepEqual(currentAgentChoice(ws('Eager'), agents, never), { value: 'Careful', heldBack: 'Eager' });
    assert.deepEqual(
      currentAgentChoice(ws('Bold'), agents, (n) => n === 'Bold'),
      { value: 'Bold' },
    );
    // The user's own pick is the user's, whatever its rules; unknown names are left to the agent lookup.
    assert.deepEqual(currentAgentChoice({ defaultValue: 'ElizACP', globalValue: 'Bold' }, agents, never), { value: 'Bold' });
    assert.deepEqual(currentAgentChoice({ defaultValue: 'ElizACP', workspaceValue: 'Bold' }, agents, never), {
      value: 'ElizACP',
      heldBack: 'Bold',
    });
    assert.deepEqual(currentAgentChoice(ws('Nobody'), agents, never), { value: 'Nobody' });
  });

  it('reviewAgentEdits is a setting only the user sets', () => {
    assert.deepEqual(userOnlyKeysIn('{"symposium.reviewAgentEdits": false}'), ['reviewAgentEdits']);
  });

  it('enableExperimentalLM: an untrusted workspace cannot turn the LM provider on (or off); only the user value counts, and the ignored value is reported', () => {
    const on = { defaultValue: false, workspaceValue: true };
    assert.deepEqual(lmEnabledFor(on, false), { enabled: false, ignored: true });
    assert.deepEqual(lmEnabledFor({ defaultValue: false, workspaceFolderValue: true }, false), { enabled: false, ignored: true });
    assert.deepEqual(lmEnabledFor({ defaultValue: false, globalValue: true, workspaceValue: false }, false), {
      enabled: true,
      ignored: true,
    });
    assert.deepEqual(lmEnabledFor({ defaultValue: false, globalValue: true }, false), { enabled: true, ignored: false });
    // Trusted: as VS Code resolves it (the workspace's value wins).
    assert.deepEqual(lmEnabledFor(on, true), { enabled: true, ignored: false });
    assert.deepEqual(lmEnabledFor(undefined, true), { enabled: false, ignored: false });
  });

  it('a switch that widens what agents may do: a workspace turns it off, never on against the user', () => {
    assert.equal(onUnlessTurnedOff(undefined), true);
    assert.equal(onUnlessTurnedOff({ defaultValue: true }), true);
    assert.equal(onUnlessTurnedOff({ defaultValue: true, workspaceValue: false }), false);
    assert.equal(onUnlessTurnedOff({ defaultValue: true, workspaceFolderValue: false }), false);
    assert.equal(onUnlessTurnedOff({ defaultValue: true, globalValue: false, workspaceValue: true }), false);
    assert.equal(onUnlessTurnedOff({ defaultValue: true, globalValue: false, workspaceFolderValue: true }), false);
    assert.equal(onUnlessTurnedOff({ defaultValue: false, workspaceValue: true }), false);
  });
});
