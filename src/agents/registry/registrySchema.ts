// The ACP agent registry format (the agentclientprotocol registry's `registry.schema.json` and
// `agent.schema.json`): an index `{version, agents[], extensions[]}` whose agents each say how to
// run them (`distribution`: `npx` / `uvx` packages, or a `binary` archive per platform); the
// extensions (ACP proxies) are entries of the same shape. Registry
// files come from the network or a file the user named, so every field is checked; a bad entry is
// skipped with a reason and never takes the rest of the file with it. Pure: no vscode, no Node.
import { isObject } from '../../protocol/guards';

/** The platform keys of `distribution.binary` (OS × CPU as the registry spells them). */
export const PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type PlatformKey = (typeof PLATFORMS)[number];

/** An npm (`npx`) or Python (`uvx`) package run by its package runner. */
export interface PackageDistribution {
  /** `name@version` (`@scope/name@1.2.3`); the version pins what runs. */
  package: string;
  args: string[];
  env: Record<string, string>;
}

/** One platform's download of a `binary` distribution. */
export interface BinaryTarget {
  /** Where the archive is (http(s) URL). */
  archive: string;
  /** Lower-case hex SHA-256 of the archive, when the registry gives one. */
  sha256?: string;
  /** The program inside the extracted archive, relative to its root (`./codex-acp`). */
  cmd: string;
  args: string[];
  env: Record<string, string>;
}

export interface Distribution {
  npx?: PackageDistribution;
  uvx?: PackageDistribution;
  binary?: Partial<Record<PlatformKey, BinaryTarget>>;
}

export interface RegistryAgent {
  id: string;
  name: string;
  version: string;
  description: string;
  distribution: Distribution;
  repository?: string;
  license?: string;
}

/**
 * An `extensions[]` entry: a component that is not an agent (an ACP proxy), in the same shape as an
 * agent. `placeBefore` (Symposium's `_meta.symposium.placeBefore`, optional) names the chain
 * component it wants to sit in front of.
 */
export interface RegistryExtension extends RegistryAgent {
  placeBefore?: string;
}

export interface ParsedRegistry {
  version: string;
  agents: RegistryAgent[];
  /** The `extensions[]` entries (proxies) that passed the same checks as agents. */
  extensions: RegistryExtension[];
  /** Why entries (or the whole file) were not taken, for the log and a notice. */
  problems: string[];
}

const ID = /^[a-z][a-z0-9-]*$/;
// Semantic versioning 2.0 (major.minor.patch, optional pre-release and build).
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;
// `name@version` or `@scope/name@version`; the runner gets it as one argument, so no spaces, and
// it must not look like an option.
const PACKAGE = /^(@[a-z0-9][\w.-]*\/)?[a-zA-Z0-9][\w.-]*(@[\w.^~<>=*+-]+)?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A chain component's (or a proxy's) name, as symposium.enabledComponents spells it.
const COMPONENT = /^[A-Za-z0-9._-]+$/;
const MAX_AGENTS = 1_000;

class EntryError extends Error {}

function text(o: Record<string, unknown>, key: string, max = 2_000): string {
  const v = o[key];
  if (typeof v !== 'string' || v.trim() === '') throw new EntryError(`"${key}" must be a non-empty string`);
  if (v.length > max) throw new EntryError(`"${key}" is longer than ${max} characters`);
  return v;
}

function optionalText(o: Record<string, unknown>, key: string): string | undefined {
  return o[key] === undefined ? undefined : text(o, key);
}

function args(o: Record<string, unknown>, where: string): string[] {
  const v = o.args;
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((a) => typeof a === 'string')) throw new EntryError(`${where}.args must be a list of strings`);
  return v;
}

