// "Choose Agent…" without loading the registry code at activation: out/registry.js
// (registryBundle.ts) is required the first time the picker opens.
import { requireBundle } from '../../node/lazyBundle';
import type { AgentPicker, AgentPickerDeps } from './agentPicker';

type RegistryBundle = typeof import('./registryBundle');

export const CHOOSE_AGENT_COMMAND = 'symposium.chooseAgent';

export class LazyAgentPicker {
  private picker: AgentPicker | undefined;

  constructor(
    private readonly extensionPath: string,
    private readonly deps: AgentPickerDeps,
  ) {}

  /** The labels the picker last offered, in order (none before it first opened). */
  get lastChoices(): string[] {
    return this.picker?.lastChoices ?? [];
  }

  /** What the last install confirmation showed (the command and each NAME=value, or the checksum warning). */
  get lastConfirmation(): string[] {
    return this.picker?.lastConfirmation ?? [];
  }

  choose(): Promise<void> {
    if (!this.picker) {
      const bundle = requireBundle<RegistryBundle>(this.extensionPath, 'registry');
      this.picker = new bundle.AgentPicker(this.deps);
    }
    return this.picker.choose();
  }
}
