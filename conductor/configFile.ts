// The configuration file of the npm package's `symposium-acp` (never of the extension's conductor,
// which gets every setting as a flag): `$SYMPOSIUM_CONFIG`, else `$XDG_CONFIG_HOME/symposium/
// config.json`, else `~/.config/symposium/config.json`. An editor's agent entry can then stay one
// line. Its keys are the VS Code settings' names (a user copies them over from settings.json), and
// each becomes the flag the extension would pass for that setting, placed before the command
// line's own flags so that those override it. Every key is checked on its own, by the same parser
// as its flag, so an error names the file and the key.
//
// It is the user's own file: what it names (proxies, language servers, OpenCtx module providers)
// runs, as it would from the user's own command line. A file in the folder the editor started us in
// (the workspace) is never read: a relative `$SYMPOSIUM_CONFIG` is refused rather than resolved
// against it.
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { readRegularFileText } from '../src/node/containedFile';
import { parseProviderSettings } from '../src/node/openctxClient';
import { isObject } from '../src/protocol/guards';
import type { OpenCtxSessionConfig } from '../src/protocol/openctx';
import { UsageError } from './roles';
import { errorText } from '../src/protocol/errorText';

export const CONFIG_ENV_VAR = 'SYMPOSIUM_CONFIG';
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The keys the file may hold, and the flag each becomes (see KEY_FLAGS). */
export const CONFIG_KEYS = [
  'symposium.enabledComponents',
  'symposium.proxies',
  'symposium.languageServers',
  'symposium.languageServers.allowWorkspaceBinaries',
  'symposium.sparkle.sparkler',
  'symposium.sparkle.mode',
  'symposium.sparkle.checkpointEvery',
  'symposium.openctx.enabled',
  'openctx.providers',
  'symposium.traceDir',
  'symposium.logLevel',
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export const CONFIG_FILE_HELP = [
  'Configuration file (JSON; flags override it):',
  `  $${CONFIG_ENV_VAR} (an absolute path), else $XDG_CONFIG_HOME/symposium/config.json, else ~/.config/symposium/config.json.`,
  "  Keys, as VS Code's settings name them:",
  ...CONFIG_KEYS.map((k) => `    ${k}`),
  '  e.g. {"symposium.enabledComponents": ["sparkle", "ide-operations"], "symposium.sparkle.mode": "core",',
  '        "symposium.proxies": {"my-proxy": {"command": "node", "args": ["/path/to/proxy.js"]}}}',
].join('\n');

export interface ConfigFileSettings {
  /** The file read, when there was one. */
  file?: string;
  /** Flags for the proxy's command line, by the key they come from, to go before the command line's own. */
  flags: { key: ConfigKey; flags: string[] }[];
  /** OpenCtx providers for every session (the openctx component), from `openctx.providers`. */
  openctx?: OpenCtxSessionConfig;
}

/** Where the configuration file is, and whether it must exist (it must when named by the variable). */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): { path: string; required: boolean } {
  const named = env[CONFIG_ENV_VAR];
  if (named !== undefined && named !== '') {
    if (!isAbsolute(named)) throw new UsageError(`${CONFIG_ENV_VAR} must be an absolute path, not "${named}"`);
    return { path: named, required: true };
  }
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return { path: join(base, 'symposium', 'config.json'), required: false };
}

/** Reads and checks the configuration file; no file at the default place is no configuration. */
export async function readConfigFile(env: NodeJS.ProcessEnv = process.env): Promise<ConfigFileSettings> {
  const { path, required } = configFilePath(env);
  let text: string;
  try {
    // The user's own file: a link to it (a dotfiles manager's) is followed.
    text = (await readRegularFileText(path, { maxBytes: MAX_CONFIG_BYTES, followFinalLink: true })).text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !required) return { flags: [] };
    throw new UsageError(`cannot read the configuration file ${path}: ${errorText(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${path} is not JSON: ${errorText(err)}`);
  }
  if (!isObject(parsed)) throw new UsageError(`${path} must hold a JSON object of settings`);
  return settingsOf(parsed, path);
}

