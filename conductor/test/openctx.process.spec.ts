// The openctx component in the real conductor (default chain) in front of ElizACP: a session
// whose setup carries OpenCtx providers (`_meta.symposium.openctx`, as the extension sends it)
// gets the `openctx` MCP server, and ElizACP calls its tools over real MCP; the agent never sees
// the providers' settings; a session without providers gets no server; broken providers are
// named in the answer's `problems` while the others answer.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withOpenCtxSessionConfig, type OpenCtxSessionConfig } from '../../src/protocol/openctx';
import { TOOL_PROGRESS_METHOD, withToolProgressCapability } from '../../src/protocol/symposium-ext';
import { startHttpProviders, type HttpProviders, type ProviderModule } from '../../src/test/openctxHttpProvider';
import { conductorArgs, initialize, prompt, startProcess, tempDir, type Harness } from './harness';
import { toolReplyJson } from '../../src/test/ideExpectations';

const FIXTURES = join(__dirname, '..', '..', 'test-fixtures/workspace', 'openctx');
const moduleUri = (name: string): string => pathToFileURL(join(FIXTURES, name)).href;

const tickets: ProviderModule = {
  meta: () => ({ name: 'Tickets', mentions: {}, items: {} }),
  mentions: () => [{ title: 'TICKET-7 Crash on save', uri: 'https://tickets.example/7' }],
  items: (params, settings) => [
    { title: 'TICKET-7', url: 'https://tickets.example/7', ai: { content: `crash details for ${(settings as { team: string }).team}` } },
  ],
};

async function sessionWith(h: Harness, cwd: string, config?: OpenCtxSessionConfig): Promise<string> {
  const params = { cwd, mcpServers: [] };
  const r = (await h.conn.agent.request('session/new', config ? withOpenCtxSessionConfig(params, config) : params)) as {
    sessionId: string;
  };
  return r.sessionId;
}

// ElizACP appends the progress a tool reported ('(progress: …)'); the reply's JSON is before it.
const toolJson = (text: string): Record<string, unknown> => toolReplyJson(text) as Record<string, unknown>;

