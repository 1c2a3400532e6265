// What VS Code's confirmation says before a `symposium-agent-action` runs: the action, its input,
// and what approving or declining selects among the agent's own options. An approval selects a
// once option; when the agent offers only an "always" one, the confirmation says so, since that
// answer covers later requests too. vscode-free, so a plain spec reads the text.
import type { AgentActionInput, AgentActionOption } from '../protocol/lm';
import { fenced } from '../protocol/markdown';

export interface AgentActionConfirmation {
  invocationMessage: string;
  title: string;
  /** Markdown. */
  message: string;
}

const ALWAYS: Record<string, string> = {
  allow_always: 'the agent may not ask again before such actions',
  reject_always: 'the agent may not offer such actions again',
};

function choiceLine(verb: 'Approving' | 'Declining', option: AgentActionOption | undefined): string | undefined {
  if (!option) return verb === 'Approving' ? 'The agent offers no option that allows this: approving answers it "cancelled".' : undefined;
  const always = ALWAYS[option.kind];
  if (!always) return undefined;
  return `**${verb} selects the agent's only ${verb === 'Approving' ? 'approval' : 'refusal'} option, "${option.name}" (${option.kind}): ${always}.**`;
}

export function agentActionConfirmation(input: AgentActionInput): AgentActionConfirmation {
  const { kind, title, raw_input } = input;
  const notes = [choiceLine('Approving', input.approve_option), choiceLine('Declining', input.reject_option)].filter(
    (l): l is string => l !== undefined,
  );
  const details = raw_input === undefined ? '' : `\n\n${fenced(JSON.stringify(raw_input, null, 2), 'json')}`;
  return {
    invocationMessage: `Agent action: ${title}`,
    title: `Allow the agent to ${kind}?`,
    message: `**${title}** (${kind})${details}${notes.map((n) => `\n\n${n}`).join('')}`,
  };
}
