// Finds (or fetches) the source tree of a crate version. Version: an explicit requirement with
// Cargo's semantics; else the version the workspace's Cargo.lock uses; else the newest. Where,
// first hit wins: our extraction cache, $CARGO_HOME/registry/src, $CARGO_HOME/registry/cache
// (extracted), system trees such as Debian's /usr/share/cargo/registry, then a download.
import { readdir, stat, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { readRegularFile, readRegularFileText } from '../../../src/node/containedFile';
import { LIMITS } from '../../../src/node/tarExtract';
import { parseVersionReq, selectVersion, type Candidate, type VersionReq } from './cargoSemver';
import { extractCrate, sweepPartials } from './extract';
import { checkCrateName, downloadCrate, fetchIndex, RegistryError, type IndexEntry, type RegistryConfig } from './registry';
import { errorText } from '../../../src/protocol/errorText';

/** A Cargo.lock larger than this is not read (big workspaces' are a few hundred KB). */
const MAX_CARGO_LOCK_BYTES = 32 * 1024 * 1024;

export interface LocatorConfig {
  cacheDir: string;
  cargoHome: string;
  systemRegistries: string[];
  registry: RegistryConfig;
}

export function defaultLocatorConfig(registry: RegistryConfig): LocatorConfig {
  const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return {
    cacheDir: process.env.SYMPOSIUM_CRATE_CACHE ?? join(cacheHome, 'symposium', 'crate-sources'),
    cargoHome: process.env.CARGO_HOME ?? join(homedir(), '.cargo'),
    systemRegistries: ['/usr/share/cargo/registry'],
    registry,
  };
}

export interface CrateSource {
  crate_name: string;
  version: string;
  checkout_path: string;
  message: string;
}

/** What locating is doing, for the caller's progress line ("Downloading serde 1.0.219 — 1.2 of 3.4 MB"). */
export type LocateProgress = (message: string, progress?: number, total?: number) => void;

const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1);
/** "1.2 of 3.4 MB" (or KB for small archives). */
export function byteProgress(received: number, total: number | undefined): string {
  const big = (total ?? received) >= 1024 * 1024;
  const f = (n: number): string => (big ? mb(n) : String(Math.round(n / 1024)));
  return total ? `${f(received)} of ${f(total)} ${big ? 'MB' : 'KB'}` : `${f(received)} ${big ? 'MB' : 'KB'}`;
}

type Where = { kind: 'dir'; path: string; origin: string } | { kind: 'crate'; path: string; origin: string };

/** Every locally available version of `name`, with where it is. */
async function localVersions(name: string, config: LocatorConfig): Promise<Map<string, Where>> {
  const found = new Map<string, Where>();
  const prefix = `${name}-`;
  const add = (file: string, where: Where): void => {
    const version = file.slice(prefix.length).replace(/\.crate$/, '');
    // "serde-json-core-0.5" also starts with "serde-": only a version may follow the prefix.
    if (/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/.test(version) && !found.has(version)) found.set(version, where);
  };
  const list = async (dir: string): Promise<string[]> => readdir(dir).catch(() => [] as string[]);
  for (const f of await list(config.cacheDir))
    if (f.startsWith(prefix)) add(f, { kind: 'dir', path: join(config.cacheDir, f), origin: 'the Symposium extraction cache' });
  for (const reg of await list(join(config.cargoHome, 'registry', 'src'))) {
    for (const f of await list(join(config.cargoHome, 'registry', 'src', reg)))
      if (f.startsWith(prefix))
        add(f, { kind: 'dir', path: join(config.cargoHome, 'registry', 'src', reg, f), origin: 'the Cargo registry sources' });
  }
  for (const reg of await list(join(config.cargoHome, 'registry', 'cache'))) {
    for (const f of await list(join(config.cargoHome, 'registry', 'cache', reg)))
      if (f.startsWith(prefix) && f.endsWith('.crate'))
        add(f, { kind: 'crate', path: join(config.cargoHome, 'registry', 'cache', reg, f), origin: 'the Cargo download cache' });
  }
  for (const sys of config.systemRegistries) {
    for (const f of await list(sys))
      if (f.startsWith(prefix)) add(f, { kind: 'dir', path: join(sys, f), origin: `the system crate registry ${sys}` });
  }
  return found;
}

