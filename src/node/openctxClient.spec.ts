// The OpenCtx client against real providers: the sample module of test-fixtures/workspace/openctx (as a
// `file://` module and served over loopback HTTP), a protocol-0.1 CommonJS module, and broken
// providers (throwing, hanging, malformed answers, malformed JSON, protocol errors). One broken
// provider costs only its own results and a problem report naming its URI.
import * as assert from 'node:assert/strict';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHttpProviders, type HttpProviders, type ProviderModule } from '../test/openctxHttpProvider';
import { OpenCtxClient, parseProviderSettings, type OpenCtxProviderConfig } from './openctxClient';

const FIXTURES = path.join(__dirname, '..', '..', 'test-fixtures/workspace', 'openctx');
const moduleUri = (name: string): string => pathToFileURL(path.join(FIXTURES, name)).href;
const SAMPLE = moduleUri('sample-provider.mjs');

function clientFor(providers: OpenCtxProviderConfig[], timeoutMs = 5_000, allowModules = true) {
  const problems: { provider: string; message: string }[] = [];
  const client = new OpenCtxClient({
    providers,
    timeoutMs,
    allowModules,
    onProblem: (provider, message) => problems.push({ provider, message }),
  });
  return { client, problems };
}

describe('OpenCtx client', () => {
  let http: HttpProviders;
  before(async () => {
    const sample = (await import(SAMPLE)) as { default: ProviderModule };
    http = await startHttpProviders({ docs: sample.default });
  });
  after(() => http.close());

  it('reads openctx.providers: URIs, settings or true, false to disable, ./relative modules against the folder', () => {
    const { providers, problems } = parseProviderSettings(
      {
        'https://ctx.example/api': { token: 't' },
        'file:///opt/p.js': true,
        './openctx/sample-provider.mjs': {},
        'http://off.example': false,
        'ftp://x': {},
        'https://bad.example': 3,
      },
      '/ws',
    );
    assert.deepEqual(providers, [
      { uri: 'https://ctx.example/api', settings: { token: 't' } },
      { uri: 'file:///opt/p.js', settings: {} },
      { uri: 'file:///ws/openctx/sample-provider.mjs', settings: {} },
    ]);
    assert.equal(problems.length, 2);
    assert.match(parseProviderSettings({ './p.js': true }).problems[0]!, /needs a workspace folder/);
    assert.match(parseProviderSettings(['x']).problems[0]!, /must be an object/);
  });

  it('asks a file:// module for meta, mentions, items and annotations, honouring its selectors', async () => {
    const { client, problems } = clientFor([{ uri: SAMPLE, settings: { prefix: '> ' } }]);
    const [meta] = await client.meta();
    assert.deepEqual(meta, {
      provider: SAMPLE,
      meta: {
        name: 'Sample docs',
        mentions: true,
        mentionsLabel: 'Sample docs',
        items: true,
        annotations: true,
        annotationSelectors: [{ path: '**/*.ts', contentContains: 'greet' }],
      },
    });
    assert.deepEqual(
      (await client.mentions('')).map((m) => m.mention.title),
      ['Greeting guide', 'Release checklist', 'Style rules'],
    );
    const [release] = await client.mentions('release');
    assert.deepEqual(release, {
      provider: SAMPLE,
      mention: {
        title: 'Release checklist',
        uri: 'https://docs.example/release-checklist',
        description: 'Steps before tagging',
        data: { slug: 'release-checklist' },
      },
    });
    const items = await client.items({ mention: release!.mention }, { provider: SAMPLE });
    assert.deepEqual(
      items.map((i) => [i.item.url, i.item.ai?.content]),
      [['https://docs.example/release-checklist', '> Run npm test. Update the changelog. Tag the release.']],
    );
    assert.deepEqual(
      (await client.items({ message: 'what is our style?' })).map((i) => i.item.title),
      ['Style rules'],
    );
    const content = 'class A {\n  greet() {}\n}\n';
    const annotations = await client.annotations({ uri: 'file:///ws/src/a.ts', content });
    assert.deepEqual(annotations[0]?.annotation.range, { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } });
    assert.deepEqual(await client.annotations({ uri: 'file:///ws/notes.md', content }), [], 'path selector');
    assert.deepEqual(await client.annotations({ uri: 'file:///ws/src/b.ts', content: 'let x = 1;' }), [], 'contentContains selector');
    assert.deepEqual(problems, []);
    client.dispose();
  });

  it('accepts protocol 0.1 meta ({selector}) from a CommonJS module', async () => {
    const legacy = moduleUri('legacy-provider.cjs');
    const { client, problems } = clientFor([{ uri: legacy, settings: {} }]);
    const [meta] = await client.meta();
    assert.deepEqual(meta?.meta, {
      name: legacy,
      mentions: true,
      items: true,
      annotations: true,
      annotationSelectors: [{ path: '**/*.md' }],
    });
    assert.equal((await client.mentions('x'))[0]?.mention.title, 'Legacy note x');
    assert.equal((await client.annotations({ uri: 'file:///ws/README.md', content: '# hi' })).length, 1);
    assert.equal((await client.annotations({ uri: 'file:///ws/a.ts', content: '# hi' })).length, 0);
    assert.deepEqual(problems, []);
  });

  it('talks HTTP: POST {method, params, settings} with exactly the configured settings', async () => {
    const uri = `${http.base}/docs`;
    const { client, problems } = clientFor([{ uri, settings: { prefix: 'http: ', apiKey: 'k' } }]);
    const before = http.requests.length;
    const mentions = await client.mentions('guide');
    assert.deepEqual(
      mentions.map((m) => [m.provider, m.mention.title]),
      [[uri, 'Greeting guide']],
    );
    assert.equal((await client.items({ mention: mentions[0]!.mention }))[0]?.item.ai?.content?.startsWith('http: Greet users'), true);
    assert.equal((await client.annotations({ uri: 'file:///w/x.ts', content: 'greet' })).length, 1);
    const sent = http.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => r.body.method),
      ['meta', 'mentions', 'items', 'annotations'],
      'meta asked once, then cached',
    );
    for (const r of sent) assert.deepEqual(r.body.settings, { prefix: 'http: ', apiKey: 'k' });
    assert.deepEqual(sent[1]?.body.params, { query: 'guide' });
    assert.deepEqual(problems, []);
  });

  it('a throwing, hanging or malformed provider costs only its own results and a problem naming it', async () => {
    const providers = [
      moduleUri('throwing-provider.mjs'),
      moduleUri('hanging-provider.mjs'),
      moduleUri('malformed-provider.mjs'),
      `${http.base}/malformed`,
      `${http.base}/error`,
      `${http.base}/hang`,
      SAMPLE,
    ].map((uri) => ({ uri, settings: {} }));
    const { client, problems } = clientFor(providers, 400);
    const started = Date.now();
    const mentions = await client.mentions('');
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
    assert.deepEqual(
      mentions.map((m) => m.mention.title),
      ['Good mention', 'Greeting guide', 'Release checklist', 'Style rules'],
    );
    const about = (name: string): string[] => problems.filter((p) => p.provider.endsWith(name)).map((p) => p.message);
    assert.match(about('throwing-provider.mjs').join(), /mentions failed: the throwing provider throws/);
    assert.match(about('hanging-provider.mjs').join(), /mentions failed: no answer within 400 ms/);
    assert.deepEqual(about('malformed-provider.mjs').length, 3, 'each dropped mention reported');
    assert.match(about('malformed-provider.mjs').join(), /dropped mention 1 has no valid title/);
    assert.match(about('/malformed').join(), /meta failed: the answer is not JSON/);
    assert.match(about('/error').join(), /meta failed: provider error -32000: the error provider refuses/);
    assert.match(about('/hang').join(), /meta failed: no answer within 400 ms/);
    problems.length = 0;
    assert.deepEqual(
      (await client.items({ message: 'greeting' })).map((i) => i.item.title),
      ['Greeting guide'],
    );
    assert.match(about('malformed-provider.mjs').join(), /items: dropped the item result is not a list/);
    assert.deepEqual(about('/hang'), [], 'a failed meta is not asked again at once');
    const annotations = await client.annotations({ uri: 'file:///x/a.ts', content: 'greet' });
    assert.deepEqual(
      annotations.map((a) => a.provider),
      [SAMPLE],
    );
    assert.match(about('malformed-provider.mjs').join(), /dropped annotation 0 has an invalid range/);
    client.dispose();
  });

  it('loads no module outside a trusted workspace; HTTP providers still answer', async () => {
    const { client, problems } = clientFor(
      [
        { uri: SAMPLE, settings: {} },
        { uri: `${http.base}/docs`, settings: {} },
      ],
      5_000,
      false,
    );
    assert.deepEqual(
      (await client.meta()).map((m) => m.provider),
      [`${http.base}/docs`],
    );
    assert.match(problems[0]!.message, /module providers are code: loaded only in a trusted workspace/);
    assert.equal(problems[0]!.provider, SAMPLE);
  });

  it("stops waiting when the caller cancels, and reports nothing for it; a provider's name selects it", async () => {
    const { client, problems } = clientFor(
      [
        { uri: moduleUri('hanging-provider.mjs'), settings: {} },
        { uri: SAMPLE, settings: {} },
      ],
      10_000,
    );
    assert.equal((await client.meta({ provider: 'Sample docs' })).length, 1);
    const abort = new AbortController();
    const started = Date.now();
    const pending = client.mentions('', { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    const mentions = await pending;
    assert.ok(Date.now() - started < 2_000);
    assert.deepEqual(
      mentions.map((m) => m.provider),
      [SAMPLE, SAMPLE, SAMPLE],
    );
    assert.deepEqual(problems, []);
    client.dispose();
  });

  describe('an HTTP provider that answers 300 MB', function () {
    this.timeout(60_000);
    const TOTAL = 300 * 1024 * 1024;
    const CHUNK = Buffer.alloc(1024 * 1024, 0x20); // spaces: valid JSON whitespace, had it been read
    const sent = new Map<string, number>();
    let server: nodeHttp.Server;
    let base: string;
    before(async () => {
      // Streams the body as fast as the client reads it, and counts what it got to send before
      // the client hung up. `/declared` says its length first; `/chunked` does not.
      server = nodeHttp.createServer((req, res) => {
        req.resume();
        const route = req.url ?? '/';
        sent.set(route, 0);
        res.writeHead(200, { 'content-type': 'application/json', ...(route === '/declared' ? { 'content-length': String(TOTAL) } : {}) });
        let closed = false;
        res.on('close', () => (closed = true));
        const pump = (): void => {
          while (!closed && sent.get(route)! < TOTAL) {
            sent.set(route, sent.get(route)! + CHUNK.length);
            if (!res.write(CHUNK)) return void res.once('drain', pump);
          }
          if (!closed) res.end();
        };
        pump();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    for (const route of ['/chunked', '/declared']) {
      it(`stops reading at the 10 MiB cap and says so (${route === '/declared' ? 'Content-Length over the cap: nothing read' : 'no Content-Length'})`, async () => {
        const { client, problems } = clientFor([{ uri: `${base}${route}`, settings: {} }], 30_000);
        const heapBefore = process.memoryUsage().arrayBuffers;
        const started = Date.now();
        assert.deepEqual(await client.meta(), []);
        const took = Date.now() - started;
        // What left the server before the client hung up: the cap, plus what the sockets buffer.
        await new Promise((r) => setTimeout(r, 200));
        const mib = sent.get(route)! / (1024 * 1024);
        assert.ok(mib < 40, `the server sent ${mib} MiB of ${TOTAL / (1024 * 1024)}`);
        assert.ok(process.memoryUsage().arrayBuffers - heapBefore < 64 * 1024 * 1024, 'no copy of the body is kept');
        assert.deepEqual(problems, [
          { provider: `${base}${route}`, message: 'meta failed: the answer is larger than 10 MiB; it was not read further' },
        ]);
        assert.ok(took < 10_000, `answered in ${took} ms`);
        client.dispose();
      });
    }
  });
});
