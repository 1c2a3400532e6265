// Proxy mode's command line:
//   conductor [--trace-dir D] [--log LEVEL] [--components a,b] [--proxy '<command line>']… [--language-servers FILE|JSON] [--allow-workspace-language-servers] [--sparkle-* …] -- <agent command> [args…]
import { Conductor } from './conductor';
import type { ComponentFactory } from './chain/component';
import { externalProxyFactory } from './components/external-proxy/externalProxy';
import { placeProxies } from './components/external-proxy/placement';
import { parseProxyOption, uniqueNames, type ProxySpec } from './components/external-proxy/proxySpec';
import { teeTrace, TracePipe, TraceWriter, type TraceSink } from './trace';
import { COMPONENT_NAMES, DEFAULT_COMPONENTS, loadComponents } from './components/registry';
import { applySparkleFlag, isSparkleFlag, type SparkleOptions } from './components/sparkle/options';
import { readLanguageServersOption, type LanguageServerSpec } from './components/ide-lsp/servers';
import { createLogger, isLogLevel, type LogLevel } from './log';
import { takeStartupEnv, takeTraceFd } from './startupEnv';
import { readConfigFile, type ConfigFileSettings } from './configFile';
import type { ConductorMode } from './main';
import { UsageError } from './roles';
import type { OpenCtxSessionConfig } from '../src/protocol/openctx';
import { errorText } from '../src/protocol/errorText';

export { helpText } from './help';

export interface ProxyArgs {
  traceDir?: string;
  logLevel: LogLevel;
  components: string[];
  agentCommand: string;
  agentArgs: string[];
  /** The `--sparkle-*` flags given (the Sparkle component's settings). */
  sparkle: Partial<SparkleOptions>;
  /** External proxy processes (`--proxy`), in the order given; placed into `components` by name. */
  proxies: ProxySpec[];
  /** The language-server table with the `--language-servers` map applied (ide-lsp adapter). */
  languageServers?: LanguageServerSpec[];
  /** `--allow-workspace-language-servers`: the session folder's node_modules/.bin and TypeScript may run (off by default). */
  allowWorkspaceLanguageServers: boolean;
  /** OpenCtx providers for every session (standalone: the configuration file's `openctx.providers`). */
  openctx?: OpenCtxSessionConfig;
}

/** Ends a command-line error: the help has every flag. */
const SEE_HELP = ' (--help lists every flag)';

/** Parses the proxy's command line; a mistake is a UsageError (one line, no stack). */
export function parseProxyArgs(argv: readonly string[]): ProxyArgs {
  try {
    return parseArgs(argv);
  } catch (err) {
    throw err instanceof UsageError ? err : new UsageError(errorText(err));
  }
}

