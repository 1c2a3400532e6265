// Choose Agent… (docs/agents.md): agents from the ACP registry (bundled + symposium.registry.urls)
// next to the user's own. The picker's code is loaded the first time it opens (lazyPicker.ts).
import * as vscode from 'vscode';
import type { ExtensionCore } from '../../activation/core';
import { CHOOSE_AGENT_COMMAND, LazyAgentPicker } from './lazyPicker';

export function registerAgentRegistry(core: ExtensionCore): LazyAgentPicker {
  const picker = new LazyAgentPicker(core.context.extensionPath, {
    log: core.log,
    runtime: core.runtime,
    settings: core.settings,
    storageDir: core.context.globalStorageUri.fsPath,
  });
  core.context.subscriptions.push(vscode.commands.registerCommand(CHOOSE_AGENT_COMMAND, () => picker.choose()));
  return picker;
}
