// Which settings changes offer "Restart Agent", and that the offer's button runs the restart.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changesNeedingRestart, offerRestart, RESTART_ACTION, type LaunchSettings } from './restartOffer';

const base: LaunchSettings = {
  agents: { Claude: { command: 'claude-acp', args: ['--x'], env: { A: '1', B: '2' }, autoApprove: ['read'] } },
  currentAgent: 'Claude',
  enabledComponents: null,
  sparkle: { sparkler: '', mode: 'full', checkpointEvery: 20 },
  proxies: {},
  languageServers: {},
  allowWorkspaceLanguageServers: false,
};
const with_ = (patch: Partial<LaunchSettings>): LaunchSettings => ({ ...base, ...patch });

describe('settings changes that need Restart Agent', () => {
  it('which agent runs, how it is launched and the conductor components do', () => {
    assert.deepEqual(changesNeedingRestart(base, with_({ currentAgent: 'ElizACP' })), ['currentAgent']);
    assert.deepEqual(changesNeedingRestart(base, with_({ enabledComponents: [] })), ['enabledComponents']);
    assert.deepEqual(
      changesNeedingRestart(base, with_({ agents: { Claude: { command: 'claude-acp', args: ['--y'], env: { A: '1', B: '2' } } } })),
      ['agents'],
    );
    assert.deepEqual(changesNeedingRestart(base, with_({ agents: {} })), ['agents'], 'an agent removed');
    assert.deepEqual(changesNeedingRestart(base, { ...base, agents: {}, currentAgent: 'ElizACP', enabledComponents: ['a'] }), [
      'agents',
      'currentAgent',
      'enabledComponents',
    ]);
    assert.deepEqual(
      changesNeedingRestart(base, with_({ sparkle: { sparkler: 'Nova', mode: 'full', checkpointEvery: 20 } })),
      ['sparkle'],
      'symposium.sparkle.* become conductor flags',
    );
  });

  it('permission rules and equal values written in another order do not', () => {
    assert.deepEqual(changesNeedingRestart(base, base), []);
    const bypass = with_({
      agents: {
        Claude: { command: 'claude-acp', args: ['--x'], env: { A: '1', B: '2' }, autoApprove: ['read', 'edit'], bypassPermissions: true },
      },
    });
    assert.deepEqual(changesNeedingRestart(base, bypass), [], '"Bypass Permissions" writes agents, needs no restart');
    const reordered = with_({ agents: { Claude: { env: { B: '2', A: '1' }, args: ['--x'], command: 'claude-acp' } } });
    assert.deepEqual(changesNeedingRestart(base, reordered), []);
    const builtinRules = with_({ agents: { ...(base.agents as object), ElizACP: { autoApprove: ['read'] } } });
    assert.deepEqual(changesNeedingRestart(base, builtinRules), [], "the built-in agent's entry holds only permission rules");
    assert.deepEqual(changesNeedingRestart({ ...base, agents: {} }, { ...base, agents: { ElizACP: { bypassPermissions: true } } }), []);
  });

  it('every setting in package.json is either read per use or listed here', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    const perUse = [
      'allFoldersInSession',
      'allowedFolders',
      'checkpoints.enabled',
      'checkpoints.maxMegabytes',
      'enableExperimentalLM',
      'history.maxConversations',
      'lm.maxInputTokens',
      'lm.maxOutputTokens',
      'maxImageBytes',
      'mcpServers.enabled',
      'openctx',
      'registry.urls',
      'restoreTabs',
      'reviewAgentEdits',
    ];
    // symposium.sparkle.* are read together, as `sparkle`; openctx.* and symposium.openctx.* live, as `openctx`;
    // symposium.languageServers.allowWorkspaceBinaries is the launch setting `allowWorkspaceLanguageServers`.
    const names = new Set(
      Object.keys(pkg.contributes.configuration.properties).map((k) =>
        k
          .replace(/^symposium\./, '')
          .replace(/^sparkle\..*$/, 'sparkle')
          .replace(/^languageServers\.allowWorkspaceBinaries$/, 'allowWorkspaceLanguageServers')
          .replace(/^openctx\..*$/, 'openctx'),
      ),
    );
    assert.deepEqual([...names].sort(), [...Object.keys(base), ...perUse].sort());
  });

  it('the offer runs the restart only when the user picks its button', async () => {
    let restarts = 0;
    const asked: string[] = [];
    const ask = (answer: string | undefined) => async (text: string, action: string) => {
      asked.push(`${text} [${action}]`);
      return answer;
    };
    assert.equal(
      await offerRestart(['currentAgent'], ask(RESTART_ACTION), () => {
        restarts++;
      }),
      true,
    );
    assert.equal(
      await offerRestart(['agents', 'enabledComponents'], ask(undefined), () => {
        restarts++;
      }),
      false,
    );
    assert.equal(restarts, 1);
    assert.match(asked[0]!, /symposium\.currentAgent applies to new chats.*\[Restart Agent\]$/);
    assert.match(asked[1]!, /symposium\.agents, symposium\.enabledComponents/);
  });
});
