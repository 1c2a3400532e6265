// Safe extraction of a gzipped tar: a `.crate` file (entries under `<name>-<version>/`, crate
// sources) or an agent's release archive (the registry's `binary` distributions). One
// implementation for the conductor and the extension host. Guarantees: no entry lands outside the
// target (absolute paths and `..` are refused, links are never created), sizes are bounded, and
// the tree appears atomically — it is extracted into a `.partial-*` sibling and renamed into
// place, so an interrupted extraction never leaves a half tree that later looks complete.
import type { Gunzip } from 'node:zlib';
import { mkdir, open, rename, rm, readdir, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import { randomHex } from './randomHex';
import { errorText } from '../protocol/errorText';

export const LIMITS = {
  compressedBytes: 64 * 1024 * 1024,
  uncompressedBytes: 512 * 1024 * 1024,
  entries: 100_000,
};

/** Long names and pax headers are read into memory: they must stay small. */
const MAX_META_BYTES = 64 * 1024;

export class ExtractionError extends Error {}

interface TarEntry {
  path: string;
  type: 'file' | 'dir' | 'link' | 'other';
  mode: number;
  data: Buffer;
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? raw.length : nul).toString('utf8');
}

function octal(block: Buffer, start: number, length: number, what: string): number {
  if ((block[start]! & 0x80) !== 0) throw new ExtractionError(`tar ${what} uses base-256 encoding (too large)`);
  const text = field(block, start, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new ExtractionError(`corrupt tar header: ${what} "${text}"`);
  return parseInt(text, 8);
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let text = data.toString('utf8');
  while (text.length > 0) {
    const space = text.indexOf(' ');
    const length = Number(text.slice(0, space));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = text.slice(space + 1, length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    text = text.slice(length);
  }
  return out;
}

interface TarHeader {
  /** Declared data size; the data follows, padded to 512 bytes. */
  size: number;
  typeflag: string;
  /** The entry's own name (prefix/name), before long-name or pax overrides. */
  name: string;
  mode: number;
}

/** One 512-byte header block, checksum verified; undefined for the all-zero end-of-archive block. */
function parseHeader(header: Buffer): TarHeader | undefined {
  if (header.every((b) => b === 0)) return undefined;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  if (sum !== octal(header, 148, 8, 'checksum')) throw new ExtractionError('corrupt tar header: checksum mismatch');
  const prefix = field(header, 345, 155);
  const name = field(header, 0, 100);
  return {
    size: octal(header, 124, 12, 'size'),
    typeflag: String.fromCharCode(header[156] ?? 0),
    name: prefix ? `${prefix}/${name}` : name,
    mode: octal(header, 100, 8, 'mode'),
  };
}

const entryType = (typeflag: string): TarEntry['type'] =>
  typeflag === '0' || typeflag === '\0' || typeflag === '7'
    ? 'file'
    : typeflag === '5'
      ? 'dir'
      : typeflag === '1' || typeflag === '2'
        ? 'link'
        : 'other';

/** Reads every entry of a small, whole uncompressed tar in memory (tests and diagnostics). */
export function readTar(tar: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = parseHeader(tar.subarray(offset, offset + 512));
    if (!header) break;
    const dataStart = offset + 512;
    if (dataStart + header.size > tar.length) throw new ExtractionError('truncated tar archive');
    const data = tar.subarray(dataStart, dataStart + header.size);
    offset = dataStart + Math.ceil(header.size / 512) * 512;
    if (header.typeflag === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    if (header.typeflag === 'x') {
      paxPath = parsePax(data).path;
      continue;
    }
    if (header.typeflag === 'g') continue;
    entries.push({ path: paxPath ?? longName ?? header.name, type: entryType(header.typeflag), mode: header.mode, data });
    longName = paxPath = undefined;
    if (entries.length > LIMITS.entries) throw new ExtractionError(`archive has more than ${LIMITS.entries} entries`);
  }
  return entries;
}

/**
 * The entry's path inside the target, or an error. With `topDir` (a crate's `<name>-<version>`)
 * every entry must be under it and it is removed; without, paths are kept as they are.
 */
export function safeRelativePath(entryPath: string, topDir?: string, label = '.crate'): string | undefined {
  if (entryPath.startsWith('/') || /^[A-Za-z]:/.test(entryPath) || entryPath.includes('\\'))
    throw new ExtractionError(`refusing absolute or Windows path "${entryPath}"`);
  const parts = entryPath.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new ExtractionError(`refusing path with ".." "${entryPath}"`);
  if (topDir === undefined) return parts.length === 0 ? undefined : posix.join(...parts);
  if (parts[0] !== topDir)
    throw new ExtractionError(`entry "${entryPath}" is outside the ${label.replace(/^\./, '')}'s top folder "${topDir}"`);
  const rest = parts.slice(1);
  return rest.length === 0 ? undefined : posix.join(...rest);
}

/** Pulls exact byte counts out of a stream of chunks, holding no more than one chunk extra. */
class ByteReader {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async more(): Promise<boolean> {
    const next = await this.source.next();
    if (next.done) return false;
    this.chunks.push(next.value);
    this.buffered += next.value.length;
    return true;
  }

  private takeUpTo(n: number): Buffer {
    const first = this.chunks[0]!;
    const piece = first.length <= n ? (this.chunks.shift(), first) : first.subarray(0, n);
    if (piece !== first) this.chunks[0] = first.subarray(n);
    this.buffered -= piece.length;
    return piece;
  }

  /** Exactly `n` bytes (keep `n` small), or undefined when the stream ended cleanly before them. */
  async read(n: number): Promise<Buffer | undefined> {
    while (this.buffered < n) {
      if (!(await this.more())) {
        if (this.buffered === 0) return undefined;
        throw new ExtractionError('truncated tar archive');
      }
    }
    const pieces: Buffer[] = [];
    for (let left = n; left > 0;) {
      const piece = this.takeUpTo(left);
      pieces.push(piece);
      left -= piece.length;
    }
    return Buffer.concat(pieces, n);
  }

  /** Hands the next `n` bytes to `sink` piece by piece, as they are decompressed. */
  async pass(n: number, sink?: (piece: Buffer) => Promise<unknown>): Promise<void> {
    for (let left = n; left > 0;) {
      if (this.buffered === 0 && !(await this.more())) throw new ExtractionError('truncated tar archive');
      const piece = this.takeUpTo(left);
      left -= piece.length;
      if (sink) await sink(piece);
    }
  }
}

/** The gunzipped bytes, refused as soon as their running total passes the limit. */
async function* decompressed(gunzip: Gunzip, label: string): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > LIMITS.uncompressedBytes) throw new ExtractionError(`archive expands beyond ${LIMITS.uncompressedBytes} bytes`);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    throw new ExtractionError(`not a valid ${label} archive (gzip): ${errorText(err)}`);
  }
}

