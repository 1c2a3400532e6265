// Capability-driven assembly: the chain depends on what the editor can do. At `initialize` the
// conductor reads the editor's capabilities and builds the chain: every enabled component is
// included; an adapter only when the editor lacks the capability it supplies.
import type { Component, ComponentFactory } from './component';

export interface Assembly {
  components: Component[];
  skipped: { name: string; reason: string }[];
}

export function assembleChain(
  enabled: readonly string[],
  registry: ReadonlyMap<string, ComponentFactory>,
  clientCapabilities: Record<string, unknown>,
): Assembly {
  const components: Component[] = [];
  const skipped: Assembly['skipped'] = [];
  for (const name of enabled) {
    const factory = registry.get(name);
    if (!factory) {
      skipped.push({ name, reason: 'unknown component' });
      continue;
    }
    if (factory.kind === 'adapter' && factory.providedUpstream?.(clientCapabilities)) {
      skipped.push({ name, reason: 'the editor already provides this capability' });
      continue;
    }
    components.push(factory.create());
  }
  return { components, skipped };
}
