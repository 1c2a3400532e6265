// A proxy from a registry's `extensions[]`, end to end without the network: a registry file and a
// tar.gz served on loopback (the archive holds a script that runs the prompt-rewriter proxy
// fixture), read by the same sources as agents, resolved and installed by the same code (checksum
// checked), written as a symposium.proxies entry, and run by the real conductor in front of
// ElizACP: the prompt reaches the agent rewritten and signed by the installed proxy.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLog } from '../../log/logEvent';
import { parseProxySettings, proxyLaunch } from '../../settings/proxySettings';
import {
  CONDUCTOR_JS,
  elizaCommand,
  initialize,
  newSession,
  prompt,
  startProcess,
  tempDir,
  type Harness,
} from '../../../conductor/test/harness';
import { installBinary } from './binaryInstall';
import { loadRegistries } from './registrySources';
import { agentSettingFor, platformKey, proxyNameFor, resolveAgent } from './resolveAgent';

const REWRITER = resolve(__dirname, '../../../out/fixtures/proxies/promptRewriter.js');

describe('a proxy from the registry: listed, installed like an agent, run in the chain (loopback server, real conductor)', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'symposium-registry-proxy-'));
  let server: Server;
  let h: Harness | undefined;
  after(async () => {
    await h?.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads extensions[], installs the archive with its checksum, and the conductor runs it in front of the agent', async () => {
    const src = join(dir, 'src');
    mkdirSync(join(src, 'bin'), { recursive: true });
    const script = `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(REWRITER)} "$@"\n`;
    writeFileSync(join(src, 'bin', 'rewriter'), script, { mode: 0o755 });
    execFileSync('tar', ['-czf', join(dir, 'rewriter.tar.gz'), '-C', src, 'bin']);
    const archive = readFileSync(join(dir, 'rewriter.tar.gz'));
    const platform = platformKey(process.platform, process.arch)!;
    const proxyEntry = {
      id: 'registry-rewriter',
      name: 'Registry Rewriter',
      version: '0.3.0',
      description: 'rewrites ekko to echo',
      distribution: {
        binary: {
          [platform]: {
            archive: 'ARCHIVE',
            sha256: createHash('sha256').update(archive).digest('hex'),
            cmd: './bin/rewriter',
            args: ['--dialect', 'proxy', '--name', 'registry-rewriter', '--replace', 'ekko=echo'],
          },
        },
      },
      _meta: { symposium: { placeBefore: 'symposium-info' } },
    };
    const requests: string[] = [];
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/rewriter.tar.gz') return void res.writeHead(200, { 'content-length': archive.length }).end(archive);
      if (req.url !== '/registry.json') return void res.writeHead(404).end();
      const extensions = [JSON.parse(JSON.stringify(proxyEntry).replace('ARCHIVE', `${base}/rewriter.tar.gz`)), { id: 'no-dist' }];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '1.0.0', agents: [], extensions }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const loaded = await loadRegistries({
      bundled: { version: '1.0.0', agents: [], extensions: [] },
      urls: [`${base}/registry.json`],
      cacheDir: join(dir, 'cache'),
      log: silentLog,
    });
    assert.deepEqual(
      loaded.extensions.map((e) => [e.id, e.source, e.placeBefore]),
      [['registry-rewriter', `${base}/registry.json`, 'symposium-info']],
    );
    assert.match(loaded.problems.join('\n'), /registry\.json: extension no-dist: "version" must be a non-empty string/);
    assert.deepEqual(loaded.agents, [], 'a proxy is not offered as an agent');

    const proxy = loaded.extensions[0]!;
    const plan = resolveAgent(proxy, platform, join(dir, 'storage', 'agents'));
    assert.equal(plan.kind, 'binary');
    assert.match(plan.summary, /rewriter\.tar\.gz \(SHA-256 [0-9a-f]{64}\)/);
    assert.equal(await installBinary(plan.download!, plan.command), true);
    assert.equal(requests.filter((r) => r === '/rewriter.tar.gz').length, 1);

    // What Choose Agent… writes to symposium.proxies, read back as the extension reads it.
    const name = proxyNameFor(proxy, {}, []);
    const setting = { [name]: agentSettingFor(proxy, plan) };
    assert.equal(setting[name]!.registry, 'registry-rewriter@0.3.0');
    const { proxies, problems } = parseProxySettings(setting);
    assert.deepEqual(problems, []);
    const argv = [process.execPath, CONDUCTOR_JS, '--log', 'debug', ...proxyLaunch(proxies).args];
    h = startProcess([...argv, '--components', `${name},symposium-info`, '--', ...elizaCommand()]);
    const init = await initialize(h);
    const chain = (init.agentCapabilities?._meta as { symposium?: { components?: string[] } } | undefined)?.symposium?.components;
    assert.deepEqual(chain?.slice(0, 2), ['registry-rewriter', 'symposium-info']);
    const sessionId = await newSession(h, tempDir());
    const meta = JSON.parse((await prompt(h, sessionId, 'ekko meta')).text) as { rewrittenBy?: string[] };
    assert.deepEqual(meta.rewrittenBy, ['registry-rewriter']);
  });

  it('names a proxy after its id, unless one of your own proxies has that name', () => {
    const proxy = { id: 'rewriter' };
    const own = [{ name: 'rewriter', command: 'x', args: [], env: {} }];
    assert.equal(proxyNameFor(proxy, {}, []), 'rewriter');
    assert.equal(proxyNameFor(proxy, {}, own), 'rewriter-registry');
    assert.equal(proxyNameFor(proxy, { rewriter: 'rewriter@0.9.0' }, own), 'rewriter', 'an earlier version of it is replaced');
  });
});
