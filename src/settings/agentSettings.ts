// Parsing of the `symposium.*` settings into typed values. Settings are user-edited JSON, so every
// shape is checked and problems are reported instead of thrown. Pure.
import { BUILTIN_AGENT_NAME, builtinAgent, type AgentDefinition, type Runtime } from './agentDefinition';
import { isObject } from '../protocol/guards';

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
  /** `symposium.currentAgent` when it names no configured agent (the built-in one runs instead). */
  missing?: string;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringRecord = (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((s) => typeof s === 'string');

export function parseAgentSettings(raw: RawSettings, rt: Runtime): AgentSettings {
  const problems: string[] = [];
  const agents: Record<string, AgentDefinition> = { [BUILTIN_AGENT_NAME]: builtinAgent(rt) };
  if (raw.agents !== undefined && raw.agents !== null) {
    if (typeof raw.agents !== 'object' || Array.isArray(raw.agents)) problems.push('symposium.agents must be an object');
    else {
      for (const [name, def] of Object.entries(raw.agents as Record<string, unknown>)) {
        const d = def as { command?: unknown; args?: unknown; env?: unknown } | null;
        // The built-in agent's entry may hold only permission settings.
        if (name === BUILTIN_AGENT_NAME && typeof d === 'object' && d !== null && d.command === undefined) continue;
        if (typeof d !== 'object' || d === null || typeof d.command !== 'string' || d.command.trim() === '') {
          problems.push(`symposium.agents.${name}: "command" must be a non-empty string`);
          continue;
        }
        if (d.args !== undefined && !isStringArray(d.args)) {
          problems.push(`symposium.agents.${name}: "args" must be a list of strings`);
          continue;
        }
        if (d.env !== undefined && !isStringRecord(d.env)) {
          problems.push(`symposium.agents.${name}: "env" must map names to strings`);
          continue;
        }
        agents[name] = { name, command: d.command, args: d.args ?? [], env: d.env ?? {} };
      }
    }
  }
  let current = agents[BUILTIN_AGENT_NAME]!;
  let missing: string | undefined;
  if (typeof raw.currentAgent === 'string' && raw.currentAgent !== '') {
    // Names match case-insensitively as a fallback ("elizacp" finds the built-in "ElizACP").
    const wanted = raw.currentAgent;
    const chosen = agents[wanted] ?? Object.values(agents).find((a) => a.name.toLowerCase() === wanted.toLowerCase());
    if (chosen) current = chosen;
    else {
      missing = wanted;
      problems.push(`symposium.currentAgent: no agent named "${raw.currentAgent}"; using ${BUILTIN_AGENT_NAME}`);
    }
  }
  let components: string[] | null = null;
  if (raw.enabledComponents !== undefined && raw.enabledComponents !== null) {
    if (isStringArray(raw.enabledComponents)) components = raw.enabledComponents.map((s) => s.trim()).filter(Boolean);
    else problems.push('symposium.enabledComponents must be a list of component names');
  }
  return { agents, current, components, problems, ...(missing !== undefined ? { missing } : {}) };
}

/** ACP tool kinds, the unit of per-agent auto-approval. */
const TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;
export type ToolKindName = (typeof TOOL_KINDS)[number];

/** What the user allowed an agent to do without asking (`symposium.agents.<name>`). */
export interface PermissionPolicy {
  /** Every request is approved with the agent's allow-once option (the approval card's "Bypass Permissions"). */
  bypassPermissions: boolean;
  /** Tool kinds approved without asking, e.g. ["read", "search"]. */
  autoApprove: ToolKindName[];
  problems: string[];
}

/** Reads the permission settings of one agent; read on every request, so edits apply at once. */
export function parsePermissionPolicy(rawAgents: unknown, agentName: string): PermissionPolicy {
  const policy: PermissionPolicy = { bypassPermissions: false, autoApprove: [], problems: [] };
  if (typeof rawAgents !== 'object' || rawAgents === null || Array.isArray(rawAgents)) return policy;
  const entry = (rawAgents as Record<string, unknown>)[agentName];
  if (typeof entry !== 'object' || entry === null) return policy;
  const { bypassPermissions, autoApprove } = entry as { bypassPermissions?: unknown; autoApprove?: unknown };
  if (bypassPermissions !== undefined) {
    if (typeof bypassPermissions === 'boolean') policy.bypassPermissions = bypassPermissions;
    else policy.problems.push(`symposium.agents.${agentName}.bypassPermissions must be true or false`);
  }
  if (autoApprove !== undefined) {
    if (isStringArray(autoApprove)) {
      for (const k of autoApprove) {
        if ((TOOL_KINDS as readonly string[]).includes(k)) policy.autoApprove.push(k as ToolKindName);
        else policy.problems.push(`symposium.agents.${agentName}.autoApprove: unknown tool kind "${k}"`);
      }
    } else policy.problems.push(`symposium.agents.${agentName}.autoApprove must be a list of tool kinds`);
  }
  return policy;
}
