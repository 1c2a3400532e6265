// OpenCtx providers in the real host (docs/openctx.md). `openctx.providers` names the sample
// module of test-fixtures/workspace/openctx (relative to the workspace), an HTTP provider on loopback
// started here, and broken ones (throwing, hanging, malformed answers, malformed JSON). Their
// mentions join the `@` menu under one entry per provider; a chosen mention reaches ElizACP as an
// embedded resource (`what did i attach`); the sample's annotations show as a hover and a code
// lens in src/greeter.ts; the agent (ElizACP) calls them through the conductor's openctx MCP
// server; the broken providers cost log lines only.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextRef } from '../../protocol/webview';
import { startHttpProviders, type HttpProviders } from '../openctxHttpProvider';
import { toolReplyJson } from '../ideExpectations';
import { answerText, captureLog, cmd, newTab, openChat, rendered, renderedTabStore, waitFor, waitForIdle } from '../helpers';

const root = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

/** A provider served over HTTP by the test: tickets to mention, with their text as items. */
const tickets = {
  meta: () => ({ name: 'Loopback tickets', mentions: { label: 'Loopback tickets' }, items: {} }),
  mentions: (params: unknown) => {
    const q = ((params as { query?: string }).query ?? '').toLowerCase();
    return [
      { title: 'TICKET-1 Login fails', uri: 'https://tickets.example/1' },
      { title: 'TICKET-2 Slow search', uri: 'https://tickets.example/2' },
    ].filter((t) => t.title.toLowerCase().includes(q));
  },
  items: (params: unknown, settings: unknown) => {
    const m = (params as { mention?: { uri: string; title: string } }).mention;
    const who = (settings as { team?: string }).team ?? '?';
    return m ? [{ title: m.title, url: m.uri, ai: { content: `${m.title} (team ${who})` } }] : [];
  },
};

async function askWith(tabId: string, text: string, context: ContextRef[]): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text, context);
  await waitForIdle(tabId, 30_000);
  const items = (await rendered(tabId))!;
  return answerText(items, messageId) || (items.find((i) => i.messageId === `${messageId}:end`)?.body ?? '');
}

