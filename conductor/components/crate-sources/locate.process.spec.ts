// Finding crate sources: Debian's real crate trees (librust-serde-dev, librust-itoa-dev), and the
// download path against a loopback registry serving archives built from real sources.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { extractCrate, readTar, safeRelativePath } from './extract';
import { locateCrate, lockedVersion, type LocatorConfig } from './locate';
import { LocalRegistry } from './fixtures/localRegistry';

const SYSTEM = '/usr/share/cargo/registry';
const debianSerde = readdirSync(SYSTEM).find((d) => d.startsWith('serde-'))!;
const serdeVersion = debianSerde.slice('serde-'.length);
const debianItoa = readdirSync(SYSTEM).find((d) => d.startsWith('itoa-'))!;
const itoaVersion = debianItoa.slice('itoa-'.length);

function config(registry: LocalRegistry | undefined, extra: Partial<LocatorConfig> = {}): LocatorConfig {
  return {
    cacheDir: mkdtempSync(join(tmpdir(), 'symposium-cache-')),
    cargoHome: mkdtempSync(join(tmpdir(), 'symposium-cargo-home-')),
    systemRegistries: [SYSTEM],
    registry: {
      indexUrl: registry?.indexUrl ?? 'http://127.0.0.1:9/index',
      downloadUrl: registry?.downloadUrl ?? 'http://127.0.0.1:9/crates',
      timeoutMs: 3000,
    },
    ...extra,
  };
}

/** A tar with one entry named `name` (ustar header built by hand, for hostile archives). */
function tarWith(name: string, body = 'x'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(body.length.toString(8).padStart(11, '0') + '\0', 124);
  header.write('00000000000\0', 136);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  header.fill(' ', 148, 156);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  const data = Buffer.alloc(512);
  data.write(body);
  return Buffer.concat([header, data, Buffer.alloc(1024)]);
}

