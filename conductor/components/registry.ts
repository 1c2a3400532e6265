// Every component the conductor knows, by the name used in `--components`.
import type { ComponentFactory } from '../chain/component';
import { crateSourcesFactory } from './crate-sources/component';
import { fsAdapterFactory } from './fsAdapter';
import { ideOperationsFactory } from './ide-operations/component';
import { passthroughFactory } from './passthrough';
import { symposiumInfoFactory } from './symposiumInfo';

export const componentRegistry: ReadonlyMap<string, ComponentFactory> = new Map(
  [symposiumInfoFactory, crateSourcesFactory, fsAdapterFactory, ideOperationsFactory, passthroughFactory].map((f) => [f.name, f]),
);

/**
 * Used when `--components` is not given. Adapters sit upstream of the components that rely on
 * them (seed: "Adapters sit closer to the editor"); ide-operations stays nearest the agent, so
 * an IDE adapter (next issue) goes right before it.
 */
export const DEFAULT_COMPONENTS = ['symposium-info', 'crate-sources', 'fs-adapter', 'ide-operations'];
