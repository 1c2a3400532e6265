// One conversation of the `vscodelm` mode: the history actor (history.ts decides; this applies)
// and the session actor (one ACP session on a Downstream, the pending tool calls, the response
// being streamed). Several conversations at once are several of these (vscodelm.ts picks one).
//
// Tool bridging, and the upstream multi-tool bug we must not have: upstream kept ONE outstanding
// call and accepted a follow-up only with exactly one tool result, so two parallel MCP calls (or
// a message with two results) counted as a cancellation. Here every outstanding call — VS Code
// tools called through `vscode_tools`, and permission requests surfaced as
// `symposium-agent-action` — waits in `pending` by call id; the response ends once the agent has
// been quiet for SETTLE_MS with calls outstanding (so calls started together travel together),
// and a follow-up may answer any number of them, in any order.
import * as acp from '@agentclientprotocol/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  AGENT_ACTION_APPROVED,
  AGENT_ACTION_TOOL,
  VSCODE_TOOLS_SERVER,
  type AgentActionInput,
  type LmMessage,
  type LmPart,
  type LmTool,
} from '../../src/protocol/lm';
import { preferredOption } from '../../src/protocol/permissionOptions';
import { LoopbackMcpHost } from '../mcp/loopbackHost';
import type { Logger } from '../log';
import type { Downstream } from './downstream';
import { commit, emptyHistory, matchRequest, record, restart, textOf, toolResultsOf, type HistoryState } from './history';

/** Quiet time after a tool call before the response ends with the calls made so far. */
export const SETTLE_MS = 150;

type Pending =
  | { kind: 'tool'; resolve: (r: CallToolResult) => void }
  | { kind: 'permission'; options: acp.PermissionOption[]; resolve: (r: acp.RequestPermissionResponse) => void };

interface Response {
  emit(part: LmPart): void;
  resolve(): void;
  reject(err: Error): void;
}

/** A request the conversation refuses without changing anything (e.g. an unknown call id). */
export class RefusedRequest extends Error {}

let callCounter = 0;

export class Conversation {
  state: HistoryState = emptyHistory();
  lastUsed = Date.now();
  private sessionId: string | undefined;
  private tools: LmTool[] = [];
  private readonly pending = new Map<string, Pending>();
  private response: Response | undefined;
  /** Parts the agent produced while no response was open; the next response starts with them. */
  private buffered: LmPart[] = [];
  /** Bumped per prompt, so a superseded turn's end cannot end a newer response. */
  private turnGen = 0;
  private turnRunning = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private mcpHost: LoopbackMcpHost | undefined;

  constructor(
    readonly downstream: Downstream,
    private readonly cwd: string,
    private readonly log: Logger,
  ) {}

  /** Streams the response to `messages` through `emit`; resolves when it is complete. */
  async handle(messages: LmMessage[], tools: LmTool[], emit: (p: LmPart) => void, signal: AbortSignal): Promise<void> {
    // Cancelled before it got here (the agent was still starting): an abort listener added now
    // would never fire, and the turn would run to its end unasked. Nothing changes.
    if (signal.aborted) return;
    this.lastUsed = Date.now();
    this.tools = tools;
    const match = matchRequest(this.state, messages);
    if (match.kind === 'extends') {
      const results = toolResultsOf(match.newUser);
      const unknown = results.find((r) => !this.pending.has(r.callId));
      // Refused before anything changes: the consumer can retry with the right id, nothing lost.
      if (unknown) throw new RefusedRequest(`tool result for unknown call id "${unknown.callId}"`);
      this.state = commit(this.state, match.newUser);
      this.endResponse(); // a newer request supersedes an open one
      const open = this.openResponse(emit, signal);
      if (results.length > 0 && this.turnRunning && this.sessionId) {
        for (const r of results) this.answer(r.callId, textOf(r.content));
        this.dropPending('the consumer did not answer this call');
      } else {
        this.stopTurn();
        await this.prompt(this.sessionId ? [] : this.state.committed, match.newUser);
      }
      return open;
    }
    // Mismatch: edit, regenerate, rejected tool, or another conversation's history.
    this.state = restart(match.prior, match.newUser);
    this.endResponse();
    this.stopTurn();
    if (this.sessionId) this.downstream.close(this.sessionId);
    this.sessionId = undefined;
    this.buffered = [];
    const open = this.openResponse(emit, signal);
    await this.prompt(match.prior, match.newUser);
    return open;
  }

