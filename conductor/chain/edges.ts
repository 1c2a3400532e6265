// The two built-in ends of the chain. The editor edge checks the params the conductor itself
// relies on (acpGuards.ts), advertises the assembled chain in `agentCapabilities._meta.symposium`
// (and `session/close`, which the conductor always takes) and tells the conductor whether
// `initialize` was accepted; the agent edge records the agent's capabilities (the MCP injector
// needs `mcpCapabilities`), answers `session/close` for an agent without it, keeps a
// cancelled prompt from hanging forever on an agent that ignores `session/cancel`, and drops the
// `_symposium/*` notifications an agent sends (only the conductor speaks that protocol). The
// editor edge also gives a plain ACP client the tool progress Symposium's editor would show
// (plainClientProgress.ts). The conductor takes HTTP and SSE MCP servers in `session/new` for every
// agent: the editor edge says so (`mcpCapabilities`, the agent's own in `_meta.symposium`), and the
// agent edge has the ones the agent cannot take bridged to stdio (mcp/remoteBridge.ts).
import { SYMPOSIUM_META_KEY, SYMPOSIUM_METHOD_PREFIX, type SymposiumCapabilitiesMeta } from '../../src/protocol/symposium-ext';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { isObject, type JsonObject } from '../../src/protocol/guards';
import type { RpcOutcome } from '../jsonrpc/message';
import type { Logger } from '../log';
import { asCancel, asPrompt, isSessionSetup, paramsProblem } from './acpGuards';
import type { Component, ComponentContext, Direction, IncomingNotification, IncomingRequest } from './component';
import { isToolCallUpdate, isToolKind, PlainClientProgress } from './plainClientProgress';
import { ToolProgressMapper } from '../../src/protocol/toolProgressMapper';

/** Methods whose params the editor edge checks: the conductor and its components read them. */
const CHECKED_FROM_EDITOR = new Set([
  'initialize',
  'session/new',
  'session/load',
  'session/resume',
  'session/fork',
  'session/prompt',
  'session/cancel',
]);

export class EditorEdge implements Component {
  readonly name = 'editor-edge';
  private readonly progress = new PlainClientProgress();
  constructor(
    private readonly describe: () => SymposiumCapabilitiesMeta,
    /** Whether an `initialize` from the editor was accepted (by the agent and the chain). */
    private readonly onInitialize: (accepted: boolean) => void = () => undefined,
  ) {}

  onRequest(request: IncomingRequest): void {
    if (request.direction !== 'toAgent') return request.forward();
    const problem = CHECKED_FROM_EDITOR.has(request.method) ? paramsProblem(request.method, request.params) : undefined;
    if (problem) {
      if (request.method === 'initialize') this.onInitialize(false);
      return request.fail({ code: ErrorCodes.invalidParams, message: problem });
    }
    if (request.method !== 'initialize') return request.forward();
    this.progress.initialize(request.params);
    request.forwardThen(undefined, (outcome) => {
      this.onInitialize('result' in outcome);
      return this.advertise(outcome);
    });
  }

  wantsNotification(method: string, direction: Direction, params?: unknown): boolean {
    return this.progress.wants(method, direction, params);
  }

  onNotification(notification: IncomingNotification, cx: ComponentContext): void {
    this.progress.handle(notification, cx);
  }

  private advertise(outcome: RpcOutcome): RpcOutcome {
    if (!('result' in outcome) || !isObject(outcome.result)) return outcome;
    const result = outcome.result;
    const caps = isObject(result.agentCapabilities) ? result.agentCapabilities : {};
    const meta = isObject(caps._meta) ? caps._meta : {};
    // The conductor always takes `session/close`: its components free what they hold for the
    // session (MCP routes, state) on the way, and the agent edge answers it when the agent itself
    // does not support it. Without this an editor would never close sessions on such agents, and
    // their MCP routes would stay for the conductor's lifetime.
    const sessions = isObject(caps.sessionCapabilities) ? caps.sessionCapabilities : {};
    // HTTP and SSE servers reach an agent that takes neither through the agent edge's bridge.
    const mcp = isObject(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
    return {
      result: {
        ...result,
        agentCapabilities: {
          ...caps,
          mcpCapabilities: { ...mcp, http: true, sse: true },
          sessionCapabilities: { ...sessions, close: isObject(sessions.close) ? sessions.close : {} },
          _meta: { ...meta, [SYMPOSIUM_META_KEY]: this.describe() },
        },
      },
    };
  }
}

const isSymposiumMethod = (method: string): boolean => method.startsWith(SYMPOSIUM_METHOD_PREFIX);
/** After the first dropped `_symposium/*` notification from the agent, one log line per this many. */
const DROP_LOG_EVERY = 100;

/** A `session/prompt` waiting on the agent. */
interface PendingPrompt {
  /** Starts the grace period after a `session/cancel` (once). */
  cancelled(): void;
}

export class AgentEdge implements Component {
  readonly name = 'agent-edge';
  agentCapabilities: JsonObject | undefined;
  /**
   * The agent's tool calls still running, per session: an MCP server's elicitation during a tool
   * call is shown on that call (mcp/mcpElicitation.ts).
   */
  readonly toolCalls = new ToolProgressMapper();
  /** Prompts the agent has not answered yet, by session id. */
  private readonly prompts = new Map<string, Set<PendingPrompt>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private droppedNotifications = 0;

