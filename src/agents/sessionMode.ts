// Choosing a session's mode again after the session began anew (a fork, a resume, a load): agents
// start those in their default mode, not the one the user chose for the conversation.
import type { SessionControls } from '../protocol/webview';
import { currentMode, modeOption, offersValue } from '../protocol/sessionMode';
import type { AgentActor } from './agentActor';

/**
 * Chooses `wanted` in a session that began (new, forked, resumed or loaded) in another mode, when
 * the agent offers it; `controls` is updated to what the agent then says. Agents start a session in
 * their default mode, often one that asks less (claude-agent-acp's "auto", Qwen Code's Auto), so a
 * user who chose to be asked is asked again. Returns whether the session is now in `wanted`.
 */
export async function chooseModeAgain(
  actor: Pick<AgentActor, 'setMode' | 'setConfigOption'>,
  sessionId: string,
  controls: SessionControls,
  wanted: string,
): Promise<boolean> {
  if (currentMode(controls) === wanted) return true;
  const option = modeOption(controls);
  if (option) {
    if (!offersValue(option, wanted)) return false;
    controls.configOptions = await actor.setConfigOption(sessionId, option.id, wanted);
    return currentMode(controls) === wanted;
  }
  if (!controls.modes?.availableModes.some((m) => m.id === wanted)) return false;
  await actor.setMode(sessionId, wanted);
  controls.modes = { ...controls.modes, currentModeId: wanted };
  return true;
}
