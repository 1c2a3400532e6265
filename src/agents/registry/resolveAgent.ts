// From a registry entry to the process that runs it: registry entry + platform → {command, args,
// env}, plus what must be downloaded first for a `binary` distribution and a one-line summary the
// user is shown before anything is installed or run. Pure (no vscode, no Node): the platform and
// the install folder come in as arguments.
import type { ProxyDefinition } from '../../settings/proxySettings';
import { isSafeRelativePath, type PlatformKey, type RegistryAgent } from './registrySchema';

export type DistributionKind = 'npx' | 'uvx' | 'binary';

/** A binary archive to fetch, check and unpack before the agent can run. */
export interface BinaryDownload {
  url: string;
  /** Lower-case hex SHA-256 the archive must have (absent when the registry gives none). */
  sha256?: string;
  /** Where the archive is unpacked: `<installRoot>/<id>/<version>`. */
  installDir: string;
}

export interface LaunchPlan {
  kind: DistributionKind;
  command: string;
  args: string[];
  env: Record<string, string>;
  download?: BinaryDownload;
  /** What will run, in words (shown in the confirmation). */
  summary: string;
}

export class ResolveError extends Error {}

/** Node's `process.platform` / `process.arch` → the registry's platform key (undefined: none matches). */
export function platformKey(platform: string, arch: string): PlatformKey | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : undefined;
  return os && cpu ? (`${os}-${cpu}` as PlatformKey) : undefined;
}

/** A command line as the user reads it (arguments with spaces quoted). */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/[\s"']/.test(a) || a === '' ? JSON.stringify(a) : a)).join(' ');
}

/**
 * How to run `agent` here. A package runner is preferred (npx, then uvx: nothing to download
 * ahead, the runner fetches the pinned version); otherwise the binary for this platform, installed
 * under `installRoot`. No compatible distribution is an error that says what the entry offers.
 */
export function resolveAgent(agent: RegistryAgent, platform: PlatformKey | undefined, installRoot: string): LaunchPlan {
  const { npx, uvx, binary } = agent.distribution;
  const windows = platform?.startsWith('windows') ?? false;
  if (npx) {
    // npx on Windows is a batch file, which cannot be spawned without a shell under its plain name.
    const command = windows ? 'npx.cmd' : 'npx';
    const args = ['-y', npx.package, ...npx.args];
    return { kind: 'npx', command, args, env: { ...npx.env }, summary: commandLine(command, args) };
  }
  if (uvx) {
    const args = [uvx.package, ...uvx.args];
    return { kind: 'uvx', command: 'uvx', args, env: { ...uvx.env }, summary: commandLine('uvx', args) };
  }
  const target = platform ? binary?.[platform] : undefined;
  if (!binary || !target) {
    const offered = binary ? Object.keys(binary).join(', ') : 'no binaries';
    throw new ResolveError(`${agent.name} has no distribution for ${platform ?? 'this platform'} (it offers ${offered})`);
  }
  // Checked when the registry was parsed; checked again because a plan may be built from any entry.
  if (!isSafeRelativePath(target.cmd)) throw new ResolveError(`${agent.name}: "${target.cmd}" is not a path inside its archive`);
  const installDir = `${installRoot.replace(/\/+$/, '')}/${agent.id}/${agent.version}`;
  const cmd = target.cmd
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  const command = `${installDir}/${cmd}`;
  const download: BinaryDownload = { url: target.archive, installDir, ...(target.sha256 ? { sha256: target.sha256 } : {}) };
  const checksum = target.sha256 ? `SHA-256 ${target.sha256}` : 'no checksum given by the registry';
  return {
    kind: 'binary',
    command,
    args: [...target.args],
    env: { ...target.env },
    download,
    summary: `download ${target.archive} (${checksum}) into ${installDir}, then run ${commandLine(command, target.args)}`,
  };
}

/** How an agent installed from the registry is remembered in `symposium.agents` (its `registry` field). */
export const registryTag = (agent: Pick<RegistryAgent, 'id' | 'version'>): string => `${agent.id}@${agent.version}`;

/** The `symposium.agents` entry for a resolved registry agent. */
export function agentSettingFor(
  agent: RegistryAgent,
  plan: LaunchPlan,
): { command: string; args: string[]; env: Record<string, string>; registry: string } {
  return { command: plan.command, args: plan.args, env: plan.env, registry: registryTag(agent) };
}

/**
 * The symposium.proxies name of a registry proxy: its id (a valid proxy name), or, when one of the
 * user's own proxies (not an earlier version of this one) has it, `<id>-registry`.
 */
export function proxyNameFor(proxy: Pick<RegistryAgent, 'id'>, tags: Record<string, string>, existing: readonly ProxyDefinition[]): string {
  const taken = existing.some((p) => p.name === proxy.id) || tags[proxy.id] !== undefined;
  return taken && !tags[proxy.id]?.startsWith(`${proxy.id}@`) ? `${proxy.id}-registry` : proxy.id;
}