  constructor(
    private readonly cancelGraceMs = 5000,
    private readonly log?: Logger,
    /** True while the agent's stdout is not being read (backpressure): its answer may be there. */
    private readonly agentBacklogged: () => boolean = () => false,
    /**
     * A session's `mcpServers` as the agent can take them (HTTP/SSE servers it does not support
     * bridged to stdio), given the agent's capabilities; absent: passed unchanged.
     */
    private readonly adaptMcpServers?: (mcpServers: unknown[], agentCapabilities: JsonObject | undefined) => unknown[],
  ) {}

  onRequest(request: IncomingRequest): void {
    if (request.direction !== 'toAgent') return request.forward();
    if (request.method === 'session/prompt') return this.forwardPrompt(request);
    // Advertised by the editor edge for every agent: one that does not support it gets nothing to
    // answer (the components upstream have already closed their part of the session).
    if (request.method === 'session/close' && !this.agentCloses()) return request.respond({});
    if (isSessionSetup(request.method) && this.adaptMcpServers && isObject(request.params) && Array.isArray(request.params.mcpServers))
      return request.forward({ ...request.params, mcpServers: this.adaptMcpServers(request.params.mcpServers, this.agentCapabilities) });
    if (request.method !== 'initialize') return request.forward();
    request.forwardThen(undefined, (outcome) => {
      if ('result' in outcome && isObject(outcome.result) && isObject(outcome.result.agentCapabilities)) {
        this.agentCapabilities = outcome.result.agentCapabilities;
      }
      return outcome;
    });
  }

  private agentCloses(): boolean {
    const sessions = this.agentCapabilities?.sessionCapabilities;
    return isObject(sessions) && isObject(sessions.close);
  }

  wantsNotification(method: string, direction: Direction, params?: unknown): boolean {
    if (direction === 'toAgent') return method === 'session/cancel';
    return isSymposiumMethod(method) || (method === 'session/update' && isToolKind(params));
  }

  onNotification(notification: IncomingNotification): void {
    // Everything toward the editor that reaches this edge comes from the agent process itself.
    if (notification.direction === 'toClient' && isSymposiumMethod(notification.method)) return this.dropImpersonation(notification.method);
    if (notification.direction === 'toClient' && notification.method === 'session/update') {
      const p = notification.params;
      if (isObject(p) && typeof p.sessionId === 'string' && isToolCallUpdate(p.update)) this.toolCalls.observe(p.sessionId, p.update);
    }
    notification.forward();
    if (notification.direction !== 'toAgent' || notification.method !== 'session/cancel') return;
    const sessionId = asCancel(notification.params)?.sessionId;
    if (sessionId !== undefined) for (const prompt of this.prompts.get(sessionId) ?? []) prompt.cancelled();
  }

  /**
   * `_symposium/*` notifications tell the editor about the conductor itself (an exited agent or
   * component, a tool's progress); the editor believes them and shows them as Symposium's own. An
   * agent that sends one is impersonating the conductor, so it goes no further. Logged at the first
   * and every DROP_LOG_EVERY-th, with a count: an agent flooding them cannot flood the log.
   */
  private dropImpersonation(method: string): void {
    this.droppedNotifications++;
    const count = this.droppedNotifications;
    if (count === 1 || count % DROP_LOG_EVERY === 0)
      this.log?.warn(
        `dropped ${method} from the agent: _symposium/* notifications come from the conductor only (${count} dropped so far, logged at the first and every ${DROP_LOG_EVERY}th)`,
      );
  }

  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.prompts.clear();
  }

  /**
   * ACP: after `session/cancel` the agent answers the prompt `cancelled`. One that never does
   * would leave the prompt (and the editor's turn) open forever, so after the grace period the
   * prompt is answered here, and the agent's own answer, if it ever comes, is dropped.
   */
  private forwardPrompt(request: IncomingRequest): void {
    const sessionId = asPrompt(request.params)?.sessionId;
    if (sessionId === undefined) return request.forward();
    let timer: NodeJS.Timeout | undefined;
    let answeredHere = false;
    const waiting = this.prompts.get(sessionId) ?? new Set<PendingPrompt>();
    this.prompts.set(sessionId, waiting);
    const done = (): void => {
      if (timer) clearTimeout(timer);
      this.timers.delete(timer!);
      waiting.delete(pending);
      if (waiting.size === 0 && this.prompts.get(sessionId) === waiting) this.prompts.delete(sessionId);
    };
    const pending: PendingPrompt = {
      cancelled: () => {
        if (timer || answeredHere) return;
        const expire = (): void => {
          this.timers.delete(timer!);
          // Answering while the agent's answer may sit unread in its pipe would let our answer
          // overtake the updates before it: wait until its output is read again.
          if (this.agentBacklogged()) {
            timer = setTimeout(expire, 100);
            this.timers.add(timer);
            return;
          }
          answeredHere = true;
          done();
          this.log?.warn(
            `the agent did not answer a prompt after session/cancel (session ${sessionId}) within ${this.cancelGraceMs} ms; answering "cancelled" for it`,
          );
          request.respond({ stopReason: 'cancelled' });
        };
        timer = setTimeout(expire, this.cancelGraceMs);
        this.timers.add(timer);
      },
    };
    waiting.add(pending);
    request.forwardThen(undefined, (outcome) => {
      if (answeredHere) this.log?.warn(`dropped the agent's late answer to a prompt already answered "cancelled" (session ${sessionId})`);
      else done();
      return outcome;
    });
  }
}
