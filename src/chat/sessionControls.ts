// The tab's pickers (modes, config options such as the model, and the older `models`) → the ACP
// calls that change them. Returns what changed, so the host can tell the webview once the agent
// agreed (an agent that refuses leaves the picker where it was). vscode-free.
import type { AgentActor } from '../agents/agentActor';
import type { SessionControls, SetConfigOption, SetMode, SetModel } from '../protocol/webview';

export type ControlChange = SetMode | SetConfigOption | SetModel;

export async function changeSessionControl(
  actor: AgentActor,
  sessionId: string,
  m: ControlChange,
  current: SessionControls,
): Promise<SessionControls> {
  switch (m.type) {
    case 'set-mode': {
      await actor.setMode(sessionId, m.modeId);
      const modes = current.modes;
      return modes ? { modes: { ...modes, currentModeId: m.modeId } } : {};
    }
    case 'set-config-option':
      return { configOptions: await actor.setConfigOption(sessionId, m.configId, m.value) };
    case 'set-model': {
      await actor.setModel(sessionId, m.modelId);
      const models = current.models;
      return models ? { models: { ...models, currentModelId: m.modelId } } : {};
    }
  }
}

/** Folds an agent's own update about its pickers into the host's copy. */
export function applyControlUpdate(
  current: SessionControls,
  update: { sessionUpdate: string; currentModeId?: string; configOptions?: SessionControls['configOptions'] },
): void {
  if (update.sessionUpdate === 'current_mode_update' && current.modes && update.currentModeId) {
    current.modes = { ...current.modes, currentModeId: update.currentModeId };
  }
  if (update.sessionUpdate === 'config_option_update' && update.configOptions) current.configOptions = update.configOptions;
}
