// Archive bombs against extractCrate: each runs in a fresh Node process (so its peak RSS is its
// own) that reports the refusal, the peak RSS growth (VmHWM, reset through /proc/self/clear_refs
// where allowed) and the worst event-loop lag seen by a 5 ms setInterval probe.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGzip } from 'node:zlib';

const MiB = 1024 * 1024;
const EXTRACT = resolve(__dirname, 'extract.ts');

/** gzip (level 1, streamed) of `head` followed by `zeros` bytes of zeros: megabytes for hundreds of MiB. */
async function gzipWithZeros(head: Buffer, zeros: number): Promise<Buffer> {
  const gz = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((r) => gz.on('end', r));
  gz.write(head);
  const block = Buffer.alloc(MiB);
  for (let left = zeros; left > 0; left -= MiB) {
    if (!gz.write(left >= MiB ? block : block.subarray(0, left))) await new Promise((r) => gz.once('drain', r));
  }
  gz.end();
  await ended;
  return Buffer.concat(out);
}

/** A ustar header block for a regular file of `size` bytes (size may exceed the data that follows). */
function fileHeader(path: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(path, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(size.toString(8).padStart(11, '0') + '\0', 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\x0000', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

interface Probe {
  error?: string;
  ms: number;
  maxLagMs: number;
  peakGrowthBytes: number;
  hwmReset: boolean;
}

const CHILD = String.raw`
const fs = require('node:fs');
const [extractPath, bombPath, cacheDir] = process.argv.slice(1);
const kb = (key) => Number(/\d+/.exec(fs.readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(key + ':')))[0]) * 1024;
(async () => {
  const { extractCrate } = require(extractPath);
  const bytes = fs.readFileSync(bombPath);
  let hwmReset = true;
  try { fs.writeFileSync('/proc/self/clear_refs', '5'); } catch { hwmReset = false; }
  const rssBefore = kb('VmRSS');
  let last = performance.now(), maxLagMs = 0;
  const probe = setInterval(() => { const now = performance.now(); maxLagMs = Math.max(maxLagMs, now - last - 5); last = now; }, 5);
  const started = performance.now();
  let error;
  try { await extractCrate(bytes, cacheDir, 'x', '1.0.0'); } catch (e) { error = e.message; }
  const ms = performance.now() - started;
  clearInterval(probe);
  maxLagMs = Math.max(maxLagMs, performance.now() - last - 5); // a block that outlasted the extraction
  process.stdout.write(JSON.stringify({ error, ms, maxLagMs, peakGrowthBytes: kb('VmHWM') - rssBefore, hwmReset }));
})();
`;

function runChild(bomb: string, cache: string): Promise<Probe> {
  return new Promise((res, rej) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '-e', CHILD, EXTRACT, bomb, cache],
      { cwd: resolve(__dirname, '../../..'), timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) return rej(new Error(`${err.message}\n${stderr}`));
        res(JSON.parse(stdout) as Probe);
      },
    );
  });
}

describe('crate extraction: archive bombs are refused without allocating them', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'symposium-bomb-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const bombs: { name: string; build: () => Promise<Buffer>; refusal: RegExp }[] = [
    // 600 MiB of zeros: the first "header" is the end-of-archive block, so nothing is inflated further.
    { name: 'a gzip of 600 MiB of zeros', build: () => gzipWithZeros(Buffer.alloc(0), 600 * MiB), refusal: /archive contains no files/ },
    // One entry claiming 4 GiB, followed by 600 MiB of real zeros: refused at its header.
    {
      name: 'a tar whose one entry claims 4 GiB',
      build: () => gzipWithZeros(fileHeader('x-1.0.0/big.bin', 4 * 1024 * MiB), 600 * MiB),
      refusal: /declares more than 536870912 bytes/,
    },
    // Entries under the limit one by one, but together over it: refused at the header that crosses.
    {
      name: 'a tar of 3 entries of 200 MiB each',
      build: async () => {
        const parts = [0, 1, 2].map((i) => gzipWithZeros(fileHeader(`x-1.0.0/part${i}.bin`, 200 * MiB), 200 * MiB));
        return Buffer.concat(await Promise.all(parts)); // gzip members concatenate into one stream
      },
      refusal: /declares more than 536870912 bytes/,
    },
  ];

  for (const bomb of bombs) {
    it(`refuses ${bomb.name}: peak RSS growth under 64 MB, event loop never blocked 100 ms`, async () => {
      const file = join(dir, `${bomb.name.replace(/\W+/g, '-')}.crate`);
      writeFileSync(file, await bomb.build());
      const cache = mkdtempSync(join(dir, 'cache-'));
      const probe = await runChild(file, cache);
      console.log(`      ${bomb.name}: ${JSON.stringify({ ...probe, peakGrowthMB: +(probe.peakGrowthBytes / MiB).toFixed(1) })}`);
      assert.match(probe.error ?? 'no error', bomb.refusal);
      assert.ok(probe.peakGrowthBytes <= 64 * MiB, `peak RSS grew by ${(probe.peakGrowthBytes / MiB).toFixed(1)} MiB`);
      assert.ok(probe.maxLagMs < 100, `event loop blocked for ${probe.maxLagMs.toFixed(0)} ms`);
      assert.deepEqual(readdirSync(cache), [], 'no partial tree is left behind');
    });
  }
});
