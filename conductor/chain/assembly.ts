// Capability-driven assembly: the chain depends on what the editor can do. At `initialize` the
// conductor reads the editor's capabilities and builds the chain: every enabled component is
// included; an adapter only when the editor lacks the capability it supplies. A component may name
// the adapters it relies on (`adapters`): one not enabled explicitly is placed right before it
// (closer to the editor), under the same rule, so `--components ide-operations` in front of an
// editor without IDE support still gets its language-server adapter. A conductor may withhold
// components it must never place, whatever is enabled (vscodelm, inside VS Code, withholds the
// language-server fallback): they are skipped with the reason it gives. A component that fails to
// start is skipped too, with its error: the agent and the other components still serve.
import { errorText } from '../../src/protocol/errorText';
import type { Component, ComponentFactory } from './component';

export interface Assembly {
  components: Component[];
  skipped: { name: string; reason: string }[];
}

export function assembleChain(
  enabled: readonly string[],
  registry: ReadonlyMap<string, ComponentFactory>,
  clientCapabilities: Record<string, unknown>,
  /** Components never placed here, by name, with why. */
  withheld: ReadonlyMap<string, string> = new Map(),
): Assembly {
  const components: Component[] = [];
  const skipped: Assembly['skipped'] = [];
  const place = (name: string, pulledBy?: string): void => {
    const reason = withheld.get(name);
    if (reason !== undefined) {
      skipped.push({ name, reason });
      return;
    }
    const factory = registry.get(name);
    if (!factory) {
      skipped.push({ name, reason: pulledBy ? `unknown adapter named by ${pulledBy}` : 'unknown component' });
      return;
    }
    for (const adapter of factory.adapters ?? []) if (!enabled.includes(adapter)) place(adapter, name);
    if (factory.kind === 'adapter' && factory.providedUpstream?.(clientCapabilities)) {
      skipped.push({ name, reason: 'the editor already provides this capability' });
      return;
    }
    try {
      components.push(factory.create());
    } catch (e) {
      skipped.push({ name, reason: `could not start: ${errorText(e)}` });
    }
  };
  for (const name of enabled) place(name);
  return { components, skipped };
}
