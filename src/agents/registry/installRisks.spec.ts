import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLog } from '../../log/logEvent';
import { isLoopbackHost, missingChecksumWarning, refusedVariables, shownVariables } from './installRisks';
import { loadRegistries } from './registrySources';

describe('what a registry entry may not do unseen', () => {
  it('refuses loader and installer variables, and values that cannot be shown on one line (table)', () => {
    const table: [name: string, value: string, refused: RegExp | undefined][] = [
      ['NODE_OPTIONS', '--require=/tmp/x.js', /loads other code/],
      ['node_options', '--require=/tmp/x.js', /loads other code/],
      ['NODE_PATH', '/tmp/mods', /loads other code/],
      ['NODE_TLS_REJECT_UNAUTHORIZED', '0', /which servers Node trusts/],
      ['NODE_EXTRA_CA_CERTS', '/tmp/evil.pem', /which servers Node trusts/],
      ['LD_PRELOAD', '/tmp/x.so', /loads other code/],
      ['LD_LIBRARY_PATH', '/tmp', /loads other code/],
      ['DYLD_INSERT_LIBRARIES', '/tmp/x.dylib', /loads other code/],
      ['npm_config_registry', 'https://evil.example/', /where the package runner fetches/],
      ['NPM_CONFIG_USERCONFIG', '/tmp/npmrc', /where the package runner fetches/],
      ['PATH', '/tmp/bin:/usr/bin', /which program a command name runs/],
      ['Path', '/tmp/bin', /which program a command name runs/],
      ['PYTHONPATH', '/tmp', /loads other code/],
      ['PYTHONSTARTUP', '/tmp/x.py', /loads other code/],
      ['UV_INDEX_URL', 'https://evil.example/simple', /where the package runner fetches/],
      ['PIP_INDEX_URL', 'https://evil.example/simple', /where the package runner fetches/],
      ['BASH_ENV', '/tmp/x.sh', /shell run a file first/],
      ['MY_AGENT_MODE', 'acp\nNODE_OPTIONS=--require=x', /control characters or line breaks/],
      ['MY_AGENT_MODE', 'x'.repeat(501), /longer than 500/],
      ['MY_AGENT_MODE', 'acp', undefined],
      ['RUST_LOG', 'info', undefined],
      ['NODE_ENV', 'production', undefined],
      ['ELECTRON_RUN_AS_NODE', '1', undefined],
      ['PATHNAME', 'x', undefined],
      ['MY_PATH', '/x', undefined],
    ];
    for (const [name, value, refused] of table) {
      const [r] = refusedVariables({ [name]: value });
      if (refused) assert.match(r?.reason ?? '', refused, `${name} is refused`);
      else assert.equal(r, undefined, `${name} may be shown and written`);
    }
  });

  it('shows every variable as NAME=value, exactly, in the entry order', () => {
    assert.deepEqual(shownVariables({ RUST_LOG: 'info', MODE: 'a b=c' }), ['RUST_LOG=info', 'MODE=a b=c']);
  });

  it('asks a second time for an archive without a SHA-256, naming the risk', () => {
    assert.equal(missingChecksumWarning({ url: 'https://x/a.tgz', sha256: 'ab'.repeat(32) }), undefined);
    assert.match(missingChecksumWarning({ url: 'https://x/a.tgz' })!, /no SHA-256 .* cannot check .* can run any program as you/);
    assert.match(missingChecksumWarning({ url: 'http://x/a.tgz' })!, /plain-http connection/);
  });

  it('loopback hosts', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '[::1]', 'LOCALHOST']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.0.0.1', 'example.com', '127.0.0.1.nip.io', '[::ffff:7f00:1]', '0.0.0.0']) assert.ok(!isLoopbackHost(h), h);
  });

  it('an http:// registry file on another host is refused without a request; on this machine it is read', async () => {
    const requests: string[] = [];
    const registry = JSON.stringify({
      version: '1',
      agents: [{ id: 'planted', name: 'Planted', version: '1.0.0', description: 'x', distribution: { npx: { package: 'planted@1.0.0' } } }],
    });
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(registry);
    });
    // A real interface of this machine that is not loopback, when it has one (as seen from the network).
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    await new Promise<void>((r) => server.listen(0, external ?? '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const load = (url: string) =>
        loadRegistries({
          bundled: { version: '1', agents: [] },
          urls: [url],
          cacheDir: join(tmpdir(), 'symposium-risks-cache'),
          log: silentLog,
        });
      const remote = external ? `http://${external}:${port}/r.json` : 'http://example.invalid/r.json';
      const refused = await load(remote);
      assert.deepEqual(refused.agents, []);
      assert.match(refused.problems[0]!, /http:\/\/ registry files are refused .* use https:\/\/ or a file:\/\/ copy/);
      assert.deepEqual(requests, [], 'nothing was fetched');
      if (external) {
        server.close();
        await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
      }
      const local = await load(`http://127.0.0.1:${port}/r.json`);
      assert.deepEqual(
        local.agents.map((a) => a.id),
        ['planted'],
      );
    } finally {
      server.close();
    }
  });
});
