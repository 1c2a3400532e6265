// Installs a registry agent's `binary` distribution: download the archive (timeout, size limit,
// progress), check its SHA-256 against the registry's before anything touches the disk, unpack it
// with the one safe extraction (src/node/tarExtract.ts, zipExtract.ts: no paths outside the
// folder, no links, bombs refused, atomic), then check that the program the entry names is there and
// executable. An install folder that exists is complete (the extraction renames it into place
// last), so a second install of the same version downloads nothing. vscode-free.
import { createHash } from 'node:crypto';
import { access, chmod, constants, mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BodyTooLargeError, readCappedResponse } from '../../node/cappedBody';
import { extractTarGz, LIMITS } from '../../node/tarExtract';
import { extractZip } from '../../node/zipExtract';
import type { BinaryDownload } from './resolveAgent';
import { errorText } from '../../protocol/errorText';

export class InstallError extends Error {}

export interface InstallProgress {
  received: number;
  /** From Content-Length, when the server sent one. */
  total?: number;
}

export interface InstallOptions {
  timeoutMs?: number;
  onProgress?: (p: InstallProgress) => void;
  signal?: AbortSignal;
}

/** Archive kinds the extraction understands (by the URL's path). */
export function archiveKind(url: string): 'tar.gz' | 'zip' | undefined {
  const path = new URL(url).pathname.toLowerCase();
  return path.endsWith('.tar.gz') || path.endsWith('.tgz') ? 'tar.gz' : path.endsWith('.zip') ? 'zip' : undefined;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Makes sure `command` (inside `download.installDir`) is installed; returns whether it downloaded.
 * Every failure is an InstallError that says what happened, and leaves no install folder behind.
 */
export async function installBinary(download: BinaryDownload, command: string, options: InstallOptions = {}): Promise<boolean> {
  if (await exists(download.installDir)) {
    await checkCommand(command);
    return false;
  }
  const kind = archiveKind(download.url);
  if (!kind) throw new InstallError(`${download.url}: only .tar.gz, .tgz and .zip archives can be installed`);
  const bytes = await fetchArchive(download.url, options);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (download.sha256 && actual !== download.sha256.toLowerCase())
    throw new InstallError(
      `checksum mismatch for ${download.url}: the registry says ${download.sha256}, the download is ${actual}; nothing was installed`,
    );
  await mkdir(dirname(download.installDir), { recursive: true });
  try {
    if (kind === 'zip') await extractZip(bytes, download.installDir, { label: 'agent zip' });
    else await extractTarGz(bytes, download.installDir, { label: 'agent' });
  } catch (e) {
    throw new InstallError(`${download.url}: ${errorText(e)}`);
  }
  try {
    await checkCommand(command);
  } catch (e) {
    // Not usable: gone, so the next try downloads again instead of trusting this folder.
    await rm(download.installDir, { recursive: true, force: true });
    throw e;
  }
  return true;
}

async function checkCommand(command: string): Promise<void> {
  if (!(await exists(command))) throw new InstallError(`the archive has no ${command}`);
  try {
    await access(command, constants.X_OK);
  } catch {
    // Some archives lose the executable bit (zipped on one system, re-tarred on another).
    await chmod(command, 0o755);
  }
}

async function fetchArchive(url: string, options: InstallOptions): Promise<Buffer> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 120_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const failed = (e: unknown): InstallError => {
    if (options.signal?.aborted) return new InstallError('cancelled');
    if (timeout.aborted) return new InstallError(`timed out downloading ${url}`);
    const cause = (e as Error).cause;
    return new InstallError(`could not download ${url}: ${cause instanceof Error ? cause.message : errorText(e)}`);
  };
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { 'user-agent': 'symposium-vscode (agent install)' } });
  } catch (e) {
    throw failed(e);
  }
  if (!res.ok || !res.body) throw new InstallError(`could not download ${url}: HTTP ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(declared) ? declared : undefined;
  try {
    return await readCappedResponse(res, LIMITS.compressedBytes, (received) =>
      options.onProgress?.({ received, ...(total !== undefined ? { total } : {}) }),
    );
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw new InstallError(`${url} is over ${LIMITS.compressedBytes} bytes; refused`);
    throw failed(e);
  }
}