/** The version of `name` recorded in the nearest Cargo.lock above `cwd`, if any (highest when several). */
export async function lockedVersion(name: string, cwd: string): Promise<string | undefined> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    // The workspace's (or a parent's) file: a FIFO or a link to /dev/zero there is skipped, not waited on or read forever.
    const text = await readRegularFileText(join(dir, 'Cargo.lock'), { maxBytes: MAX_CARGO_LOCK_BYTES, followFinalLink: true }).then(
      (r) => r.text,
      () => undefined,
    );
    if (text !== undefined) {
      const versions: Candidate[] = [];
      for (const block of text.split(/\n\[\[package\]\]\n/)) {
        const n = /^name = "([^"]+)"/m.exec(block)?.[1];
        const v = /^version = "([^"]+)"/m.exec(block)?.[1];
        if (n === name && v) versions.push({ version: v });
      }
      return selectVersion(versions, parseVersionReq('*')) ?? versions[0]?.version;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export async function locateCrate(
  name: string,
  versionReq: string | undefined,
  cwd: string,
  config: LocatorConfig,
  signal?: AbortSignal,
  onProgress?: LocateProgress,
): Promise<CrateSource> {
  checkCrateName(name);
  let req: VersionReq | undefined;
  if (versionReq !== undefined && versionReq.trim() !== '') {
    try {
      req = parseVersionReq(versionReq);
    } catch (err) {
      throw new RegistryError(errorText(err));
    }
  }
  if (!req) {
    const locked = await lockedVersion(name, cwd);
    if (locked) req = parseVersionReq(`=${locked}`);
  }
  const local = await localVersions(name, config);
  let index: IndexEntry[] | undefined;
  let indexError: Error | undefined;
  try {
    index = await fetchIndex(name, config.registry, signal);
  } catch (err) {
    indexError = err as Error;
  }
  const candidates: Candidate[] = index
    ? index.map((e) => ({ version: e.vers, yanked: e.yanked }))
    : [...local.keys()].map((version) => ({ version }));
  // Versions we hold locally are real even if the registry has since dropped them.
  if (index) for (const v of local.keys()) if (!index.some((e) => e.vers === v)) candidates.push({ version: v });
  const version = selectVersion(candidates, req);
  if (!version) {
    const what = req ? `matching "${req.source}"` : '';
    if (indexError && local.size === 0) throw new RegistryError(`cannot find crate "${name}" ${what}: ${indexError.message}`);
    const known =
      candidates
        .map((c) => c.version)
        .slice(-10)
        .join(', ') || 'none';
    throw new RegistryError(`no version of crate "${name}" ${what} is available (known: ${known})`);
  }
  const where = local.get(version);
  if (where?.kind === 'dir')
    return {
      crate_name: name,
      version,
      checkout_path: where.path,
      message: `Crate '${name}' version ${version} found in ${where.origin}: ${where.path}`,
    };
  await mkdir(config.cacheDir, { recursive: true });
  void sweepPartials(config.cacheDir);
  if (where?.kind === 'crate') {
    onProgress?.(`Extracting ${name} ${version}`);
    // Cargo's own cache, but a regular file only and no larger than an archive may be.
    const archive = await readRegularFile(where.path, { maxBytes: LIMITS.compressedBytes, followFinalLink: true });
    const path = await extractCrate(archive.bytes, config.cacheDir, name, version);
    return {
      crate_name: name,
      version,
      checkout_path: path,
      message: `Crate '${name}' version ${version} extracted from ${where.origin} to ${path}`,
    };
  }
  const entry = index?.find((e) => e.vers === version);
  if (!entry)
    throw new RegistryError(
      `crate "${name}" ${version} is not available locally and the registry is unreachable${indexError ? `: ${indexError.message}` : ''}`,
    );
  const bytes = await downloadCrate(entry, config.registry, signal, (received, total) =>
    onProgress?.(`Downloading ${name} ${version} — ${byteProgress(received, total)}`, received, total),
  );
  onProgress?.(`Extracting ${name} ${version}`);
  const path = await extractCrate(bytes, config.cacheDir, name, version);
  const s = await stat(path);
  if (!s.isDirectory()) throw new RegistryError(`extraction of ${name} ${version} did not produce a folder`);
  return {
    crate_name: name,
    version,
    checkout_path: path,
    message: `Crate '${name}' version ${version} downloaded and extracted to ${path}`,
  };
}