/** `env` is an object of strings in the registry (ACP's own `[{name, value}]` lists are a different shape). */
function env(o: Record<string, unknown>, where: string): Record<string, string> {
  const v = o.env;
  if (v === undefined) return {};
  if (!isObject(v)) throw new EntryError(`${where}.env must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v)) {
    if (!ENV_NAME.test(name) || typeof value !== 'string') throw new EntryError(`${where}.env.${name} must be a string with a valid name`);
    out[name] = value;
  }
  return out;
}

function packageDistribution(v: unknown, kind: 'npx' | 'uvx'): PackageDistribution {
  if (!isObject(v)) throw new EntryError(`distribution.${kind} must be an object`);
  const pkg = text(v, 'package', 300);
  if (!PACKAGE.test(pkg)) throw new EntryError(`distribution.${kind}.package "${pkg}" is not a package name (name@version)`);
  return { package: pkg, args: args(v, `distribution.${kind}`), env: env(v, `distribution.${kind}`) };
}

function binaryTarget(v: unknown, platform: string): BinaryTarget {
  const where = `distribution.binary.${platform}`;
  if (!isObject(v)) throw new EntryError(`${where} must be an object`);
  const archive = text(v, 'archive', 4_096);
  if (!/^https?:\/\//i.test(archive)) throw new EntryError(`${where}.archive must be an http(s) URL`);
  const cmd = text(v, 'cmd', 500);
  if (!isSafeRelativePath(cmd)) throw new EntryError(`${where}.cmd "${cmd}" must be a relative path inside the archive`);
  const target: BinaryTarget = { archive, cmd, args: args(v, where), env: env(v, where) };
  if (v.sha256 !== undefined) {
    const sum = text(v, 'sha256', 64);
    if (!SHA256.test(sum)) throw new EntryError(`${where}.sha256 must be 64 hex digits`);
    target.sha256 = sum.toLowerCase();
  }
  return target;
}

/** A path that stays inside the folder it is relative to: not absolute, no `..`, no backslashes. */
export function isSafeRelativePath(p: string): boolean {
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.includes('\\') || p.includes('\0')) return false;
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  return parts.length > 0 && !parts.includes('..');
}

function distribution(v: unknown): Distribution {
  if (!isObject(v)) throw new EntryError('"distribution" must be an object');
  const out: Distribution = {};
  for (const key of Object.keys(v)) {
    if (key !== 'npx' && key !== 'uvx' && key !== 'binary') throw new EntryError(`unknown distribution kind "${key}"`);
  }
  if (v.npx !== undefined) out.npx = packageDistribution(v.npx, 'npx');
  if (v.uvx !== undefined) out.uvx = packageDistribution(v.uvx, 'uvx');
  if (v.binary !== undefined) {
    if (!isObject(v.binary)) throw new EntryError('distribution.binary must be an object of platforms');
    const binary: Partial<Record<PlatformKey, BinaryTarget>> = {};
    for (const [platform, target] of Object.entries(v.binary)) {
      if (!(PLATFORMS as readonly string[]).includes(platform))
        throw new EntryError(`unknown platform "${platform}" in distribution.binary`);
      binary[platform as PlatformKey] = binaryTarget(target, platform);
    }
    if (Object.keys(binary).length === 0) throw new EntryError('distribution.binary names no platform');
    out.binary = binary;
  }
  if (!out.npx && !out.uvx && !out.binary) throw new EntryError('"distribution" needs npx, uvx or binary');
  return out;
}

/** One `agents[]` entry, checked against agent.schema.json. */
export function parseRegistryAgent(raw: unknown): RegistryAgent {
  if (!isObject(raw)) throw new EntryError('an entry must be an object');
  const id = text(raw, 'id', 100);
  if (!ID.test(id)) throw new EntryError(`"id" "${id}" must be lower-case letters, digits and "-", starting with a letter`);
  const version = text(raw, 'version', 100);
  if (!SEMVER.test(version)) throw new EntryError(`"version" "${version}" is not a semantic version`);
  const agent: RegistryAgent = {
    id,
    name: text(raw, 'name', 200),
    version,
    description: text(raw, 'description', 2_000),
    distribution: distribution(raw.distribution),
  };
  const repository = optionalText(raw, 'repository');
  const license = optionalText(raw, 'license');
  if (repository) agent.repository = repository;
  if (license) agent.license = license;
  return agent;
}

/** One `extensions[]` entry: an agent's checks, and Symposium's optional placement hint. */
export function parseRegistryExtension(raw: unknown): RegistryExtension {
  const extension: RegistryExtension = parseRegistryAgent(raw);
  const meta = isObject(raw) && isObject(raw._meta) && isObject(raw._meta.symposium) ? raw._meta.symposium : undefined;
  if (meta?.placeBefore !== undefined) {
    const before = text(meta, 'placeBefore', 100);
    if (!COMPONENT.test(before)) throw new EntryError(`_meta.symposium.placeBefore "${before}" is not a component name`);
    extension.placeBefore = before;
  }
  return extension;
}

/** A whole registry file (already JSON-parsed). `source` names it in the problems. */
export function parseRegistry(raw: unknown, source: string): ParsedRegistry {
  if (!isObject(raw)) return { version: '', agents: [], extensions: [], problems: [`${source}: a registry must be a JSON object`] };
  const problems: string[] = [];
  const version = typeof raw.version === 'string' ? raw.version : '';
  if (!version) problems.push(`${source}: "version" is missing`);
  if (!Array.isArray(raw.agents))
    return { version, agents: [], extensions: [], problems: [...problems, `${source}: "agents" must be a list`] };
  const agents = entries(raw.agents, 'agent', parseRegistryAgent, source, problems);
  let extensions: RegistryExtension[] = [];
  if (Array.isArray(raw.extensions)) extensions = entries(raw.extensions, 'extension', parseRegistryExtension, source, problems);
  else if (raw.extensions !== undefined) problems.push(`${source}: "extensions" must be a list`);
  return { version, agents, extensions, problems };
}

/** Each entry of a list checked on its own: a bad one becomes a problem, the others are kept. */
function entries<T extends RegistryAgent>(
  list: unknown[],
  kind: 'agent' | 'extension',
  parse: (raw: unknown) => T,
  source: string,
  problems: string[],
): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of list.slice(0, MAX_AGENTS).entries()) {
    const label = isObject(entry) && typeof entry.id === 'string' ? entry.id : `#${i}`;
    try {
      const parsed = parse(entry);
      if (seen.has(parsed.id)) throw new EntryError('listed twice');
      seen.add(parsed.id);
      out.push(parsed);
    } catch (e) {
      if (!(e instanceof EntryError)) throw e;
      problems.push(`${source}: ${kind} ${label}: ${e.message}`);
    }
  }
  if (list.length > MAX_AGENTS) problems.push(`${source}: only the first ${MAX_AGENTS} ${kind}s are read`);
  return out;
}
