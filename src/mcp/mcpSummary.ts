// What the chat says about the user's MCP servers when a session starts: which ones the session
// got, how (an HTTP or SSE server reaches an agent that takes only stdio through the conductor's
// bridge), and which were left out and why. Pure.
import type { McpServer } from '@agentclientprotocol/sdk';
import type { SettingsTarget } from '../protocol/webview';

export interface McpServerReport {
  name: string;
  type: 'stdio' | 'http' | 'sse';
  source: 'user' | 'workspace';
  /** Why the session did not get it (untrusted workspace, an input not given, …). */
  skipped?: string;
  /** What the session got differs from what was configured (said beside its name). */
  note?: string;
}

export interface SessionMcpServers {
  /** The declarations for `session/new` (and load, resume, fork), variables resolved. */
  servers: McpServer[];
  report: McpServerReport[];
  /** `symposium.mcpServers.enabled` is off: nothing was read. */
  disabled?: boolean;
}

/** The MCP transports the agent behind the conductor takes itself (`_meta.symposium.agentMcpCapabilities`). */
export interface AgentMcpTransports {
  http: boolean;
  sse: boolean;
}

export interface McpNotice {
  level: 'info' | 'warning';
  text: string;
  settings?: SettingsTarget;
}

/** undefined: nothing to say (no servers configured, or the feature is off). */
export function mcpNotice(report: readonly McpServerReport[], agent: AgentMcpTransports | undefined): McpNotice | undefined {
  if (!report.length) return undefined;
  const passed = report.filter((r) => r.skipped === undefined);
  const skipped = report.filter((r) => r.skipped !== undefined);
  const how = (r: McpServerReport): string =>
    (r.type === 'stdio' || agent === undefined || agent[r.type] ? r.type : `${r.type} via the conductor's stdio bridge`) +
    (r.note ? `; ${r.note}` : '');
  const parts: string[] = [];
  if (passed.length) parts.push(`MCP servers: ${passed.map((r) => `${r.name} (${how(r)})`).join(', ')}.`);
  if (skipped.length) parts.push(`Not passed to the agent: ${skipped.map((r) => `${r.name} (${r.skipped})`).join(', ')}.`);
  const untrusted = skipped.some((r) => r.skipped === UNTRUSTED);
  const warn = skipped.length > 0 || report.some((r) => r.note);
  return { level: warn ? 'warning' : 'info', text: parts.join(' '), ...(untrusted ? { settings: 'trust' as const } : {}) };
}

/** The reason a workspace's servers are left out of an untrusted workspace. */
export const UNTRUSTED = 'the workspace is not trusted';