  async dispose(): Promise<void> {
    this.stopTurn();
    if (this.sessionId) this.downstream.close(this.sessionId);
    await this.mcpHost?.close();
  }

  private openResponse(emit: (p: LmPart) => void, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const response: Response = { emit, resolve, reject };
      this.response = response;
      signal.addEventListener(
        'abort',
        () => {
          // The consumer cancelled: stop the agent's turn; permissions it waits for are `cancelled`.
          if (this.response !== response) return;
          this.stopTurn();
          this.endResponse();
        },
        { once: true },
      );
      const early = this.buffered;
      this.buffered = [];
      for (const p of early) emit(p);
      if (early.some((p) => p.type === 'tool_call')) this.armSettle();
    });
  }

  private endResponse(err?: Error): void {
    const r = this.response;
    this.response = undefined;
    clearTimeout(this.settleTimer);
    if (r && err) r.reject(err);
    else r?.resolve();
  }

  private emit(part: LmPart): void {
    this.state = record(this.state, part);
    if (this.response) this.response.emit(part);
    else this.buffered.push(part);
  }

  /** Sends `user` as a prompt, on a new session primed with `prior` when there is none. */
  private async prompt(prior: readonly LmMessage[], user: LmMessage): Promise<void> {
    const gen = ++this.turnGen;
    try {
      if (!this.sessionId) this.sessionId = await this.newSession();
      // Cancelled or superseded while the session was being set up: this prompt must not start.
      if (gen !== this.turnGen) return;
      const blocks = [...this.primer(prior), ...toBlocks(user)];
      this.turnRunning = true;
      this.downstream.prompt(this.sessionId, blocks).then(
        (r) => this.turnEnded(gen, r.stopReason === 'refusal' ? new Error('the agent refused') : undefined),
        (err: unknown) => this.turnEnded(gen, err instanceof Error ? err : new Error(String(err))),
      );
    } catch (err) {
      this.turnEnded(gen, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private turnEnded(gen: number, err?: Error): void {
    if (gen !== this.turnGen) return;
    this.turnRunning = false;
    this.dropPending('the agent finished its turn');
    this.endResponse(err);
  }

  private stopTurn(): void {
    this.turnGen++;
    if (this.turnRunning && this.sessionId) this.downstream.cancel(this.sessionId);
    this.turnRunning = false;
    this.dropPending('cancelled');
  }

  private async newSession(): Promise<string> {
    let resolveId!: (id: string) => void;
    const sessionId = new Promise<string>((r) => (resolveId = r));
    this.mcpHost ??= await LoopbackMcpHost.start(
      { name: VSCODE_TOOLS_SERVER, create: () => this.vscodeToolsServer() },
      { sessionId, cwd: this.cwd },
      this.log,
    );
    const mcp: acp.McpServer = {
      type: 'http',
      name: VSCODE_TOOLS_SERVER,
      url: this.mcpHost.url,
      headers: [{ name: 'Authorization', value: `Bearer ${this.mcpHost.token}` }],
    };
    const id = await this.downstream.newSession(this.cwd, [mcp], {
      update: (u) => this.onUpdate(u),
      permission: (p) => this.onPermission(p),
      exited: (reason) => {
        this.sessionId = undefined;
        this.turnGen++;
        this.turnRunning = false;
        this.dropPending(reason);
        this.endResponse(new Error(reason));
      },
    });
    resolveId(id);
    return id;
  }

  /** The earlier history, for a fresh session: an embedded resource if the agent takes them. */
  private primer(prior: readonly LmMessage[]): acp.ContentBlock[] {
    if (prior.length === 0) return [];
    const transcript = prior.map((m) => `${m.role}: ${textOf(m.content)}`).join('\n\n');
    if (this.downstream.embeddedContext)
      return [{ type: 'resource', resource: { uri: 'symposium:lm-history', mimeType: 'text/plain', text: transcript } }];
    return [{ type: 'text', text: `The conversation so far:\n${transcript}\n\n` }];
  }

  private onUpdate(update: acp.SessionUpdate): void {
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && update.content.text)
      this.emit({ type: 'text', value: update.content.text });
  }

  private onPermission(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
    const callId = `perm_${++callCounter}`;
    const approve = preferredOption(request.options, 'allow');
    const reject = preferredOption(request.options, 'reject');
    const input: AgentActionInput = {
      kind: request.toolCall.kind ?? 'other',
      title: request.toolCall.title ?? 'an agent action',
      raw_input: request.toolCall.rawInput,
      ...(approve ? { approve_option: { name: approve.name, kind: approve.kind } } : {}),
      ...(reject ? { reject_option: { name: reject.name, kind: reject.kind } } : {}),
    };
    return new Promise((resolve) => {
      this.pending.set(callId, { kind: 'permission', options: request.options, resolve });
      this.emit({ type: 'tool_call', callId, name: AGENT_ACTION_TOOL, input });
      this.armSettle();
    });
  }

  private vscodeToolsServer(): McpServer {
    const server = new McpServer({ name: VSCODE_TOOLS_SERVER, version: '0' }, { capabilities: { tools: {} } });
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: objectSchema(t.inputSchema) })),
    }));
    server.server.setRequestHandler(CallToolRequestSchema, (req) => {
      const { name } = req.params;
      if (!this.tools.some((t) => t.name === name))
        return { content: [{ type: 'text', text: `no tool "${name}" in this request` }], isError: true };
      const callId = `call_${++callCounter}`;
      return new Promise<CallToolResult>((resolve) => {
        this.pending.set(callId, { kind: 'tool', resolve });
        this.emit({ type: 'tool_call', callId, name, input: req.params.arguments ?? {} });
        this.armSettle();
      });
    });
    return server;
  }

  /** Ends the response once no further call has come for SETTLE_MS (calls made together travel together). */
  private armSettle(): void {
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      if (this.pending.size > 0) this.endResponse();
    }, SETTLE_MS);
  }

  private answer(callId: string, text: string): void {
    const p = this.pending.get(callId);
    this.pending.delete(callId);
    if (p?.kind === 'tool') p.resolve({ content: [{ type: 'text', text }] });
    else if (p?.kind === 'permission') {
      // The same choice the confirmation described (onPermission): once before always.
      const approved = text.trim().toLowerCase() === AGENT_ACTION_APPROVED;
      const option = preferredOption(p.options, approved ? 'allow' : 'reject');
      p.resolve(option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } });
    }
  }

  private dropPending(reason: string): void {
    for (const [, p] of this.pending) {
      if (p.kind === 'tool') p.resolve({ content: [{ type: 'text', text: reason }], isError: true });
      else p.resolve({ outcome: { outcome: 'cancelled' } });
    }
    this.pending.clear();
  }
}

function toBlocks(message: LmMessage): acp.ContentBlock[] {
  const blocks: acp.ContentBlock[] = [];
  for (const p of message.content) {
    if (p.type === 'text') blocks.push({ type: 'text', text: p.value });
    else if (p.type === 'image') blocks.push({ type: 'image', mimeType: p.mimeType, data: p.data });
    else if (p.type === 'tool_result') blocks.push({ type: 'text', text: textOf(p.content) });
  }
  return blocks;
}

/** MCP wants an object schema; LM tools may come without one. */
function objectSchema(schema: unknown): { type: 'object'; [k: string]: unknown } {
  return schema && typeof schema === 'object' && (schema as { type?: unknown }).type === 'object'
    ? (schema as { type: 'object' })
    : { type: 'object', properties: {} };
}
