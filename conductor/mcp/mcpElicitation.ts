// MCP servers the conductor serves to the agent (its components' own, and those proxies serve over
// ACP, relayed by components/external-proxy/acpRelay.ts) may ask the user for input with MCP's
// `elicitation/create`. That answer must come from the user, in the editor's elicitation card: the
// agent's MCP client would have the model fill in the user's part (and most agents' clients cannot
// elicit at all). So the transport of every MCP session the loopback host serves is wrapped here:
//   - the MCP client's `initialize` says `capabilities.elicitation` exactly as the editor advertised
//     ACP elicitation (`form`, and `url` when the editor takes URLs too; none when it takes neither),
//     whatever the agent's MCP client said;
//   - the server's `elicitation/create` never reaches the agent's MCP client: it becomes ACP
//     `elicitation/create` to the editor, scoped to the ACP session the server was injected into and
//     to the agent's tool call running the MCP tool when the conductor saw one, and the editor's
//     answer goes back to the server as the MCP client's;
//   - the server's `notifications/elicitation/complete` (URL mode) becomes ACP `elicitation/complete`;
//     its `notifications/cancelled` for a pending elicitation cancels the ACP request.
// The stdio shim relays to the same loopback route, so it is covered too.
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { errorText } from '../../src/protocol/errorText';
import { isObject, type JsonObject } from '../../src/protocol/guards';
import { RpcCallError } from '../chain/chain';
import type { McpSessionInfo } from '../chain/component';

/** How the MCP sessions of one component reach the editor. */
export interface ElicitationRoute {
  /** The editor's `clientCapabilities.elicitation` as it sent them. */
  capabilities(): unknown;
  /** Sends ACP `elicitation/create` to the editor; resolves with its answer. */
  request(params: JsonObject, signal: AbortSignal): Promise<unknown>;
  /** Sends ACP `elicitation/complete` to the editor. */
  complete(elicitationId: string): void;
  /** The agent's running tool call in `sessionId` whose title names `tool` (else the latest running), if any. */
  toolCallFor(sessionId: string, tool: string | undefined): string | undefined;
}

type McpId = string | number;

/** MCP `capabilities.elicitation` for an editor's ACP `clientCapabilities.elicitation` (undefined: none). */
export function mcpElicitationCapability(acp: unknown): JsonObject | undefined {
  if (!isObject(acp)) return undefined;
  const form = isObject(acp.form);
  const url = isObject(acp.url);
  if (!form && !url) return undefined;
  return { ...(form ? { form: {} } : {}), ...(url ? { url: {} } : {}) };
}

/**
 * The ACP `elicitation/create` params for an MCP one, or why it cannot be asked. Form (mode absent,
 * as MCP 2025-06-18 sends it, or `form`) and URL (`url`, with its `elicitationId`).
 */
export function acpElicitationParams(
  mcp: unknown,
  scope: { sessionId: string; toolCallId?: string | undefined },
  editor: unknown,
): { params: JsonObject } | { refused: string } {
  if (!isObject(mcp) || typeof mcp.message !== 'string') return { refused: 'elicitation/create needs a message' };
  const offered = mcpElicitationCapability(editor) ?? {};
  const where = { sessionId: scope.sessionId, ...(scope.toolCallId !== undefined ? { toolCallId: scope.toolCallId } : {}) };
  if (mcp.mode === 'url') {
    if (!offered.url) return { refused: 'the editor does not take URL elicitations' };
    if (typeof mcp.url !== 'string' || typeof mcp.elicitationId !== 'string')
      return { refused: 'a URL elicitation needs url and elicitationId' };
    return { params: { mode: 'url', ...where, message: mcp.message, url: mcp.url, elicitationId: mcp.elicitationId } };
  }
  if (mcp.mode !== undefined && mcp.mode !== 'form') return { refused: `unknown elicitation mode ${JSON.stringify(mcp.mode)}` };
  if (!offered.form) return { refused: 'the editor does not take form elicitations' };
  if (!isObject(mcp.requestedSchema)) return { refused: 'a form elicitation needs requestedSchema' };
  return { params: { mode: 'form', ...where, message: mcp.message, requestedSchema: mcp.requestedSchema } };
}

