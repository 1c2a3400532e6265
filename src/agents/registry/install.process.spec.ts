// Registry sources and binary installs against a real loopback HTTP server and real files.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { silentLog } from '../../log/logEvent';
import { installBinary } from './binaryInstall';
import { loadRegistries } from './registrySources';

const entry = (id: string, pkg = `${id}@1.0.0`): unknown => ({
  id,
  name: id.toUpperCase(),
  version: '1.0.0',
  description: `the ${id} agent`,
  distribution: { npx: { package: pkg } },
});

describe('registry sources and binary installs (loopback server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'symposium-registry-'));
  const files = new Map<string, Buffer | string>();
  let server: Server;
  let base = '';
  before(async () => {
    server = createServer((req, res) => {
      const body = files.get(req.url ?? '');
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads file and http sources before the bundled one; the first to list an id wins', async () => {
    const file = join(dir, 'mine.json');
    writeFileSync(file, JSON.stringify({ version: '1', agents: [entry('alpha'), entry('shared', 'mine@2.0.0')], extensions: [] }));
    files.set('/reg.json', JSON.stringify({ version: '1', agents: [entry('beta'), { id: 'broken' }], extensions: [] }));
    const loaded = await loadRegistries({
      bundled: { version: '1', agents: [entry('shared', 'bundled@1.0.0'), entry('gamma')], extensions: [] },
      urls: [pathToFileURL(file).href, `${base}/reg.json`, `${base}/missing.json`, 'ftp://x/y.json'],
      cacheDir: join(dir, 'cache'),
      log: silentLog,
    });
    assert.deepEqual(
      loaded.agents.map((a) => [a.id, a.source]),
      [
        ['alpha', pathToFileURL(file).href],
        ['shared', pathToFileURL(file).href],
        ['beta', `${base}/reg.json`],
        ['gamma', 'bundled'],
      ],
    );
    assert.equal(loaded.agents[1]!.distribution.npx?.package, 'mine@2.0.0');
    const problems = loaded.problems.join('\n');
    assert.match(problems, /reg\.json: agent broken:/);
    assert.match(problems, /missing\.json: HTTP 404/);
    assert.match(problems, /ftp:\/\/x\/y\.json: only http\(s\) and file URLs/);
    assert.deepEqual(loaded.stale, []);
  });

  it('offline: an http source that fails is served from its cached copy, marked stale', async () => {
    const cacheDir = join(dir, 'cache-offline');
    files.set('/offline.json', JSON.stringify({ version: '1', agents: [entry('cached')], extensions: [] }));
    const url = `${base}/offline.json`;
    const first = await loadRegistries({ bundled: { version: '1', agents: [] }, urls: [url], cacheDir, log: silentLog });
    assert.deepEqual(first.stale, []);
    files.delete('/offline.json');
    const again = await loadRegistries({ bundled: { version: '1', agents: [] }, urls: [url], cacheDir, log: silentLog });
    assert.deepEqual(
      again.agents.map((a) => a.id),
      ['cached'],
    );
    assert.equal(again.stale[0]?.url, url);
    // A source that never answered at all: the timeout, and nothing cached.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as AddressInfo).port;
      const slow = await loadRegistries({
        bundled: { version: '1', agents: [] },
        urls: [`http://127.0.0.1:${port}/r.json`],
        cacheDir,
        log: silentLog,
        timeoutMs: 300,
      });
      assert.match(slow.problems[0]!, /timed out after 300 ms/);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  /** A tar.gz holding `bin/agent` (a shell script), made with the system's tar. */
  const archive = (): Buffer => {
    const src = mkdtempSync(join(dir, 'src-'));
    mkdirSync(join(src, 'bin'));
    writeFileSync(join(src, 'bin', 'agent'), '#!/bin/sh\necho agent\n', { mode: 0o755 });
    const out = join(src, 'a.tar.gz');
    execFileSync('tar', ['-czf', out, '-C', src, 'bin']);
    return readFileSync(out);
  };

  it('downloads, checks the SHA-256, unpacks and finds the command; a second install downloads nothing', async () => {
    const bytes = archive();
    files.set('/agent.tar.gz', bytes);
    const installDir = join(dir, 'agents', 'demo', '1.0.0');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const seen: number[] = [];
    const downloaded = await installBinary({ url: `${base}/agent.tar.gz`, sha256, installDir }, join(installDir, 'bin', 'agent'), {
      onProgress: (p) => seen.push(p.received),
    });
    assert.equal(downloaded, true);
    assert.equal(execFileSync(join(installDir, 'bin', 'agent')).toString(), 'agent\n');
    assert.equal(seen.at(-1), bytes.length);
    files.delete('/agent.tar.gz');
    assert.equal(await installBinary({ url: `${base}/agent.tar.gz`, sha256, installDir }, join(installDir, 'bin', 'agent')), false);
  });

  it('installs a .zip the same way (made by Python, executable bit kept)', async () => {
    const src = mkdtempSync(join(dir, 'zipsrc-'));
    const zip = join(src, 'a.zip');
    const py = [
      'import sys, zipfile',
      'z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED)',
      'i = zipfile.ZipInfo("bin/agent"); i.external_attr = 0o100755 << 16; i.compress_type = zipfile.ZIP_DEFLATED',
      'z.writestr(i, "#!/bin/sh\\necho zipped agent\\n")',
      'z.writestr("README.txt", "x" * 1000)',
      'z.close()',
    ].join('\n');
    execFileSync('python3', ['-c', py, zip]);
    const bytes = readFileSync(zip);
    files.set('/agent.zip', bytes);
    const installDir = join(dir, 'agents-zip', 'demo', '1.0.0');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.equal(await installBinary({ url: `${base}/agent.zip`, sha256, installDir }, join(installDir, 'bin', 'agent')), true);
    assert.equal(execFileSync(join(installDir, 'bin', 'agent')).toString(), 'zipped agent\n');
  });

  it('refuses a bad checksum, a missing command and an unknown archive kind, leaving no install folder', async () => {
    files.set('/agent.tar.gz', archive());
    const root = join(dir, 'agents-bad');
    const installDir = join(root, 'demo', '1.0.0');
    await assert.rejects(
      installBinary({ url: `${base}/agent.tar.gz`, sha256: '0'.repeat(64), installDir }, join(installDir, 'bin', 'agent')),
      /checksum mismatch .*the registry says 0{64}, the download is [0-9a-f]{64}; nothing was installed/,
    );
    assert.equal(existsSync(root), false);
    await assert.rejects(installBinary({ url: `${base}/agent.rar`, installDir }, join(installDir, 'x')), /only \.tar\.gz, \.tgz and \.zip/);
    await assert.rejects(installBinary({ url: `${base}/nothing.tar.gz`, installDir }, join(installDir, 'x')), /HTTP 404/);
    assert.equal(existsSync(root), false);
    await assert.rejects(
      installBinary({ url: `${base}/agent.tar.gz`, installDir }, join(installDir, 'bin', 'other')),
      /has no .*bin\/other/,
    );
    assert.deepEqual(readdirSync(join(root, 'demo')), [], 'neither the unusable folder nor partial ones');
  });
});
