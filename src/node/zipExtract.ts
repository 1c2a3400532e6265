// Safe extraction of a .zip (agent release archives from the registry, often zipped for macOS and
// Windows), with the same rules as the tar.gz extraction (tarExtract.ts): paths stay inside the
// target (absolute paths and `..` refused), links are never created, sizes and entry counts are
// bounded from the central directory before anything is inflated, each entry is inflated with a
// cap on its output (a bomb stops at its declared size), and the tree appears atomically. Only the
// two methods real archives use (store, deflate); no encryption, no ZIP64, no multi-disk archives.
import { inflateRaw } from 'node:zlib';
import { createFile, ExtractionError, fillAtomically, LIMITS, safeRelativePath, writeAll } from './tarExtract';
import { errorText } from '../protocol/errorText';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  /** Unix mode from the external attributes (0 when the archive was made elsewhere). */
  mode: number;
  flags: number;
}

function inflate(data: Buffer, size: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    // One byte over the declared size is enough to know the entry lies about it.
    inflateRaw(data, { maxOutputLength: Math.max(1, size + 1) }, (err, out) => (err ? reject(err) : resolve(out))),
  );
}

/** The central directory's entries, checked against the limits before anything is inflated. */
export function readZipDirectory(bytes: Buffer, label = 'zip'): ZipEntry[] {
  const from = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= from; i--)
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new ExtractionError(`not a valid ${label} archive (no end of central directory)`);
  const count = bytes.readUInt16LE(eocd + 10);
  const size = bytes.readUInt32LE(eocd + 12);
  const offset = bytes.readUInt32LE(eocd + 16);
  if (bytes.readUInt16LE(eocd + 4) !== 0 || bytes.readUInt16LE(eocd + 8) !== count)
    throw new ExtractionError(`${label}: multi-disk archives are not supported`);
  if (count === 0xffff || offset === 0xffffffff) throw new ExtractionError(`${label}: ZIP64 archives are not supported`);
  if (count > LIMITS.entries) throw new ExtractionError(`archive has more than ${LIMITS.entries} entries`);
  if (offset + size > eocd) throw new ExtractionError(`not a valid ${label} archive (central directory out of bounds)`);
  const entries: ZipEntry[] = [];
  let declared = 0;
  for (let at = offset, i = 0; i < count; i++) {
    if (at + 46 > eocd || bytes.readUInt32LE(at) !== CENTRAL) throw new ExtractionError(`not a valid ${label} archive (central directory)`);
    const nameLength = bytes.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      mode: bytes.readUInt32LE(at + 38) >>> 16,
      localOffset: bytes.readUInt32LE(at + 42),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
    };
    declared += entry.size;
    if (declared > LIMITS.uncompressedBytes)
      throw new ExtractionError(`archive declares more than ${LIMITS.uncompressedBytes} bytes of entries`);
    entries.push(entry);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/** The bytes of one entry, inflated and checked against its declared size. */
async function entryData(bytes: Buffer, e: ZipEntry, label: string): Promise<Buffer> {
  if (e.flags & 1) throw new ExtractionError(`${label}: "${e.name}" is encrypted`);
  const at = e.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL)
    throw new ExtractionError(`not a valid ${label} archive (local header of "${e.name}")`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  if (start + e.compressedSize > bytes.length) throw new ExtractionError(`truncated ${label} archive ("${e.name}")`);
  const raw = bytes.subarray(start, start + e.compressedSize);
  let data: Buffer;
  if (e.method === 0) data = raw;
  else if (e.method === 8) {
    try {
      data = await inflate(raw, e.size);
    } catch (err) {
      throw new ExtractionError(`${label}: "${e.name}" does not inflate to its declared size: ${errorText(err)}`);
    }
  } else throw new ExtractionError(`${label}: "${e.name}" uses compression method ${e.method} (only store and deflate)`);
  if (data.length !== e.size) throw new ExtractionError(`${label}: "${e.name}" is not its declared ${e.size} bytes`);
  return data;
}

/** Extracts zip `bytes` into the folder `target` (atomically, see fillAtomically) and returns it. */
export async function extractZip(bytes: Buffer, target: string, options: { label?: string } = {}): Promise<string> {
  const label = options.label ?? 'zip';
  if (bytes.length > LIMITS.compressedBytes) throw new ExtractionError(`${label} file exceeds ${LIMITS.compressedBytes} bytes`);
  const entries = readZipDirectory(bytes, label);
  return fillAtomically(target, async (partial) => {
    let files = 0;
    for (const e of entries) {
      const rel = safeRelativePath(e.name, undefined, label);
      if (rel === undefined || e.name.endsWith('/')) continue; // folders are made for their files
      if ((e.mode & S_IFMT) === S_IFLNK) continue; // links are never created
      const data = await entryData(bytes, e, label);
      const file = await createFile(partial, rel, e.mode);
      try {
        await writeAll(file, data);
      } finally {
        await file.close();
      }
      files++;
    }
    return files;
  });
}