/** The MCP result for the editor's ACP answer: `{action, content?}` (content only with accept). */
export function mcpElicitationResult(answer: unknown): JsonObject | undefined {
  if (!isObject(answer)) return undefined;
  const { action, content } = answer;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') return undefined;
  return isObject(content) ? { action, content } : { action };
}

/**
 * The transport the MCP server of one session is given instead of `inner` (whose `handleRequest`
 * the loopback host keeps calling): elicitations go to the editor (see the top of this file).
 */
export function bridgeElicitation(inner: Transport, session: McpSessionInfo, route: ElicitationRoute): Transport {
  /** The MCP client's `tools/call` requests the server has not answered, by id: their tool names. */
  const toolCalls = new Map<string, string>();
  /** The server's elicitations waiting for the editor, by their MCP id. */
  const pending = new Map<string, AbortController>();
  const bridged: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, options) => fromServer(message, options),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  const toServer = (message: JSONRPCMessage): void => bridged.onmessage?.(message);

  inner.onmessage = (message: JSONRPCMessage, extra) => {
    let passed = message;
    if ('method' in message && 'id' in message) {
      if (message.method === 'initialize' && isObject(message.params)) passed = withEditorsElicitation(message, route.capabilities());
      else if (message.method === 'tools/call' && isObject(message.params) && typeof message.params.name === 'string')
        toolCalls.set(String(message.id), message.params.name);
    }
    bridged.onmessage?.(passed, extra);
  };
  inner.onclose = () => {
    for (const abort of pending.values()) abort.abort();
    pending.clear();
    bridged.onclose?.();
  };
  inner.onerror = (error) => bridged.onerror?.(error);

  async function fromServer(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (('result' in message || 'error' in message) && 'id' in message) toolCalls.delete(String(message.id));
    if ('method' in message && 'id' in message && message.method === 'elicitation/create') {
      const tool = toolCalls.get(String(options?.relatedRequestId)) ?? [...toolCalls.values()].at(-1);
      void elicit(message.id, message.params, tool);
      return;
    }
    if ('method' in message && !('id' in message)) {
      const params = isObject(message.params) ? message.params : {};
      if (message.method === 'notifications/elicitation/complete' && typeof params.elicitationId === 'string')
        return route.complete(params.elicitationId);
      const asked = message.method === 'notifications/cancelled' ? pending.get(String(params.requestId)) : undefined;
      if (asked) return asked.abort();
    }
    return inner.send(message, options);
  }

  async function elicit(id: McpId, mcpParams: unknown, tool: string | undefined): Promise<void> {
    const abort = new AbortController();
    pending.set(String(id), abort);
    const fail = (code: number, message: string): void => toServer({ jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage);
    try {
      const sessionId = await session.sessionId;
      const asked = acpElicitationParams(mcpParams, { sessionId, toolCallId: route.toolCallFor(sessionId, tool) }, route.capabilities());
      if ('refused' in asked) return fail(ErrorCodes.invalidParams, asked.refused);
      const result = mcpElicitationResult(await route.request(asked.params, abort.signal));
      if (abort.signal.aborted) return;
      if (!result) return fail(ErrorCodes.internalError, 'the editor answered the elicitation with no valid action');
      toServer({ jsonrpc: '2.0', id, result } as JSONRPCMessage);
    } catch (err) {
      if (abort.signal.aborted) return; // the server cancelled it: it expects no answer
      if (err instanceof RpcCallError) return fail(err.error.code, err.error.message);
      fail(ErrorCodes.internalError, errorText(err));
    } finally {
      pending.delete(String(id));
    }
  }

  return bridged;
}

/** The MCP client's `initialize` with `capabilities.elicitation` as the editor offers it (or none). */
function withEditorsElicitation(message: JSONRPCMessage & { params?: unknown }, editor: unknown): JSONRPCMessage {
  const params = message.params as JsonObject;
  const { elicitation: _agents, ...others } = isObject(params.capabilities) ? params.capabilities : {};
  const offered = mcpElicitationCapability(editor);
  return { ...message, params: { ...params, capabilities: { ...others, ...(offered ? { elicitation: offered } : {}) } } } as JSONRPCMessage;
}
