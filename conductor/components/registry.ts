// Every component the conductor knows, by the name used in `--components`.
//
// A component's code loads only when a chain uses it: each entry is a dynamic import, which
// esbuild keeps in the one bundle but evaluates only when called. Most components serve MCP
// (the MCP SDK, zod and ajv come with them), and evaluating all of that at start was about half
// of the conductor's start-up time; loading only what `--components` names, after the agent has
// been spawned (cli.ts), lets the agent's own start-up run meanwhile (cold start, idle
// memory). Names are known without loading anything, for validating the command line.
import type { ComponentFactory } from '../chain/component';
import type { LanguageServerSpec } from './ide-lsp/servers';
import type { SparkleOptions } from './sparkle/options';
import type { OpenCtxSessionConfig } from '../../src/protocol/openctx';

/** Settings some components take from the conductor's command line (cli.ts). */
export interface ComponentOptions {
  sparkle?: Partial<SparkleOptions>;
  /** The language-server table with `--language-servers FILE` applied. */
  languageServers?: LanguageServerSpec[];
  /** `--allow-workspace-language-servers`: the ide-lsp adapter may run the workspace's own servers and TypeScript. */
  allowWorkspaceLanguageServers?: boolean;
  /** OpenCtx providers for sessions whose setup names none (the standalone command's configuration file). */
  openctx?: OpenCtxSessionConfig;
}

type Loader = (options: ComponentOptions) => Promise<ComponentFactory>;

const LOADERS = {
  'symposium-info': async () => (await import('./symposiumInfo')).symposiumInfoFactory,
  sparkle: async (o) => (await import('./sparkle/component')).sparkleFactory(o.sparkle),
  'crate-sources': async () => (await import('./crate-sources/component')).crateSourcesFactory,
  'fs-adapter': async () => (await import('./fsAdapter')).fsAdapterFactory,
  'ide-lsp': async (o) => {
    const { ideLspFactory, defaultIdeLspOptions } = await import('./ide-lsp/component');
    return ideLspFactory(defaultIdeLspOptions(o.languageServers, process.env, o.allowWorkspaceLanguageServers === true));
  },
  'ide-operations': async () => (await import('./ide-operations/component')).ideOperationsFactory,
  passthrough: async () => (await import('./passthrough')).passthroughFactory,
  'mcp-over-acp': async () => (await import('./external-proxy/mcpOverAcp')).mcpOverAcpFactory,
  openctx: async (o) => (await import('./openctx/component')).openctxFactory(o.openctx),
  'agent-quirks': async () => (await import('./agentQuirks')).agentQuirksFactory,
} as const satisfies Record<string, Loader>;

type ComponentName = keyof typeof LOADERS;

/** The names of the built-in components (nothing is loaded to list them). */
export const COMPONENT_NAMES: readonly string[] = Object.keys(LOADERS);

/** What each component does for the user, one line each (`symposium-acp --help`); the compiler keeps it complete. */
export const COMPONENT_SUMMARIES: Readonly<Record<ComponentName, string>> = {
  'symposium-info': 'the symposium MCP server: the chain and its version, for the agent to ask',
  sparkle: 'a persistent collaborator identity and memory (~/.sparkle), embodied at the start of each session',
  'crate-sources': 'rust_crate_query: a Rust crate researched from its sources, in a session of its own',
  'fs-adapter': 'file reads and writes in the session folder when the editor offers none (adapter)',
  'ide-lsp': 'IDE operations from language servers on PATH when the editor answers none (adapter)',
  'ide-operations': 'the ide MCP tools: definitions, references, hover, symbols, diagnostics, search',
  passthrough: 'forwards everything unchanged (for testing a chain)',
  'mcp-over-acp': 'MCP servers that proxies declare over ACP, made reachable by the agent (placed with proxies)',
  openctx: 'the openctx MCP tools, answered by the OpenCtx providers configured (openctx.providers)',
  'agent-quirks': 'smooths over the known protocol quirks of particular agents',
};

/**
 * Used when `--components` is not given. Adapters sit upstream of the components that rely on
 * them (seed: "Adapters sit closer to the editor"); ide-operations stays nearest the agent, with
 * its adapter ide-lsp (language servers, only when the editor does not answer IDE operations)
 * right before it. Sparkle sits upstream of crate-sources, so the
 * research sessions crate-sources opens on the agent never reach it (nor get embodied). openctx
 * injects its server only into sessions the editor configured providers for. agent-quirks sits
 * nearest the agent: it changes only what one particular agent sees.
 */
export const DEFAULT_COMPONENTS = [
  'symposium-info',
  'sparkle',
  'crate-sources',
  'fs-adapter',
  'openctx',
  'ide-lsp',
  'ide-operations',
  'agent-quirks',
];

/**
 * Loads the factories of `names` and of the adapters they rely on (`adapters`), configured from
 * `options`. Names that are not built-in components are left out: assembly reports them.
 */
export async function loadComponents(names: readonly string[], options: ComponentOptions = {}): Promise<Map<string, ComponentFactory>> {
  const loading = new Map<string, Promise<void>>();
  const factories = new Map<string, ComponentFactory>();
  const load = (name: string): Promise<void> => {
    const loader = (LOADERS as Readonly<Record<string, Loader>>)[name];
    if (!loader || loading.has(name)) return loading.get(name) ?? Promise.resolve();
    const done = loader(options).then(async (factory) => {
      factories.set(name, factory);
      await Promise.all((factory.adapters ?? []).map(load));
    });
    loading.set(name, done);
    return done;
  };
  await Promise.all(names.map(load));
  return factories;
}
