// Oversized answers from a real loopback server that sends no Content-Length: a registry file of
// 300 MB and an agent archive of 200 MB. The body is read as a stream and the connection closed
// at the limit, so the server gets to write little more than the limit (socket buffers) and the
// extension's memory stays bounded; the user is told why.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLog } from '../../log/logEvent';
import { LIMITS } from '../../node/tarExtract';
import { installBinary } from './binaryInstall';
import { loadRegistries } from './registrySources';

const MB = 1024 * 1024;
const REGISTRY_LIMIT = 5 * MB;

describe('oversized registry downloads stop at the limit (loopback server, no Content-Length)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'symposium-download-'));
  /** Bytes the server managed to write per path before the client closed the connection. */
  const written = new Map<string, number>();
  const sizes: Record<string, number> = { '/huge.json': 300 * MB, '/huge.tar.gz': 200 * MB };
  let server: Server;
  let base = '';

  before(async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20); // spaces: valid JSON padding, never a complete document
    server = createServer((req, res) => {
      const path = req.url ?? '';
      const size = sizes[path];
      if (size === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' }); // chunked: no length to refuse up front
      let sent = 0;
      written.set(path, 0);
      const pump = (): void => {
        while (sent < size && !res.destroyed) {
          sent += chunk.length;
          written.set(path, sent);
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      res.on('close', () => written.set(path, sent));
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a 300 MB registry file is refused once 5 MB arrived; memory stays bounded', async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const loaded = await loadRegistries({
      bundled: { version: '1', agents: [] },
      urls: [`${base}/huge.json`],
      cacheDir: join(dir, 'cache'),
      log: silentLog,
      timeoutMs: 30_000,
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.deepEqual(loaded.problems, [`${base}/huge.json: larger than ${REGISTRY_LIMIT} bytes`]);
    await waitForClose('/huge.json');
    const sent = written.get('/huge.json')!;
    assert.ok(sent < 40 * MB, `the server wrote ${(sent / MB).toFixed(1)} MB of 300 before the connection closed`);
    const grown = (peak - rssBefore) / MB;
    assert.ok(grown < 60, `RSS grew by ${grown.toFixed(1)} MB while refusing a 300 MB answer`);
  });

  it('a 200 MB archive fails the install once the archive limit arrived, with a clear error and no folder', async () => {
    const installDir = join(dir, 'agents', 'huge', '1.0.0');
    await assert.rejects(
      installBinary({ url: `${base}/huge.tar.gz`, installDir }, join(installDir, 'bin', 'agent'), { timeoutMs: 30_000 }),
      new RegExp(`huge\\.tar\\.gz is over ${LIMITS.compressedBytes} bytes; refused`),
    );
    await waitForClose('/huge.tar.gz');
    const sent = written.get('/huge.tar.gz')!;
    assert.ok(sent < LIMITS.compressedBytes + 40 * MB, `the server wrote ${(sent / MB).toFixed(1)} MB of 200`);
  });

  it('a local registry file is read no further than the limit (file:///dev/zero never ends)', async () => {
    const loaded = await loadRegistries({
      bundled: { version: '1', agents: [] },
      urls: ['file:///dev/zero'],
      cacheDir: join(dir, 'cache'),
      log: silentLog,
    });
    assert.deepEqual(loaded.problems, [`file:///dev/zero: could not be read: larger than ${REGISTRY_LIMIT} bytes`]);
  });

  /** The server sees the client's close shortly after the refusal. */
  async function waitForClose(path: string): Promise<void> {
    const end = Date.now() + 5_000;
    let last = -1;
    // Settled: the count stopped moving (the connection is gone, or the server waits on a full socket forever).
    while (Date.now() < end) {
      const now = written.get(path) ?? 0;
      if (now === last) return;
      last = now;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});
