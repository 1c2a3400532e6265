// Every component the conductor knows, by the name used in `--components`.
import type { ComponentFactory } from '../chain/component';
import { crateSourcesFactory } from './crate-sources/component';
import { fsAdapterFactory } from './fsAdapter';
import { mcpOverAcpFactory } from './external-proxy/mcpOverAcp';
import { ideLspFactory, defaultIdeLspOptions } from './ide-lsp/component';
import type { LanguageServerSpec } from './ide-lsp/servers';
import { ideOperationsFactory } from './ide-operations/component';
import { openctxFactory } from './openctx/component';
import { passthroughFactory } from './passthrough';
import { sparkleFactory } from './sparkle/component';
import type { SparkleOptions } from './sparkle/options';
import { symposiumInfoFactory } from './symposiumInfo';

export const componentRegistry: ReadonlyMap<string, ComponentFactory> = new Map(
  [
    symposiumInfoFactory,
    sparkleFactory(),
    crateSourcesFactory,
    fsAdapterFactory,
    ideLspFactory(),
    ideOperationsFactory,
    passthroughFactory,
    mcpOverAcpFactory,
    openctxFactory,
  ].map((f) => [f.name, f]),
);

/**
 * Used when `--components` is not given. Adapters sit upstream of the components that rely on
 * them (seed: "Adapters sit closer to the editor"); ide-operations stays nearest the agent, with
 * its adapter ide-lsp (language servers, only when the editor does not answer IDE operations)
 * right before it. Sparkle sits upstream of crate-sources, so the
 * research sessions crate-sources opens on the agent never reach it (nor get embodied). openctx
 * injects its server only into sessions the editor configured providers for.
 */
export const DEFAULT_COMPONENTS = ['symposium-info', 'sparkle', 'crate-sources', 'fs-adapter', 'openctx', 'ide-lsp', 'ide-operations'];

/** Settings some components take from the conductor's command line (cli.ts). */
export interface ComponentOptions {
  sparkle?: Partial<SparkleOptions>;
  /** The language-server table with `--language-servers FILE` applied. */
  languageServers?: LanguageServerSpec[];
}

/** The registry with the components that take options configured from `options`. */
export function componentRegistryWith(options: ComponentOptions): ReadonlyMap<string, ComponentFactory> {
  return new Map([
    ...componentRegistry,
    ['sparkle', sparkleFactory(options.sparkle)],
    ...(options.languageServers ? [['ide-lsp', ideLspFactory(defaultIdeLspOptions(options.languageServers))] as const] : []),
  ]);
}