suite('OpenCtx providers', () => {
  let http: HttpProviders;
  let log: ReturnType<typeof captureLog>;

  suiteSetup(async function () {
    this.timeout(60_000);
    const api = await openChat();
    log = captureLog(api);
    http = await startHttpProviders({ tickets });
    await vscode.workspace.getConfiguration('openctx').update(
      'providers',
      {
        './openctx/sample-provider.mjs': {},
        [`${http.base}/tickets`]: { team: 'core' },
        './openctx/throwing-provider.mjs': true,
        './openctx/hanging-provider.mjs': true,
        './openctx/malformed-provider.mjs': true,
        [`${http.base}/malformed`]: true,
        './openctx/disabled-provider.mjs': false,
      },
      vscode.ConfigurationTarget.Global,
    );
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('openctx').update('providers', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    log.dispose();
    await http.close();
  });

  test('the @ menu lists each provider with its mentions; a chosen mention reaches the agent as a resource', async function () {
    this.timeout(90_000);
    const tabId = await newTab();
    let refs: ContextRef[] = [];
    await waitFor(
      'the mentions of the sample, loopback and malformed providers',
      async () => {
        refs = (await cmd<ContextRef[]>('listContext')).filter((r) => r.kind === 'openctx');
        return refs.length === 6;
      },
      30_000,
    );
    assert.deepEqual(refs.map((r) => `${r.providerName}: ${r.name}`).sort(), [
      'Loopback tickets: TICKET-1 Login fails',
      'Loopback tickets: TICKET-2 Slow search',
      'Malformed: Good mention',
      'Sample docs: Greeting guide',
      'Sample docs: Release checklist',
      'Sample docs: Style rules',
    ]);
    await waitFor("the tab's @ menu to offer the providers", async () => {
      const groups = (await renderedTabStore(tabId))?.contextGroups ?? [];
      return groups.includes('Sample docs') && groups.includes('Loopback tickets');
    });

    const release = refs.find((r) => r.name === 'Release checklist')!;
    const ticket = refs.find((r) => r.name === 'TICKET-2 Slow search')!;
    const answer = await askWith(tabId, 'what did i attach', [release, ticket]);
    assert.equal(answer, 'You attached 2 items:\n- resource https://docs.example/release-checklist\n- resource https://tickets.example/2');
    const sent = http.requests.filter((r) => r.path === '/tickets' && r.body.method === 'items');
    assert.deepEqual(sent.at(-1)?.body, {
      method: 'items',
      params: { mention: { title: 'TICKET-2 Slow search', uri: 'https://tickets.example/2' }, message: 'what did i attach' },
      settings: { team: 'core' },
    });
  });

  test('a matching file shows the sample annotation as a hover and a code lens', async function () {
    this.timeout(60_000);
    const uri = vscode.Uri.file(path.join(root(), 'src', 'greeter.ts'));
    await vscode.window.showTextDocument(uri);
    let hovers: vscode.Hover[] = [];
    await waitFor(
      'the OpenCtx hover on greet()',
      async () => {
        hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(4, 4));
        return hovers.some((h) => h.contents.some((c) => c instanceof vscode.MarkdownString && c.value.includes('Greeting guide')));
      },
      30_000,
    );
    const md = hovers
      .flatMap((h) => h.contents)
      .find((c): c is vscode.MarkdownString => c instanceof vscode.MarkdownString && c.value.includes('Greeting'))!;
    assert.match(md.value, /\*\*Greeting guide\*\*: greet users by name\./);
    assert.equal(md.isTrusted, false, "a provider's markdown is untrusted");
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10);
    const ours = lenses.filter((l) => l.command?.title === '📘 Greeting guide');
    assert.deepEqual(
      // vscode.open comes back as the workbench's own name for it.
      ours.map((l) => [
        l.range.start.line,
        /^(vscode|_workbench)\.open$/.test(l.command?.command ?? ''),
        String(l.command?.arguments?.[0]),
      ]),
      [[4, true, 'https://docs.example/greeting-guide']],
    );
    const readme = vscode.Uri.file(path.join(root(), 'README.md'));
    const none = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', readme, new vscode.Position(0, 2));
    assert.ok(
      !none.some((h) => h.contents.some((c) => c instanceof vscode.MarkdownString && c.value.includes('Greeting'))),
      'selector: .ts only',
    );
  });

  test('annotations are asked again after a save: a new matching line gets its code lens', async function () {
    this.timeout(60_000);
    const uri = vscode.Uri.file(path.join(root(), 'src', 'greeter.ts'));
    const editor = await vscode.window.showTextDocument(uri);
    const lensLines = async (): Promise<number[]> =>
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10))
        .filter((l) => l.command?.title === '📘 Greeting guide')
        .map((l) => l.range.start.line);
    await waitFor('the lens on greet()', async () => JSON.stringify(await lensLines()) === '[4]', 30_000);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// greet everyone\n'));
    await editor.document.save();
    await waitFor('the lenses after the save', async () => JSON.stringify(await lensLines()) === '[0,5]');
    // Put the file back for the suites after this one.
    await editor.edit((e) => e.delete(new vscode.Range(0, 0, 1, 0)));
    await editor.document.save();
  });

  test("an agent calls the providers as tools (the conductor's openctx MCP server)", async function () {
    this.timeout(60_000);
    const tabId = await newTab();
    const answer = await askWith(tabId, 'use tool openctx::openctx_mentions with {"query": "slow"}', []);
    // toolReplyJson: ElizACP appends the progress the call reported (the hanging provider takes 5 s).
    const result = toolReplyJson(answer) as { mentions: { title: string; provider: string }[]; problems?: string[] };
    // The malformed provider's one good mention ignores the query; the sample docs have no match.
    assert.deepEqual(result.mentions.map((m) => m.title).sort(), ['Good mention', 'TICKET-2 Slow search']);
    assert.ok(result.problems?.some((p) => /hanging-provider\.mjs: mentions failed: no answer within 5000 ms/.test(p)));
    const items = toolReplyJson(
      await askWith(
        tabId,
        `use tool openctx::openctx_items with ${JSON.stringify({ provider: 'Loopback tickets', message: 'x', mention: { uri: 'https://tickets.example/2', title: 'TICKET-2 Slow search' } })}`,
        [],
      ),
    ) as { items: { content: string }[] };
    assert.deepEqual(
      items.items.map((i) => i.content),
      ['TICKET-2 Slow search (team core)'],
    );
  });

  test('broken providers cost only log lines naming them', async () => {
    await waitFor('warnings from every broken provider', () => {
      const warned = log.events.filter((e) => e.category === 'openctx' && e.level === 'warn').map((e) => e.message);
      return ['throwing-provider.mjs', 'hanging-provider.mjs', 'malformed-provider.mjs', `${http.base}/malformed`].every((p) =>
        warned.some((m) => m.includes(p)),
      );
    });
    const warned = log.events.filter((e) => e.category === 'openctx' && e.level === 'warn').map((e) => e.message);
    assert.ok(warned.some((m) => /hanging-provider\.mjs: mentions failed: no answer within 5000 ms/.test(m)));
    assert.ok(warned.some((m) => /malformed: meta failed: the answer is not JSON/.test(m)));
    assert.ok(!warned.some((m) => m.includes('disabled-provider')), 'a provider set to false is not loaded');
  });

  test('symposium.openctx.enabled: false takes the providers out of the @ menu; true brings them back', async function () {
    this.timeout(60_000);
    const openctxRefs = async (): Promise<number> => (await cmd<ContextRef[]>('listContext')).filter((r) => r.kind === 'openctx').length;
    const config = vscode.workspace.getConfiguration('symposium.openctx');
    await config.update('enabled', false, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('no OpenCtx mentions', async () => (await openctxRefs()) === 0);
    } finally {
      await config.update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the mentions back', async () => (await openctxRefs()) === 6, 30_000);
  });
});