function parseArgs(argv: readonly string[]): ProxyArgs {
  const sep = argv.indexOf('--');
  if (sep < 0 || sep === argv.length - 1) throw new Error(`missing "-- <agent command>"${SEE_HELP}`);
  const own = argv.slice(0, sep);
  const [agentCommand, ...agentArgs] = argv.slice(sep + 1) as [string, ...string[]];
  const args: ProxyArgs = {
    logLevel: 'info',
    components: DEFAULT_COMPONENTS,
    agentCommand,
    agentArgs,
    sparkle: {},
    proxies: [],
    allowWorkspaceLanguageServers: false,
  };
  let componentsGiven = false;
  for (let i = 0; i < own.length; i++) {
    const flag = own[i];
    const value = own[i + 1];
    const need = (): string => {
      if (value === undefined) throw new Error(`${flag} needs a value${SEE_HELP}`);
      i++;
      return value;
    };
    switch (flag) {
      case '--trace-dir':
        args.traceDir = need();
        break;
      case '--log': {
        const level = need();
        if (!isLogLevel(level)) throw new Error(`unknown log level "${level}"`);
        args.logLevel = level;
        break;
      }
      case '--components': {
        args.components = need()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        componentsGiven = true;
        break;
      }
      case '--proxy':
        args.proxies.push(parseProxyOption(need()));
        break;
      case '--language-servers':
        args.languageServers = readLanguageServersOption(need());
        break;
      case '--allow-workspace-language-servers':
        args.allowWorkspaceLanguageServers = true;
        break;
      default:
        if (flag !== undefined && isSparkleFlag(flag)) {
          applySparkleFlag(args.sparkle as SparkleOptions, flag, need());
          break;
        }
        throw new Error(`unknown option "${String(flag)}"${SEE_HELP}`);
    }
  }
  args.proxies = uniqueNames(args.proxies, new Set(COMPONENT_NAMES));
  const known = new Set([...COMPONENT_NAMES, ...args.proxies.map((p) => p.name)]);
  const unknown = args.components.filter((c) => !known.has(c));
  if (unknown.length) throw new Error(`unknown component(s): ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  args.components = placeProxies(args.components, args.proxies, componentsGiven);
  return args;
}

/**
 * The configuration file's flags before the command line's own (so those override them), each
 * key's flags checked alone by the command-line parser so that an error names the file and the
 * key. A proxy the command line names again is the command line's.
 */
export function withConfigFlags(config: ConfigFileSettings, argv: readonly string[]): string[] {
  const sep = argv.indexOf('--');
  const own = sep < 0 ? argv : argv.slice(0, sep);
  const ownProxyFlags = own.flatMap((flag, i) => (flag === '--proxy' && own[i + 1] !== undefined ? ['--proxy', own[i + 1]!] : []));
  const ownProxies = new Set(ownProxyFlags.filter((_, i) => i % 2 === 1).map(proxyNameOf));
  // Every proxy, the file's and the command line's: a proxy's name is a place in the chain.
  const proxyFlags = [...config.flags.filter((g) => g.key === 'symposium.proxies').flatMap((g) => g.flags), ...ownProxyFlags];
  const flags: string[] = [];
  for (const group of config.flags) {
    // A proxy's flags are pairs (`--proxy`, its JSON).
    const groupFlags =
      group.key === 'symposium.proxies'
        ? group.flags.filter((_, i, all) => !ownProxies.has(proxyNameOf(all[i % 2 === 0 ? i + 1 : i]!)))
        : group.flags;
    try {
      // Component names are checked together with the proxies.
      parseArgs([...(group.key === 'symposium.enabledComponents' ? proxyFlags : []), ...groupFlags, '--', 'agent']);
    } catch (err) {
      throw new UsageError(`${config.file}: "${group.key}": ${errorText(err).split('\n')[0]}`);
    }
    flags.push(...groupFlags);
  }
  return [...flags, ...argv];
}

function proxyNameOf(value: string): string {
  try {
    return parseProxyOption(value).name;
  } catch {
    return '';
  }
}

export async function runProxyCli(argv: string[], mode: ConductorMode = 'editor'): Promise<void> {
  // Only the package's own command reads the user's file; the extension passes every setting as a flag.
  const config = mode === 'standalone' ? await readConfigFile(process.env) : undefined;
  const args = parseProxyArgs(config ? withConfigFlags(config, argv) : argv);
  if (config?.openctx) args.openctx = config.openctx;
  const { agentEnv, proxyEnv } = takeStartupEnv(process.env);
  const log = createLogger(args.logLevel);
  const proxies: [string, ComponentFactory][] = args.proxies.map((spec) => [
    spec.name,
    externalProxyFactory({ ...spec, env: { ...spec.env, ...proxyEnv[spec.name] } }, log),
  ]);
  const sinks: TraceSink[] = [];
  if (args.traceDir) {
    const file = new TraceWriter(args.traceDir, (err) => log.warn(`the protocol trace file failed; not tracing to it: ${err.message}`));
    log.info(`tracing to ${file.path}`);
    sinks.push(file);
  }
  const traceFd = takeTraceFd(process.env);
  if (traceFd !== undefined)
    sinks.push(
      new TracePipe(
        traceFd,
        (err) => log.warn(`the editor's trace pipe failed; not tracing to it: ${err.message}`),
        (message) => log.warn(message),
      ),
    );
  const trace = teeTrace(sinks);
  const script = process.argv[1];
  if (!script) throw new Error('cannot tell the conductor script path');
  const conductor = new Conductor({
    agentCommand: args.agentCommand,
    agentArgs: args.agentArgs,
    agentEnv,
    components: args.components,
    // Loaded while the agent starts: the modules evaluate after start() below has spawned it.
    registry: loadComponents(args.components, {
      sparkle: args.sparkle,
      ...(args.languageServers ? { languageServers: args.languageServers } : {}),
      allowWorkspaceLanguageServers: args.allowWorkspaceLanguageServers,
      ...(args.openctx ? { openctx: args.openctx } : {}),
    }).then((builtIn) => new Map([...builtIn, ...proxies])),
    log,
    trace,
    // How the MCP stdio shim re-runs this very file; ELECTRON_RUN_AS_NODE lets Electron's
    // binary (desktop VS Code's process.execPath) act as plain Node.
    self: { command: process.execPath, args: [script], env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }] },
    input: process.stdin,
    output: process.stdout,
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void conductor.stop(`received ${signal}`, 0));
  conductor.start();
  process.exitCode = await conductor.done;
  // Injected MCP listeners and timers must not keep a finished conductor alive.
  setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
}