export interface ExtractOptions {
  /** The one folder every entry must be under (removed from the paths); absent: paths kept as they are. */
  topDir?: string;
  /** What the archive is, in messages (".crate", "agent"). */
  label?: string;
}

/**
 * Extracts gzipped tar `bytes` into the folder `target` (created with its parents) and returns it.
 * If the target already exists (another extraction won the race) it is kept and returned.
 *
 * Streamed: gunzip runs off the main thread chunk by chunk, each entry is written as its bytes
 * arrive, and sizes are checked against the limits from the headers before any data is read, so
 * a bomb (a tiny archive claiming gigabytes) is refused without allocating it or blocking the
 * event loop. Reading stops at the end-of-archive block: trailing zeros are never inflated.
 */
export async function extractTarGz(bytes: Buffer, target: string, options: ExtractOptions = {}): Promise<string> {
  const { topDir, label = 'tar.gz' } = options;
  if (bytes.length > LIMITS.compressedBytes) throw new ExtractionError(`${label} file exceeds ${LIMITS.compressedBytes} bytes`);
  // zlib loads here, not with the module: the conductor loads this file at start (5 ms of its
  // cold start) and extracts nothing until a crate is fetched.
  const { createGunzip } = await import('node:zlib');
  return fillAtomically(target, async (partial) => {
    const gunzip = createGunzip();
    gunzip.end(bytes);
    try {
      return await untar(new ByteReader(decompressed(gunzip, label)), partial, topDir, label);
    } finally {
      gunzip.destroy(); // stops inflating whatever follows the end of the archive
    }
  });
}

