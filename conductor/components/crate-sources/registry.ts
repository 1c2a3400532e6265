// crates.io's sparse index and static download URL (both bases configurable, so tests use a
// loopback registry). Every request has a timeout and a size cap (a registry is untrusted: an
// answer that goes on is cut off at the cap, not held in memory); every download is checked
// against the index's SHA-256 checksum, so a corrupt or truncated archive is an error, never a tree.
import { BodyTooLargeError, readCappedResponse, sizeText } from '../../../src/node/cappedBody';
import { LIMITS } from '../../../src/node/tarExtract';
import { errorText } from '../../../src/protocol/errorText';

export interface RegistryConfig {
  /** Sparse index base, e.g. https://index.crates.io */
  indexUrl: string;
  /** Download base; files are at `<base>/<name>/<name>-<version>.crate`. */
  downloadUrl: string;
  timeoutMs: number;
  /** A crate archive's bytes at most (default: the extraction's own cap on a compressed archive). */
  maxDownloadBytes?: number;
  /** A crate's index file's bytes at most. */
  maxIndexBytes?: number;
}

/** crates.io's largest index files (every version of a crate, one line each) are a few hundred KB. */
export const MAX_INDEX_BYTES = 16 * 1024 * 1024;

export const DEFAULT_REGISTRY: RegistryConfig = {
  indexUrl: process.env.SYMPOSIUM_CRATES_INDEX_URL ?? 'https://index.crates.io',
  downloadUrl: process.env.SYMPOSIUM_CRATES_DOWNLOAD_URL ?? 'https://static.crates.io/crates',
  timeoutMs: Number(process.env.SYMPOSIUM_CRATES_TIMEOUT_MS ?? 20000),
};

export interface IndexEntry {
  name: string;
  vers: string;
  cksum: string;
  yanked: boolean;
}

export class RegistryError extends Error {}

const CRATE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function checkCrateName(name: string): void {
  if (!CRATE_NAME.test(name))
    throw new RegistryError(
      `invalid crate name "${name}": crate names start with a letter and use letters, digits, "-" and "_" (at most 64)`,
    );
}

/** The sparse-index path of a crate (Cargo's layout: 1/, 2/, 3/a/, ab/cd/). */
export function indexPath(name: string): string {
  const n = name.toLowerCase();
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

async function get(url: string, config: RegistryConfig, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(config.timeoutMs);
  try {
    return await fetch(url, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: { 'user-agent': 'symposium-conductor (crate sources)' },
    });
  } catch (err) {
    if (timeout.aborted) throw new RegistryError(`timed out after ${config.timeoutMs} ms fetching ${url}`);
    if (signal?.aborted) throw new RegistryError('cancelled');
    throw new RegistryError(
      `network error fetching ${url}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : errorText(err)}`,
    );
  }
}

export async function fetchIndex(name: string, config: RegistryConfig, signal?: AbortSignal): Promise<IndexEntry[]> {
  checkCrateName(name);
  const url = `${config.indexUrl.replace(/\/$/, '')}/${indexPath(name)}`;
  const res = await get(url, config, signal);
  if (res.status === 404 || res.status === 410) throw new RegistryError(`crate "${name}" was not found in the registry`);
  if (!res.ok) throw new RegistryError(`registry index answered ${res.status} for ${url}`);
  const maxBytes = config.maxIndexBytes ?? MAX_INDEX_BYTES;
  const body = await readCapped(res, maxBytes, `the registry's index of "${name}"`);
  const entries: IndexEntry[] = [];
  for (const line of body.toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as Partial<IndexEntry>;
      if (typeof e.vers === 'string' && typeof e.cksum === 'string')
        entries.push({ name: e.name ?? name, vers: e.vers, cksum: e.cksum, yanked: e.yanked === true });
    } catch {
      // one bad line does not poison the rest of the index file
    }
  }
  return entries;
}

/** Bytes received so far and the total when the server said it (content-length). */
export type DownloadProgress = (received: number, total: number | undefined) => void;

export async function downloadCrate(
  entry: IndexEntry,
  config: RegistryConfig,
  signal?: AbortSignal,
  onBytes?: DownloadProgress,
): Promise<Buffer> {
  const url = `${config.downloadUrl.replace(/\/$/, '')}/${entry.name}/${entry.name}-${entry.vers}.crate`;
  const res = await get(url, config, signal);
  if (!res.ok) throw new RegistryError(`download of ${entry.name} ${entry.vers} answered ${res.status} (${url})`);
  const length = Number(res.headers.get('content-length'));
  const total = Number.isSafeInteger(length) && length > 0 ? length : undefined;
  onBytes?.(0, total);
  const bytes = await readCapped(
    res,
    config.maxDownloadBytes ?? LIMITS.compressedBytes,
    `the archive of ${entry.name} ${entry.vers}`,
    (received) => onBytes?.(received, total),
  );
  const { createHash } = await import('node:crypto');
  const sum = createHash('sha256').update(bytes).digest('hex');
  if (sum !== entry.cksum) throw new RegistryError(`checksum mismatch for ${entry.name} ${entry.vers}: the downloaded archive is corrupt`);
  return bytes;
}

/** The body, at most `maxBytes` (cappedBody.ts); RegistryError otherwise. */
async function readCapped(res: Response, maxBytes: number, what: string, onBytes?: (received: number) => void): Promise<Buffer> {
  try {
    return await readCappedResponse(res, maxBytes, onBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new RegistryError(`${what} is larger than ${sizeText(maxBytes)}; the download was stopped`);
    throw new RegistryError(`reading ${what} failed: ${errorText(err)}`);
  }
}
