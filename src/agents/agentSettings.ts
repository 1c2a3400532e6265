// Parsing of the `symposium.*` settings into typed values. Settings are user-edited JSON, so every
// shape is checked and problems are reported instead of thrown. Pure.
import { BUILTIN_AGENT_NAME, builtinAgent, type AgentDefinition, type Runtime } from './agentConfiguration';

export interface RawSettings {
  agents: unknown;
  currentAgent: unknown;
  enabledComponents: unknown;
}

export interface AgentSettings {
  /** Every usable agent by name, the built-in one included. */
  agents: Record<string, AgentDefinition>;
  current: AgentDefinition;
  components: string[] | null;
  /** Human-readable reasons for ignored values. */
  problems: string[];
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string');

export function parseAgentSettings(raw: RawSettings, rt: Runtime): AgentSettings {
  const problems: string[] = [];
  const agents: Record<string, AgentDefinition> = { [BUILTIN_AGENT_NAME]: builtinAgent(rt) };
  if (raw.agents !== undefined && raw.agents !== null) {
    if (typeof raw.agents !== 'object' || Array.isArray(raw.agents)) problems.push('symposium.agents must be an object');
    else {
      for (const [name, def] of Object.entries(raw.agents as Record<string, unknown>)) {
        const d = def as { command?: unknown; args?: unknown; env?: unknown } | null;
        if (typeof d !== 'object' || d === null || typeof d.command !== 'string' || d.command.trim() === '') {
          problems.push(`symposium.agents.${name}: "command" must be a non-empty string`);
          continue;
        }
        if (d.args !== undefined && !isStringArray(d.args)) { problems.push(`symposium.agents.${name}: "args" must be a list of strings`); continue; }
        if (d.env !== undefined && !isStringRecord(d.env)) { problems.push(`symposium.agents.${name}: "env" must map names to strings`); continue; }
        agents[name] = { name, command: d.command, args: d.args ?? [], env: d.env ?? {} };
      }
    }
  }
  let current = agents[BUILTIN_AGENT_NAME]!;
  if (typeof raw.currentAgent === 'string' && raw.currentAgent !== '') {
    // Names match case-insensitively as a fallback ("elizacp" finds the built-in "ElizACP").
    const wanted = raw.currentAgent;
    const chosen = agents[wanted] ?? Object.values(agents).find((a) => a.name.toLowerCase() === wanted.toLowerCase());
    if (chosen) current = chosen;
    else problems.push(`symposium.currentAgent: no agent named "${raw.currentAgent}"; using ${BUILTIN_AGENT_NAME}`);
  }
  let components: string[] | null = null;
  if (raw.enabledComponents !== undefined && raw.enabledComponents !== null) {
    if (isStringArray(raw.enabledComponents)) components = raw.enabledComponents.map((s) => s.trim()).filter(Boolean);
    else problems.push('symposium.enabledComponents must be a list of component names');
  }
  return { agents, current, components, problems };
}
