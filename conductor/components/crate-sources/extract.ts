// Safe extraction of a `.crate` file (a gzipped tar whose entries live under `<name>-<version>/`).
// Guarantees: no entry lands outside the target (absolute paths and `..` are refused, links are
// never created), sizes are bounded, and the tree appears atomically — it is extracted into a
// `.partial-*` sibling and renamed into place, so an interrupted extraction never leaves a half
// tree that later looks complete.
import { gunzipSync } from 'node:zlib';
import { mkdir, rename, rm, writeFile, readdir, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, posix } from 'node:path';

export const LIMITS = {
  compressedBytes: 64 * 1024 * 1024,
  uncompressedBytes: 512 * 1024 * 1024,
  entries: 100_000,
};

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

/** Reads every entry of an uncompressed tar archive. */
export function readTar(tar: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    if (sum !== octal(header, 148, 8, 'checksum')) throw new ExtractionError('corrupt tar header: checksum mismatch');
    const size = octal(header, 124, 12, 'size');
    const typeflag = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + 512;
    if (dataStart + size > tar.length) throw new ExtractionError('truncated tar archive');
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (typeflag === 'L') { longName = field(data, 0, data.length); continue; }
    if (typeflag === 'x') { paxPath = parsePax(data).path; continue; }
    if (typeflag === 'g') continue;
    const prefix = field(header, 345, 155);
    const name = field(header, 0, 100);
    const path = paxPath ?? longName ?? (prefix ? `${prefix}/${name}` : name);
    longName = paxPath = undefined;
    const type = typeflag === '0' || typeflag === '\0' || typeflag === '7' ? 'file' : typeflag === '5' ? 'dir' : typeflag === '1' || typeflag === '2' ? 'link' : 'other';
    entries.push({ path, type, mode: octal(header, 100, 8, 'mode'), data });
    if (entries.length > LIMITS.entries) throw new ExtractionError(`archive has more than ${LIMITS.entries} entries`);
  }
  return entries;
}

/** The entry's path inside the crate with the top `<name>-<version>/` removed, or an error. */
export function safeRelativePath(entryPath: string, topDir: string): string | undefined {
  if (entryPath.startsWith('/') || /^[A-Za-z]:/.test(entryPath) || entryPath.includes('\\')) throw new ExtractionError(`refusing absolute or Windows path "${entryPath}"`);
  const parts = entryPath.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new ExtractionError(`refusing path with ".." "${entryPath}"`);
  if (parts[0] !== topDir) throw new ExtractionError(`entry "${entryPath}" is outside the crate's top folder "${topDir}"`);
  const rest = parts.slice(1);
  return rest.length === 0 ? undefined : posix.join(...rest);
}

/**
 * Extracts `crateFile` bytes into `<cacheDir>/<name>-<version>` and returns that path. If the
 * target already exists (another extraction won the race) it is kept and returned.
 */
export async function extractCrate(bytes: Buffer, cacheDir: string, name: string, version: string): Promise<string> {
  if (bytes.length > LIMITS.compressedBytes) throw new ExtractionError(`.crate file exceeds ${LIMITS.compressedBytes} bytes`);
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes, { maxOutputLength: LIMITS.uncompressedBytes });
  } catch (err) {
    throw new ExtractionError(`not a valid .crate archive (gzip): ${(err as Error).message}`);
  }
  const topDir = `${name}-${version}`;
  const entries = readTar(tar);
  if (!entries.some((e) => e.type === 'file')) throw new ExtractionError('archive contains no files');
  const target = join(cacheDir, topDir);
  const partial = join(cacheDir, `.partial-${topDir}-${randomBytes(6).toString('hex')}`);
  await mkdir(partial, { recursive: true });
  try {
    for (const entry of entries) {
      const rel = safeRelativePath(entry.path, topDir);
      if (rel === undefined || entry.type === 'link' || entry.type === 'other') continue; // links are never created
      const out = join(partial, rel);
      if (entry.type === 'dir') await mkdir(out, { recursive: true });
      else {
        await mkdir(dirname(out), { recursive: true });
        await writeFile(out, entry.data, { mode: entry.mode & 0o111 ? 0o755 : 0o644 });
      }
    }
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

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
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
