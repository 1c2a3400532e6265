// Which mode a session is in, from the pickers the agent described (SessionControls). ACP has two
// forms of the mode picker: the older `modes` list and a config option of category `mode`; an
// agent that offers the option means that one (the chat shows only it). Pure; shared by the host's
// history (it keeps a conversation's mode) and its chat (it chooses that mode again).
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { SessionControls } from './webview';

/** The mode picker in its newer form, a select config option of category `mode`, if there is one. */
export function modeOption(c: SessionControls | undefined): SessionConfigOption | undefined {
  return c?.configOptions?.find((o) => o.category === 'mode' && o.type === 'select');
}

/** Whether a select option offers `value` (in a group or not). */
export function offersValue(option: SessionConfigOption, value: string): boolean {
  if (option.type !== 'select') return false;
  return option.options.some((entry) => ('group' in entry ? entry.options.some((x) => x.value === value) : entry.value === value));
}

/** The session's mode as its picker shows it: the mode option's value, else the mode's id. */
export function currentMode(c: SessionControls | undefined): string | undefined {
  const option = modeOption(c);
  if (option) return String(option.currentValue);
  return c?.modes?.currentModeId ?? undefined;
}

/** A mode's name as the picker shows it (its id when the agent does not offer it). */
export function modeName(c: SessionControls | undefined, id: string): string {
  const option = modeOption(c);
  if (option?.type === 'select') {
    for (const entry of option.options) {
      const found = 'group' in entry ? entry.options.find((x) => x.value === id) : entry.value === id ? entry : undefined;
      if (found) return found.name;
    }
    return id;
  }
  return c?.modes?.availableModes.find((m) => m.id === id)?.name ?? id;
}