describe('crate sources: locating', function () {
  this.timeout(20000);

  it('finds Debian system crate sources and chooses the version by requirement', async () => {
    const cfg = config(undefined);
    for (const req of ['1', `=${serdeVersion}`, '^1.0.100', '>=1.0, <2', '*']) {
      const found = await locateCrate('serde', req, '/', cfg);
      assert.equal(found.version, serdeVersion, `requirement ${req}`);
      assert.equal(found.checkout_path, join(SYSTEM, debianSerde));
      assert.match(found.message, /system crate registry/);
    }
    const itoa = await locateCrate('itoa', '1.0', '/', cfg);
    assert.equal(itoa.version, itoaVersion);
    assert.ok(existsSync(join(itoa.checkout_path, 'Cargo.toml')));
    await assert.rejects(locateCrate('serde', '0.9', '/', cfg), /no version of crate "serde" matching "0.9"/);
    await assert.rejects(locateCrate('serde', '2', '/', cfg), /no version/);
  });

  it('uses the version locked in the workspace Cargo.lock when none is given', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'symposium-ws-'));
    writeFileSync(
      join(ws, 'Cargo.lock'),
      `version = 3\n\n[[package]]\nname = "demo"\nversion = "1.0.0"\n\n[[package]]\nname = "serde"\nversion = "${serdeVersion}"\n`,
    );
    assert.equal(await lockedVersion('serde', join(ws)), serdeVersion);
    const registry = await new LocalRegistry([
      { name: 'demo', version: '1.0.0' },
      { name: 'demo', version: '1.1.0' },
    ]).start();
    try {
      const found = await locateCrate('demo', undefined, ws, config(registry));
      assert.equal(found.version, '1.0.0', 'the locked version wins over the newest');
    } finally {
      await registry.stop();
    }
  });

  it("a workspace Cargo.lock that is a FIFO or a link to /dev/zero is skipped at once; the parent's is used", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'symposium-ws-'));
    writeFileSync(join(parent, 'Cargo.lock'), `[[package]]\nname = "serde"\nversion = "${serdeVersion}"\n`);
    for (const plant of [(p: string) => execFileSync('mkfifo', [p]), (p: string) => symlinkSync('/dev/zero', p)]) {
      const ws = mkdtempSync(join(parent, 'ws-'));
      plant(join(ws, 'Cargo.lock'));
      const started = Date.now();
      assert.equal(await lockedVersion('serde', ws), serdeVersion);
      assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    }
  });

  it('downloads from the registry: resolution, yanked and pre-release skipped, extraction, cache reuse', async () => {
    const registry = await new LocalRegistry([
      { name: 'demo', version: '1.0.0' },
      { name: 'demo', version: '1.1.0' },
      { name: 'demo', version: '1.2.0', yanked: true },
      { name: 'demo', version: '2.0.0-beta.1' },
      { name: 'serde', version: serdeVersion, sourceDir: join(SYSTEM, debianSerde) },
    ]).start();
    try {
      const cfg = config(registry, { systemRegistries: [] });
      const newest = await locateCrate('demo', undefined, '/', cfg);
      assert.equal(newest.version, '1.1.0');
      assert.match(readFileSync(join(newest.checkout_path, 'src/lib.rs'), 'utf8'), /"1.1.0"/);
      assert.equal((await locateCrate('demo', '=1.2.0', '/', cfg)).version, '1.2.0', 'an exact pin may pick a yanked version');
      assert.equal((await locateCrate('demo', '2.0.0-beta.1', '/', cfg)).version, '2.0.0-beta.1');
      const downloads = registry.requests.filter((r) => r.startsWith('/crates/')).length;
      const again = await locateCrate('demo', '1.1', '/', cfg);
      assert.equal(again.checkout_path, newest.checkout_path);
      assert.match(again.message, /extraction cache/);
      assert.equal(registry.requests.filter((r) => r.startsWith('/crates/')).length, downloads, 'no second download');
      const serde = await locateCrate('serde', '1', '/', cfg);
      assert.ok(existsSync(join(serde.checkout_path, 'src', 'de', 'mod.rs')), 'real serde sources extracted');
      assert.ok(!readdirSync(cfg.cacheDir).some((d) => d.startsWith('.partial-')));
    } finally {
      await registry.stop();
    }
  });

  it('reports corrupt archives, unknown crates, bad names and requirements, and network failures clearly', async () => {
    const registry = await new LocalRegistry([{ name: 'broken', version: '0.1.0', corrupt: true }]).start();
    try {
      const cfg = config(registry, { systemRegistries: [] });
      await assert.rejects(locateCrate('broken', undefined, '/', cfg), /checksum mismatch/);
      assert.deepEqual(
        readdirSync(cfg.cacheDir).filter((d) => d.includes('broken')),
        [],
        'no tree left behind',
      );
      await assert.rejects(locateCrate('no-such-crate', undefined, '/', cfg), /not found in the registry/);
      await assert.rejects(locateCrate('../etc', undefined, '/', cfg), /invalid crate name/);
      await assert.rejects(locateCrate('demo', '>>1', '/', cfg), /invalid version requirement/);
    } finally {
      await registry.stop();
    }
    const offline = config(undefined, { systemRegistries: [] });
    const started = Date.now();
    await assert.rejects(locateCrate('anything', undefined, '/', offline), /network error|cannot find/);
    assert.ok(Date.now() - started < 5000);
  });

  it('stops a download or an index past its cap, whether or not the registry says the size', async () => {
    for (const chunked of [false, true]) {
      const registry = await new LocalRegistry([{ name: 'huge', version: '1.0.0', padBytes: 512 * 1024 }], { chunked }).start();
      try {
        const cfg = config(registry, { systemRegistries: [] });
        cfg.registry.maxDownloadBytes = 128 * 1024;
        await assert.rejects(
          locateCrate('huge', undefined, '/', cfg),
          /the archive of huge 1\.0\.0 is larger than 128 KiB; the download was stopped/,
        );
        assert.deepEqual(
          readdirSync(cfg.cacheDir).filter((d) => d.includes('huge')),
          [],
          `no tree left behind (chunked: ${chunked})`,
        );
        const small = config(registry, { systemRegistries: [] });
        small.registry.maxIndexBytes = 16;
        await assert.rejects(
          locateCrate('huge', undefined, '/', small),
          /index of "huge" is larger than 16 bytes; the download was stopped/,
        );
        assert.equal(
          (await locateCrate('huge', undefined, '/', config(registry, { systemRegistries: [] }))).version,
          '1.0.0',
          'under the default caps it downloads',
        );
      } finally {
        await registry.stop();
      }
    }
  });

  it('refuses hostile archive paths and never leaves a half tree', async () => {
    assert.throws(() => safeRelativePath('/etc/passwd', 'x-1.0.0'), /absolute/);
    assert.throws(() => safeRelativePath('x-1.0.0/../../evil', 'x-1.0.0'), /\.\./);
    assert.throws(() => safeRelativePath('other/file', 'x-1.0.0'), /outside the crate/);
    assert.equal(safeRelativePath('x-1.0.0/src/lib.rs', 'x-1.0.0'), 'src/lib.rs');
    assert.equal(readTar(tarWith('x-1.0.0/a.txt'))[0]!.path, 'x-1.0.0/a.txt');
    const cache = mkdtempSync(join(tmpdir(), 'symposium-cache-'));
    await assert.rejects(extractCrate(gzipSync(tarWith('x-1.0.0/../../escape.txt')), cache, 'x', '1.0.0'), /\.\./);
    await assert.rejects(extractCrate(Buffer.from('not gzip'), cache, 'x', '1.0.0'), /not a valid .crate/);
    assert.deepEqual(readdirSync(cache), []);
    assert.ok(!existsSync(join(cache, '..', 'escape.txt')));
  });
});