describe('openctx component (conductor + ElizACP processes)', function () {
  this.timeout(60_000);
  let http: HttpProviders;
  let h: Harness | undefined;
  before(async () => {
    http = await startHttpProviders({ tickets });
  });
  after(() => http.close());
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('injects the openctx tools into a configured session; the agent calls them; settings stay out of the agent', async () => {
    const traceDir = tempDir('symposium-openctx-trace-');
    h = startProcess(conductorArgs({ traceDir, log: 'warn' }));
    const init = await initialize(h);
    assert.ok(((init.agentCapabilities?._meta as { symposium: { components: string[] } }).symposium.components ?? []).includes('openctx'));
    const cwd = tempDir();
    const plain = await sessionWith(h, cwd);
    assert.doesNotMatch((await prompt(h, plain, 'list tools from openctx')).text, /Tools from openctx/, 'no providers, no server');

    const sessionId = await sessionWith(h, cwd, {
      providers: [
        { uri: moduleUri('sample-provider.mjs'), settings: { prefix: '» ' } },
        { uri: `${http.base}/tickets`, settings: { team: 'core-secret-team' } },
        { uri: moduleUri('throwing-provider.mjs'), settings: {} },
        { uri: moduleUri('mentions-only-provider.mjs'), settings: {} },
      ],
      allowModules: true,
    });
    assert.match(
      (await prompt(h, sessionId, 'list tools from openctx')).text,
      /Tools from openctx: openctx_providers, openctx_mentions, openctx_items/,
    );

    const providers = toolJson((await prompt(h, sessionId, 'use tool openctx::openctx_providers')).text);
    assert.deepEqual(
      (providers.providers as { name: string }[]).map((p) => p.name),
      ['Sample docs', 'Tickets', 'Throwing', 'Links'],
    );

    const found = toolJson((await prompt(h, sessionId, 'use tool openctx::openctx_mentions with {"query": "release"}')).text);
    assert.deepEqual(
      (found.mentions as { title: string }[]).map((m) => m.title),
      ['Release checklist', 'TICKET-7 Crash on save'],
    );
    assert.match(JSON.stringify(found.problems), /throwing-provider\.mjs: mentions failed: the throwing provider throws/);

    const release = (found.mentions as { provider: string; uri: string; title: string }[])[0]!;
    const items = toolJson(
      (
        await prompt(
          h,
          sessionId,
          `use tool openctx::openctx_items with ${JSON.stringify({ provider: release.provider, mention: { uri: release.uri, title: release.title } })}`,
        )
      ).text,
    );
    assert.deepEqual(items.items, [
      {
        provider: release.provider,
        title: 'Release checklist',
        url: 'https://docs.example/release-checklist',
        content: '» Run npm test. Update the changelog. Tag the release.',
      },
    ]);
    const ticket = toolJson(
      (await prompt(h, sessionId, 'use tool openctx::openctx_items with {"provider": "Tickets", "message": "crash"}')).text,
    );
    assert.equal((ticket.items as { content: string }[])[0]?.content, 'crash details for core-secret-team');
    assert.match((await prompt(h, sessionId, 'use tool openctx::openctx_items with {}')).text, /Give a mention or a message/);
    // A provider whose meta has no `items` is still asked for the items of its own mention.
    const runbook = { uri: 'https://links.example/runbook-deploys', title: 'Runbook: deploys' };
    const links = toolJson(
      (await prompt(h, sessionId, `use tool openctx::openctx_items with ${JSON.stringify({ provider: 'Links', mention: runbook })}`)).text,
    );
    assert.deepEqual(links.items, [
      {
        provider: moduleUri('mentions-only-provider.mjs'),
        title: 'Runbook: deploys',
        url: runbook.uri,
        content: 'Deploy from main, never on Fridays.',
      },
    ]);

    await h.close();
    h = undefined;
    const trace = readFileSync(
      join(
        traceDir,
        readdirSync(traceDir).find((f) => f.endsWith('.jsonl'))!,
      ),
      'utf8',
    );
    const fromEditor = trace
      .split('\n')
      .find((l) => l.includes('"from":"editor"') && l.includes('"session/new"') && l.includes('"openctx":'));
    assert.ok(
      fromEditor && !fromEditor.includes('core-secret-team') && fromEditor.includes('"settings":"[redacted]"'),
      'masked in the trace',
    );
    const toAgent = trace.split('\n').filter((l) => l.includes('"to":"agent"') && l.includes('"session/new"'));
    assert.equal(toAgent.length, 2);
    for (const line of toAgent)
      assert.ok(!line.includes('core-secret-team') && !line.includes('"openctx":'), 'the agent never sees the providers');
    const sent = http.requests.filter((r) => r.path === '/tickets');
    assert.ok(
      sent.every((r) => JSON.stringify(r.body.settings) === '{"team":"core-secret-team"}'),
      'exactly its own settings',
    );
  });

  it('a call that waits on a slow provider shows progress on its tool card, then answers with the others', async () => {
    h = startProcess(conductorArgs({ log: 'warn' }));
    // As the extension does: it shows `_symposium/tool_progress` on its cards itself.
    await initialize(h, { _meta: withToolProgressCapability(undefined) });
    const sessionId = await sessionWith(h, tempDir(), {
      providers: [
        { uri: moduleUri('sample-provider.mjs'), settings: {} },
        { uri: moduleUri('hanging-provider.mjs'), settings: {} },
      ],
      allowModules: true,
    });
    const found = toolJson((await prompt(h, sessionId, 'use tool openctx::openctx_mentions with {"query": "release"}')).text);
    assert.deepEqual(
      (found.mentions as { title: string }[]).map((m) => m.title),
      ['Release checklist'],
    );
    assert.match(JSON.stringify(found.problems), /hanging-provider\.mjs/);
    const progress = h.notifications
      .filter((n) => n.method === TOOL_PROGRESS_METHOD)
      .map((n) => n.params as { sessionId: string; server: string; tool: string; message: string });
    assert.ok(progress.length >= 2, `progress while waiting: ${JSON.stringify(progress)}`);
    for (const p of progress) {
      assert.equal(p.sessionId, sessionId);
      assert.equal(p.server, 'openctx');
      assert.equal(p.tool, 'openctx_mentions');
      assert.match(p.message, /^Waiting for OpenCtx providers… \d+ s$/);
    }
    // A quick call shows none.
    const before = h.notifications.length;
    await prompt(h, sessionId, 'use tool openctx::openctx_providers');
    assert.equal(h.notifications.slice(before).filter((n) => n.method === TOOL_PROGRESS_METHOD).length, 0);
  });

  it('loads no module provider for an untrusted workspace; HTTP providers still answer', async () => {
    h = startProcess(conductorArgs({ log: 'warn' }));
    await initialize(h);
    const sessionId = await sessionWith(h, tempDir(), {
      providers: [
        { uri: moduleUri('sample-provider.mjs'), settings: {} },
        { uri: `${http.base}/tickets`, settings: { team: 't' } },
      ],
      allowModules: false,
    });
    const found = toolJson((await prompt(h, sessionId, 'use tool openctx::openctx_mentions with {"query": ""}')).text);
    assert.deepEqual(
      (found.mentions as { title: string }[]).map((m) => m.title),
      ['TICKET-7 Crash on save'],
    );
    assert.match(JSON.stringify(found.problems), /module providers are code: loaded only in a trusted workspace/);
  });
});
