// The OpenCtx `@` menu source over the real client and the sample module provider: mentions for
// the empty query, then for the typed query (a newer query supersedes an older one), and chosen
// mentions resolved into embedded resources or links.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { OpenCtxClient } from '../node/openctxClient';
import { Emitter } from '../util/emitter';
import { OpenCtxSource } from './openctxSource';
import { silentLog } from '../log/logEvent';

const SAMPLE = pathToFileURL(path.join(__dirname, '..', '..', 'test-fixtures/workspace', 'openctx', 'sample-provider.mjs')).href;
const HANGING = pathToFileURL(path.join(__dirname, '..', '..', 'test-fixtures/workspace', 'openctx', 'hanging-provider.mjs')).href;

function until(what: string, check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  return (async () => {
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
}

describe('OpenCtx @ menu source', () => {
  it('lists mentions at once (a hanging provider never holds the list), then the typed query; resolves items', async () => {
    const client = new OpenCtxClient({
      providers: [
        { uri: HANGING, settings: {} },
        { uri: SAMPLE, settings: {} },
      ],
      allowModules: true,
      timeoutMs: 300,
      onProblem: () => undefined,
    });
    const providersChanged = new Emitter<void>();
    const source = new OpenCtxSource(() => client, providersChanged.event, silentLog, 20);
    let changes = 0;
    source.onDidChange(() => changes++);
    assert.deepEqual(await source.list(), [], 'nothing yet, and no waiting');
    await until('the sample mentions', async () => (await source.list()).length === 3);
    const [first] = await source.list();
    assert.deepEqual(first, {
      kind: 'openctx',
      uri: 'https://docs.example/greeting-guide',
      name: 'Greeting guide',
      provider: SAMPLE,
      providerName: 'Sample docs',
      description: 'How we greet users',
    });
    const before = changes;
    source.setQuery('chec');
    source.setQuery('zzz'); // supersedes 'chec' before it runs
    source.setQuery('style');
    await until('the query answered', async () => changes > before);
    assert.equal((await source.list()).length, 3, 'typed answers already listed are not repeated');

    const embedded = await source.resolve([first!], { embeddedContext: true }, '/ws', 'how do we greet?');
    assert.deepEqual(embedded, [
      {
        type: 'resource',
        resource: {
          uri: 'https://docs.example/greeting-guide',
          text: 'Greet users by name. Never shout a greeting; shout() is for errors only.',
          mimeType: 'text/plain',
        },
      },
    ]);
    assert.deepEqual(await source.resolve([first!], {}, '/ws', ''), [
      { type: 'resource_link', uri: 'https://docs.example/greeting-guide', name: 'Greeting guide' },
    ]);
    const unknown = { ...first!, uri: 'https://docs.example/gone', name: 'Gone' };
    assert.deepEqual(await source.resolve([unknown], { embeddedContext: true }, '/ws', ''), [
      { type: 'resource_link', uri: 'https://docs.example/gone', name: 'Gone' },
    ]);
    source.dispose();
    client.dispose();
  });
});