function settingsOf(config: Record<string, unknown>, file: string): ConfigFileSettings {
  const fail = (key: string, message: string): never => {
    throw new UsageError(`${file}: "${key}" ${message}`);
  };
  for (const key of Object.keys(config))
    if (!(CONFIG_KEYS as readonly string[]).includes(key))
      fail(key, `is not a setting symposium-acp reads; it reads ${CONFIG_KEYS.join(', ')}`);
  const value = (key: ConfigKey): unknown => config[key] ?? undefined;
  const flags: ConfigFileSettings['flags'] = [];
  for (const key of CONFIG_KEYS) {
    const v = value(key);
    if (v === undefined || v === null) continue;
    const keyFlags = KEY_FLAGS[key](v, (message) => fail(key, message));
    if (keyFlags.length) flags.push({ key, flags: keyFlags });
  }
  let openctx: OpenCtxSessionConfig | undefined;
  if (value('symposium.openctx.enabled') !== false && value('openctx.providers') !== undefined) {
    // No workspace folder: a `./relative` module (workspace code) is refused.
    const { providers, problems } = parseProviderSettings(value('openctx.providers'));
    if (problems.length) fail('openctx.providers', problems.join('; '));
    if (providers.length) openctx = { providers, allowModules: true };
  }
  return { file, flags, ...(openctx ? { openctx } : {}) };
}

type Fail = (message: string) => never;
const str = (v: unknown, fail: Fail): string => (typeof v === 'string' ? v : fail('must be a string'));

/** Each key's flags; the values are checked again, with the flag's own rules, by the command-line parser. */
const KEY_FLAGS: Readonly<Record<ConfigKey, (v: unknown, fail: Fail) => string[]>> = {
  'symposium.enabledComponents': (v, fail) =>
    Array.isArray(v) && v.every((c) => typeof c === 'string') ? ['--components', v.join(',')] : fail('must be a list of component names'),
  'symposium.proxies': (v, fail) => {
    if (!isObject(v)) return fail('must be an object of proxy names to {command, args, env}');
    return Object.entries(v).flatMap(([name, def]) =>
      isObject(def) ? ['--proxy', JSON.stringify({ ...def, name })] : fail(`.${name} must be {command, args, env}`),
    );
  },
  'symposium.languageServers': (v, fail) =>
    isObject(v) ? ['--language-servers', JSON.stringify(v)] : fail('must be an object of languages'),
  'symposium.languageServers.allowWorkspaceBinaries': (v, fail) =>
    typeof v === 'boolean' ? (v ? ['--allow-workspace-language-servers'] : []) : fail('must be true or false'),
  'symposium.sparkle.sparkler': (v, fail) => ['--sparkle-sparkler', str(v, fail)],
  'symposium.sparkle.mode': (v, fail) => ['--sparkle-mode', str(v, fail)],
  'symposium.sparkle.checkpointEvery': (v, fail) => [
    '--sparkle-checkpoint-every',
    typeof v === 'number' ? String(v) : fail('must be a number'),
  ],
  'symposium.openctx.enabled': (v, fail) => (typeof v === 'boolean' ? [] : fail('must be true or false')),
  'openctx.providers': (v, fail) => (isObject(v) ? [] : fail('must be an object of provider URI to settings')),
  'symposium.traceDir': (v, fail) => {
    const dir = str(v, fail);
    const expanded = dir === '~' ? homedir() : dir.startsWith('~/') ? join(homedir(), dir.slice(2)) : dir;
    return isAbsolute(expanded) ? ['--trace-dir', expanded] : fail('must be an absolute path (or start with ~/)');
  },
  'symposium.logLevel': (v, fail) => ['--log', str(v, fail)],
};
