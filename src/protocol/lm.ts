// The `vscodelm` channel: JSON-RPC (vscode-jsonrpc) over the stdio of one long-lived conductor
// process, between the thin LM provider (src/lm/) and the history/session actors (conductor/lm/).
// Pure types and names only, so both sides agree without importing each other. The shape follows
// the design's protocol (docs/language-model.md), serialized from VS Code's part classes.

/** One part of a message, as the provider serialized it (VS Code's classes are minified). */
export type LmPart =
  | { type: 'text'; value: string }
  | { type: 'tool_call'; callId: string; name: string; input: unknown }
  | { type: 'tool_result'; callId: string; content: LmPart[] }
  | { type: 'image'; mimeType: string; data: string /* base64 */ };

export interface LmMessage {
  role: 'user' | 'assistant';
  content: LmPart[];
}

/** One VS Code tool offered with the request (`options.tools`). */
export interface LmTool {
  name: string;
  description: string;
  inputSchema?: unknown;
}

export interface McpServerStdioDef {
  name: string;
  command: string;
  args: string[];
  env: { name: string; value: string }[];
}

/** Which agent answers: the built-in ElizACP or an external ACP agent (AgentDefinition of the design). */
export type AgentDefinition = { eliza: { deterministic?: boolean } } | { mcp_server: McpServerStdioDef };

export const LM_PROVIDE_METHOD = 'lm/provideLanguageModelChatResponse';
export const LM_PART_METHOD = 'lm/responsePart';
export const LM_COMPLETE_METHOD = 'lm/responseComplete';

export interface LmProvideParams {
  /**
   * Chosen by the provider, echoed by every notification of this response. (The design reuses the
   * JSON-RPC id; vscode-jsonrpc does not show a handler its request's id, so we name it ourselves.)
   */
  requestId: number;
  modelId: string;
  messages: LmMessage[];
  agent: AgentDefinition;
  tools: LmTool[];
  /** The conductor components to run between us and the agent (the chat's setting). */
  components?: string[];
}

export interface LmPartParams {
  requestId: number;
  part: LmPart;
}

export interface LmCompleteParams {
  requestId: number;
}

/**
 * The tool the agent's own permission requests surface as; the extension registers it with
 * `vscode.lm.registerTool` so the consumer's confirmation UI shows the action.
 */
export const AGENT_ACTION_TOOL = 'symposium-agent-action';

/** One of the agent's permission options, as the confirmation names it. */
export interface AgentActionOption {
  name: string;
  kind: string;
}

/** The input of an AGENT_ACTION_TOOL call. */
export interface AgentActionInput {
  kind: string;
  title: string;
  raw_input?: unknown;
  /** The option an approval selects (a once option when the agent offers one); absent: none allows. */
  approve_option?: AgentActionOption;
  /** The option a refusal selects; absent: the request is answered `cancelled`. */
  reject_option?: AgentActionOption;
}

/** What the AGENT_ACTION_TOOL result text says; anything else counts as rejected. */
export const AGENT_ACTION_APPROVED = 'approved';
export const AGENT_ACTION_REJECTED = 'rejected';

/** The synthetic MCP server that offers the request's VS Code tools to the agent. */
export const VSCODE_TOOLS_SERVER = 'vscode_tools';
