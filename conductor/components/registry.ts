// Every component the conductor knows, by the name used in `--components`.
import type { ComponentFactory } from '../chain/component';
import { crateSourcesFactory } from './crate-sources/component';
import { fsAdapterFactory } from './fsAdapter';
import { passthroughFactory } from './passthrough';
import { symposiumInfoFactory } from './symposiumInfo';

export const componentRegistry: ReadonlyMap<string, ComponentFactory> = new Map(
  [symposiumInfoFactory, crateSourcesFactory, fsAdapterFactory, passthroughFactory].map((f) => [f.name, f]),
);

/** Used when `--components` is not given. */
export const DEFAULT_COMPONENTS = ['symposium-info', 'crate-sources', 'fs-adapter'];
