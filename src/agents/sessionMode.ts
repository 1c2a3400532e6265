// Choosing a session's mode again after the session began anew (a fork, a resume, a load): agents
// start those in their default mode, not the one the user chose for the conversation.
import type { SessionControls } from '../protocol/webview';
import type { Log } from '../log/logEvent';
import { errorText } from '../protocol/errorText';
import { currentMode, modeName, modeOption, offersValue } from '../protocol/sessionMode';
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

/**
 * Chooses `wanted` again in a session that began in another mode, logging what happened. Returns
 * the warning the tab shows when the session stays in another mode (the agent no longer offers
 * `wanted`, or refused it); undefined when it is in `wanted`, or has no modes at all.
 */
export async function keepMode(p: {
  actor: Pick<AgentActor, 'setMode' | 'setConfigOption' | 'agentName'>;
  sessionId: string;
  controls: SessionControls;
  wanted: string;
  log: Log;
}): Promise<string | undefined> {
  const { actor, sessionId, controls, wanted, log } = p;
  const began = currentMode(controls);
  if (began === undefined || began === wanted) return undefined;
  let why: string;
  try {
    if (await chooseModeAgain(actor, sessionId, controls, wanted)) {
      log.info('session', 'chose the mode again', { sessionId, mode: wanted, agentBeganIn: began });
      return undefined;
    }
    why = 'the agent does not offer that mode now';
  } catch (e) {
    why = `choosing it failed (${errorText(e)})`;
  }
  log.warn('session', 'the session stays in another mode', { sessionId, wanted, mode: currentMode(controls), why });
  const now = modeName(controls, currentMode(controls) ?? began);
  return `${actor.agentName} continued in its mode "${now}", not "${modeName(controls, wanted)}" as before: ${why}. Choose the mode under the prompt before you go on.`;
}