/** Writes every entry of the tar stream under `partial`; returns how many files it wrote. */
async function untar(reader: ByteReader, partial: string, topDir: string | undefined, label: string): Promise<number> {
  let declared = 0;
  let entries = 0;
  let files = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  for (;;) {
    const block = await reader.read(512);
    const header = block && parseHeader(block);
    if (!header) break;
    declared += header.size;
    if (declared > LIMITS.uncompressedBytes)
      throw new ExtractionError(`archive declares more than ${LIMITS.uncompressedBytes} bytes of entries`);
    const padding = Math.ceil(header.size / 512) * 512 - header.size;
    if (header.typeflag === 'L' || header.typeflag === 'x') {
      if (header.size > MAX_META_BYTES)
        throw new ExtractionError(`tar ${header.typeflag === 'L' ? 'long name' : 'pax header'} exceeds ${MAX_META_BYTES} bytes`);
      const data = (await reader.read(header.size)) ?? Buffer.alloc(0);
      if (header.typeflag === 'L') longName = field(data, 0, data.length);
      else paxPath = parsePax(data).path;
      await reader.pass(padding);
      continue;
    }
    if (header.typeflag === 'g') {
      await reader.pass(header.size + padding);
      continue;
    }
    if (++entries > LIMITS.entries) throw new ExtractionError(`archive has more than ${LIMITS.entries} entries`);
    const type = entryType(header.typeflag);
    const rel = safeRelativePath(paxPath ?? longName ?? header.name, topDir, label);
    longName = paxPath = undefined;
    if (rel !== undefined && type === 'dir') await mkdir(join(partial, rel), { recursive: true });
    if (rel !== undefined && type === 'file') {
      const file = await createFile(partial, rel, header.mode);
      try {
        await reader.pass(header.size, (piece) => writeAll(file, piece));
      } finally {
        await file.close();
      }
      files++;
    } else {
      await reader.pass(header.size); // links are never created; other types are skipped
    }
    await reader.pass(padding);
  }
  return files;
}

/** A new file at `rel` under `root` (its folders made), executable when the archive's mode says so. */
export async function createFile(root: string, rel: string, mode: number): Promise<FileHandle> {
  const out = join(root, rel);
  await mkdir(dirname(out), { recursive: true });
  return open(out, 'w', mode & 0o111 ? 0o755 : 0o644);
}

/**
 * The atomic part of every extraction: `fill` writes the tree into a `.partial-*` sibling of
 * `target` and returns how many files it wrote; the folder is then renamed into place. On any
 * error (or no files) the partial folder is removed. If `target` appeared meanwhile (another
 * extraction won the race) it is kept.
 */
export async function fillAtomically(target: string, fill: (partial: string) => Promise<number>): Promise<string> {
  const partial = join(dirname(target), `.partial-${basename(target)}-${randomHex(6)}`);
  await mkdir(partial, { recursive: true });
  try {
    if ((await fill(partial)) === 0) throw new ExtractionError('archive contains no files');
    try {
      await rename(partial, target);
    } catch (err) {
      if (!(await exists(target))) throw err;
      await rm(partial, { recursive: true, force: true });
    }
    return target;
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}

export async function writeAll(file: FileHandle, data: Buffer): Promise<void> {
  for (let offset = 0; offset < data.length;) offset += (await file.write(data, offset)).bytesWritten;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Extracts a `.crate` file into `<cacheDir>/<name>-<version>` (its entries must live under that folder). */
export function extractCrate(bytes: Buffer, cacheDir: string, name: string, version: string): Promise<string> {
  const topDir = `${name}-${version}`;
  return extractTarGz(bytes, join(cacheDir, topDir), { topDir, label: '.crate' });
}

/** Removes `.partial-*` folders left by a crashed process more than an hour ago. */
export async function sweepPartials(cacheDir: string): Promise<void> {
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const hourAgo = Date.now() - 3600_000;
  for (const n of names.filter((x) => x.startsWith('.partial-'))) {
    const s = await stat(join(cacheDir, n)).catch(() => undefined);
    if (s && s.mtimeMs < hourAgo) await rm(join(cacheDir, n), { recursive: true, force: true });
  }
}
