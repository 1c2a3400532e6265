// Where registry agents come from: the registry bundled with the extension and the files named in
// `symposium.registry.urls` (http(s) or file: URLs). Remote files are fetched with a timeout and a
// size limit, and each good copy is cached (global storage), so offline the last copy serves and
// the user is told it is not fresh. The user's files come first: an id they list wins over the
// bundled one. vscode-free (plain-Node tests drive it with a loopback server).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Log } from '../../log/logEvent';
import { BodyTooLargeError, readCappedResponse } from '../../node/cappedBody';
import { registryUrlRefusal } from './installRisks';
import { parseRegistry, type RegistryAgent, type RegistryExtension } from './registrySchema';
import { errorText } from '../../protocol/errorText';

/** A registry agent and the file it came from. */
export interface SourcedAgent extends RegistryAgent {
  /** `bundled`, or the URL of the user's registry file. */
  source: string;
}

/** A registry extension (proxy) and the file it came from. */
export interface SourcedExtension extends RegistryExtension {
  source: string;
}

export interface LoadedRegistries {
  agents: SourcedAgent[];
  /** The files' `extensions[]` (proxies), first file first, like agents. */
  extensions: SourcedExtension[];
  /** Entries or files that could not be used (also logged). */
  problems: string[];
  /** URLs that could not be fetched and were served from the cache (with the time of that copy). */
  stale: { url: string; fetchedAt: string }[];
}

export interface RegistrySourceOptions {
  bundled: unknown;
  urls: readonly string[];
  /** Where fetched copies are kept (created when needed). */
  cacheDir: string;
  log: Log;
  timeoutMs?: number;
}

export const BUNDLED_SOURCE = 'bundled';
const MAX_BYTES = 5 * 1024 * 1024;

class FetchError extends Error {}

interface CachedCopy {
  url: string;
  fetchedAt: string;
  body: unknown;
}

const cacheFile = (cacheDir: string, url: string): string =>
  join(cacheDir, `${createHash('sha256').update(url).digest('hex').slice(0, 24)}.json`);

/** Reads every source; never throws (a source that fails is a problem, or is served from the cache). */
export async function loadRegistries(options: RegistrySourceOptions): Promise<LoadedRegistries> {
  const { urls, log } = options;
  const problems: string[] = [];
  const stale: LoadedRegistries['stale'] = [];
  const byId = new Map<string, SourcedAgent>();
  const extensionsById = new Map<string, SourcedExtension>();
  const take = (raw: unknown, source: string): void => {
    const parsed = parseRegistry(raw, source);
    problems.push(...parsed.problems);
    for (const agent of parsed.agents) if (!byId.has(agent.id)) byId.set(agent.id, { ...agent, source });
    for (const ext of parsed.extensions) if (!extensionsById.has(ext.id)) extensionsById.set(ext.id, { ...ext, source });
  };
  const bodies = await Promise.all(urls.map((url) => readSource(url, options)));
  for (const [i, result] of bodies.entries()) {
    const url = urls[i]!;
    if ('body' in result) {
      if (result.stale) stale.push({ url, fetchedAt: result.stale });
      take(result.body, url);
    } else problems.push(`${url}: ${result.error}`);
  }
  take(options.bundled, BUNDLED_SOURCE);
  for (const p of problems) log.warn('registry', p);
  log.info('registry', 'loaded', {
    agents: byId.size,
    extensions: extensionsById.size,
    sources: urls.length + 1,
    stale: stale.map((s) => s.url),
  });
  return { agents: [...byId.values()], extensions: [...extensionsById.values()], problems, stale };
}

type SourceResult = { body: unknown; stale?: string } | { error: string };

async function readSource(url: string, options: RegistrySourceOptions): Promise<SourceResult> {
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    return { error: 'not a URL' };
  }
  if (parsedUrl.protocol === 'file:') {
    try {
      return { body: JSON.parse(await readLimited(fileURLToPath(parsedUrl))) };
    } catch (e) {
      return { error: `could not be read: ${errorText(e)}` };
    }
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') return { error: 'only http(s) and file URLs are read' };
  const refusal = registryUrlRefusal(parsedUrl);
  if (refusal) return { error: refusal };
  const file = cacheFile(options.cacheDir, url);
  try {
    const body = await fetchJson(url, options.timeoutMs ?? 10_000);
    await saveCopy(options.cacheDir, file, { url, fetchedAt: new Date().toISOString(), body });
    return { body };
  } catch (e) {
    const reason = e instanceof FetchError ? e.message : `could not be fetched: ${errorText(e)}`;
    const copy = await readCopy(file, url);
    if (copy) {
      options.log.warn('registry', 'offline: using the cached copy', { url, fetchedAt: copy.fetchedAt, reason });
      return { body: copy.body, stale: copy.fetchedAt };
    }
    return { error: reason };
  }
}

/** A local registry file, read no further than the limit (a FIFO or /dev/zero never ends). */
async function readLimited(path: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // `end` is inclusive: one byte past the limit is enough to know the file is too large.
  for await (const chunk of createReadStream(path, { end: MAX_BYTES })) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  if (size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES} bytes`);
  return Buffer.concat(chunks, size).toString('utf8');
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { signal: timeout, headers: { accept: 'application/json', 'user-agent': 'symposium-vscode (agent registry)' } });
  } catch (e) {
    if (timeout.aborted) throw new FetchError(`timed out after ${timeoutMs} ms`);
    const cause = (e as Error).cause;
    throw new FetchError(`network error: ${cause instanceof Error ? cause.message : errorText(e)}`);
  }
  if (!res.ok) throw new FetchError(`HTTP ${res.status}`);
  let bytes: Buffer;
  try {
    bytes = await readCappedResponse(res, MAX_BYTES);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw new FetchError(e.message);
    if (timeout.aborted) throw new FetchError(`timed out after ${timeoutMs} ms`);
    throw new FetchError(`network error: ${errorText(e)}`);
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new FetchError(`not JSON: ${errorText(e)}`);
  }
}

async function saveCopy(dir: string, file: string, copy: CachedCopy): Promise<void> {
  await mkdir(dir, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, JSON.stringify(copy));
  await rename(partial, file);
}

async function readCopy(file: string, url: string): Promise<CachedCopy | undefined> {
  try {
    const copy = JSON.parse(await readFile(file, 'utf8')) as Partial<CachedCopy>;
    return copy.url === url && typeof copy.fetchedAt === 'string' ? (copy as CachedCopy) : undefined;
  } catch {
    return undefined;
  }
}
