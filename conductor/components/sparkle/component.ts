// The Sparkle component (seed 000, "Current Components → Sparkle"): gives any ACP agent a
// persistent collaborator identity and memory, through the injected MCP server `sparkle`
// (tools.ts) and an embodiment prompt (embodiment.ts).
//
// - Every session/new|load|resume|fork gets the `sparkle` server (sessionMcp.ts: HTTP or stdio shim).
//   A fork is not embodied again: it copies a session whose context already holds the embodiment.
// - After the agent answers session/new, the component sends its own session/prompt with the
//   embodiment. Until that turn ends, the user's prompts for the session are held (gate.ts) and then
//   forwarded in order: never dropped, never interleaved with the embodiment. A session/cancel (or
//   $/cancel_request) answers held prompts here, without reaching the agent, which runs only
//   Sparkle's turn. A turn that hangs is cancelled after `embodimentTimeoutMs`.
// - The embodiment turn's updates go to the editor marked `_meta.symposium.sparkle = 'embodiment'`,
//   so the chat shows them as Sparkle's, not as an answer to the user.
// - Every `checkpointEvery`-th user prompt (full mode) gets a marked text block asking the agent to
//   call session_checkpoint; the user's own text is untouched.
// Upstream quirks not copied: no boot checkpoint in a fresh workspace (there is no exchange log to
// recover), and the embodiment reply is marked instead of looking like an answer.
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { isObject } from '../../../src/protocol/guards';
import { researchSessionMeta, sparkleMarkOf, withSparkleMark } from '../../../src/protocol/symposium-ext';
import type {
  Component,
  ComponentContext,
  ComponentFactory,
  Direction,
  IncomingNotification,
  IncomingRequest,
  McpSessionInfo,
} from '../../chain/component';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RpcOutcome } from '../../jsonrpc/message';
import { createLogger, type Logger } from '../../log';
import { SessionMcpServers } from '../sessionMcp';
import { gatherEmbodiment } from './embodiment';
import { EmbodimentGate } from './gate';
import { SparkleHome } from './homeStore';
import { sparkleHomeDir } from './names';
import { defaultSparkleOptions, type SparkleOptions } from './options';
import { checkpointNudge } from './templates';
import { SparkleSpace } from './workspaceStore';
import { errorText } from '../../../src/protocol/errorText';
import { DisposableBase } from '../../../src/node/disposable';

interface HeldPrompt {
  request: IncomingRequest;
  params: unknown;
}

/** Update kinds that belong to a turn (and are marked); the rest describe the session. */
const TURN_UPDATES = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk', 'tool_call', 'tool_call_update', 'plan']);

const sessionIdOf = (params: unknown): string | undefined => {
  const id = isObject(params) ? params.sessionId : undefined;
  return typeof id === 'string' ? id : undefined;
};

/** `request` whose response passes through `hook` (after any mapping a later handler adds). */
function onResponse(request: IncomingRequest, hook: (o: RpcOutcome) => RpcOutcome): IncomingRequest {
  return {
    ...request,
    forward: (params) => request.forwardThen(params, hook),
    forwardThen: (params, map) => request.forwardThen(params, (o) => hook(map(o))),
  };
}

export class Sparkle extends DisposableBase implements Component {
  readonly name = 'sparkle';
  private readonly options: SparkleOptions;
  private readonly home: SparkleHome;
  private readonly gate = new EmbodimentGate<HeldPrompt>();
  /** Sessions whose embodiment turn is running: their turn updates are marked. */
  private readonly embodying = new Set<string>();
  private readonly promptCounts = new Map<string, number>();
  /** The sparkler each session embodied (tools called without `sparkler` use it). */
  private readonly sparklers = new Map<string, string>();
  /**
   * Sessions whose next agent title may be made from the embodiment (whitespace-normalised text of
   * it), watched until the agent's first title or the user's second prompt is answered.
   */
  private readonly untitled = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly mcp = new SessionMcpServers([{ name: 'sparkle', create: (s) => this.createServer(s) }]);
  private log: Logger | undefined;

  constructor(options: Partial<SparkleOptions> = {}) {
    super();
    this.options = { ...defaultSparkleOptions(), ...options };
    this.home = new SparkleHome(this.options.homeDir ?? sparkleHomeDir());
  }

  /** Sessions set up and closed, and the user's prompts (held while an embodiment runs). */
  wantsRequest(method: string, direction: Direction): boolean {
    return method === 'session/prompt' ? direction === 'toAgent' : SessionMcpServers.wants(method, direction);
  }

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    this.log = cx.log;
    if (request.direction !== 'toAgent') return request.forward();
    switch (request.method) {
      case 'session/new': {
        // A crate researcher's session (if crate-sources sits upstream) is nobody's collaborator.
        if (researchSessionMeta(request.params)) return request.forward();
        const cwd = isObject(request.params) && typeof request.params.cwd === 'string' ? request.params.cwd : process.cwd();
        const watched = onResponse(request, (outcome) => {
          const id = 'result' in outcome ? sessionIdOf(outcome.result) : undefined;
          // Synchronously, before any later message: the user's first prompt must find the gate closed.
          if (id !== undefined) {
            this.gate.close(id);
            this.untitled.set(id, '');
            void this.embody(id, cwd, cx);
          }
          return outcome;
        });
        if (!this.mcp.handle(watched, cx)) watched.forward();
        return;
      }
      case 'session/prompt':
        return this.userPrompt(request);
      case 'session/close': {
        const id = sessionIdOf(request.params);
        if (id !== undefined) this.forget(id);
        break;
      }
    }
    if (!this.mcp.handle(request, cx)) request.forward();
  }

  /** A cancel toward the agent; updates toward the editor while an embodiment runs (they are marked). */
  wantsNotification(method: string, direction: Direction, params?: unknown): boolean {
    if (direction === 'toAgent') return method === 'session/cancel';
    // Outside an embodiment only a title matters (titleOf), so a streamed reply passes by in one hop.
    return method === 'session/update' && (this.embodying.size > 0 || (this.untitled.size > 0 && isInfoUpdate(params)));
  }

  onNotification(notification: IncomingNotification, cx: ComponentContext): void {
    const id = sessionIdOf(notification.params);
    if (id !== undefined && notification.direction === 'toClient' && notification.method === 'session/update') {
      let params = notification.params;
      const embodiment = this.untitled.get(id);
      const title = embodiment !== undefined ? titleOf(params) : undefined;
      if (title !== undefined) {
        this.untitled.delete(id); // its first title: the ones after it are the agent's own
        if (embodiment && embodiment.includes(normalised(title).replace(/(\u2026|\.\.\.)$/, ''))) {
          cx.log.info(`session ${id}: the agent titled the session with its embodiment's text; that title is not passed on`);
          if ((params = withoutTitle(params)) === undefined) return;
        }
      }
      return notification.forward(this.embodying.has(id) ? markUpdate(params) : params);
    }
    if (id !== undefined && notification.direction === 'toAgent' && notification.method === 'session/cancel') {
      const held = this.gate.takeHeld(id);
      if (held.length) {
        // The user's prompts never reached the agent, whose only turn is Sparkle's: answer here.
        cx.log.info(`session/cancel answered ${held.length} held prompt(s) of session ${id}; the embodiment continues`);
        for (const h of held) h.request.respond({ stopReason: 'cancelled' });
        return;
      }
    }
    notification.forward();
  }

  override async dispose(): Promise<void> {
    super.dispose();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const h of this.gate.drain()) h.request.fail({ code: ErrorCodes.requestCancelled, message: 'the conductor is shutting down' });
    await this.mcp.dispose();
  }

  private userPrompt(request: IncomingRequest): void {
    const id = sessionIdOf(request.params);
    if (id === undefined) return request.forward();
    const params = this.withNudge(id, request.params);
    const held: HeldPrompt = { request, params };
    if (!this.gate.hold(id, held)) return this.forwardUserPrompt(id, held);
    request.signal.addEventListener(
      'abort',
      () => {
        if (this.gate.remove(id, held)) request.fail({ code: ErrorCodes.requestCancelled, message: 'request cancelled' });
      },
      { once: true },
    );
  }

  /** Every `checkpointEvery`-th user prompt of a session (full mode) gets the checkpoint nudge. */
  private withNudge(sessionId: string, params: unknown): unknown {
    const count = (this.promptCounts.get(sessionId) ?? 0) + 1;
    this.promptCounts.set(sessionId, count);
    const every = this.options.checkpointEvery;
    if (this.options.mode !== 'full' || every <= 0 || count % every !== 0 || !isObject(params) || !Array.isArray(params.prompt))
      return params;
    const nudge = withSparkleMark({ type: 'text', text: checkpointNudge(count) }, 'checkpoint-nudge');
    return { ...params, prompt: [...params.prompt, nudge] };
  }

  private async embody(sessionId: string, cwd: string, cx: ComponentContext): Promise<void> {
    let text: string;
    try {
      const space = this.options.mode === 'full' ? new SparkleSpace(cwd) : undefined;
      // The agents people run connect to their MCP servers while they set the session up; one that
      // has not by now either connects on first use (ElizACP) or ignores them (Gemini CLI in a
      // folder it does not trust): its embodiment offers the tools only if they are in its list.
      const connected = await this.mcp.connected(sessionId, 'sparkle', 0);
      if (connected === false) cx.log.info(`the agent has not connected to the sparkle MCP server of session ${sessionId} (yet)`);
      const gathered = await gatherEmbodiment(this.home, space, { ...this.options, toolsConnected: connected !== false });
      text = gathered.text;
      this.sparklers.set(sessionId, gathered.sparkler);
    } catch (err) {
      cx.log.error(`could not prepare the embodiment of session ${sessionId}`, err);
      return this.release(sessionId, cx, `Sparkle could not read its profile: ${errorText(err)}`);
    }
    if (this.isDisposed || !this.gate.isClosed(sessionId)) return; // closed meanwhile
    this.embodying.add(sessionId);
    if (this.untitled.has(sessionId)) this.untitled.set(sessionId, normalised(text));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.embodying.has(sessionId)) return;
      cx.log.warn(`the embodiment of session ${sessionId} took longer than ${this.options.embodimentTimeoutMs} ms; cancelling it`);
      cx.notify('toAgent', 'session/cancel', { sessionId });
    }, this.options.embodimentTimeoutMs);
    this.timers.add(timer);
    const params = withSparkleMark({ sessionId, prompt: [{ type: 'text', text }] }, 'embodiment');
    cx.log.info(`embodying ${this.sparklers.get(sessionId)} in session ${sessionId} (${text.length} characters)`);
    await cx
      .request('toAgent', 'session/prompt', params, {
        // Runs as the response is routed, before any later message: updates after it are the user's.
        onResponse: (outcome) => {
          clearTimeout(timer);
          this.timers.delete(timer);
          const stop = 'result' in outcome && isObject(outcome.result) ? outcome.result.stopReason : undefined;
          const problem =
            'error' in outcome
              ? `the agent answered with an error: ${outcome.error.message}`
              : stop !== 'end_turn'
                ? `the turn ended with "${String(stop)}"`
                : undefined;
          if (problem) cx.log.warn(`embodiment of session ${sessionId}: ${problem}`);
          this.release(sessionId, cx, problem && `Sparkle embodiment did not complete: ${problem}.`);
        },
      })
      .catch(() => undefined); // the outcome was handled in onResponse
  }

  /** Ends the embodiment: says why in the chat if it failed, then forwards the held prompts in order. */
  private release(sessionId: string, cx: ComponentContext, problem?: string): void {
    if (problem && !this.isDisposed) {
      const update = withSparkleMark(
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `_${problem}_` } },
        'embodiment',
      );
      cx.notify('toClient', 'session/update', withSparkleMark({ sessionId, update }, 'embodiment'));
    }
    this.embodying.delete(sessionId);
    for (const h of this.gate.open(sessionId)) this.forwardUserPrompt(sessionId, h);
  }

  /** A user's prompt on to the agent; after the second one, no title is taken for the embodiment's any more. */
  private forwardUserPrompt(sessionId: string, h: HeldPrompt): void {
    if (!this.untitled.has(sessionId) || (this.promptCounts.get(sessionId) ?? 0) < 2) return h.request.forward(h.params);
    h.request.forwardThen(h.params, (outcome) => {
      this.untitled.delete(sessionId);
      return outcome;
    });
  }

  /** session/close: held prompts are answered `cancelled`, the session's state goes. */
  private forget(sessionId: string): void {
    for (const h of this.gate.open(sessionId)) h.request.respond({ stopReason: 'cancelled' });
    this.embodying.delete(sessionId);
    this.untitled.delete(sessionId);
    this.promptCounts.delete(sessionId);
    this.sparklers.delete(sessionId);
  }

  private async createServer(session: McpSessionInfo): Promise<McpServer> {
    const { createSparkleServer } = await import('./tools'); // the MCP SDK and zod: on first connect
    const space = this.options.mode === 'full' ? new SparkleSpace(session.cwd) : undefined;
    const configured = async (): Promise<string> => {
      try {
        return (await this.home.resolve(this.options.sparkler)).name;
      } catch {
        return (await this.home.resolve()).name;
      }
    };
    return createSparkleServer({
      home: this.home,
      space,
      log: this.log ?? createLogger('off'),
      sessionSparkler: async () => {
        const id = await session.sessionId.catch(() => undefined);
        return (id !== undefined ? this.sparklers.get(id) : undefined) ?? configured();
      },
      renamed: (oldName, newName) => {
        for (const [id, name] of this.sparklers) if (name === oldName) this.sparklers.set(id, newName);
      },
    });
  }
}

/** session/update params with the embodiment mark on the update (what the editor's chat reads) and the params. */
const normalised = (text: string): string => text.replace(/\s+/g, ' ').trim();

const isInfoUpdate = (params: unknown): boolean =>
  (params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate === 'session_info_update';

/** The title a session_info_update sets, if it sets one. */
function titleOf(params: unknown): string | undefined {
  const update = isObject(params) ? params.update : undefined;
  return isObject(update) && update.sessionUpdate === 'session_info_update' && typeof update.title === 'string' ? update.title : undefined;
}

/**
 * A session_info_update without its title (undefined when nothing else is left): agents that title
 * a session after its first prompt (claude-agent-acp) name it after the embodiment, while the title
 * is the user's conversation's.
 */
function withoutTitle(params: unknown): unknown {
  if (!isObject(params) || !isObject(params.update) || params.update.sessionUpdate !== 'session_info_update' || !('title' in params.update))
    return params;
  const { title: _embodimentTitle, updatedAt: _when, sessionUpdate, ...rest } = params.update;
  return Object.keys(rest).length ? { ...params, update: { sessionUpdate, ...rest } } : undefined;
}

function markUpdate(params: unknown): unknown {
  if (!isObject(params) || !isObject(params.update)) return params;
  const update = params.update;
  const kind = typeof update.sessionUpdate === 'string' ? update.sessionUpdate : '';
  if (!TURN_UPDATES.has(kind) || sparkleMarkOf(update)) return params;
  return withSparkleMark({ ...params, update: withSparkleMark(update, 'embodiment') }, 'embodiment');
}

export function sparkleFactory(options: Partial<SparkleOptions> = {}): ComponentFactory {
  return {
    name: 'sparkle',
    description: 'Sparkle: a persistent collaborator identity and memory (MCP server "sparkle" and an embodiment prompt per session).',
    kind: 'component',
    create: () => new Sparkle(options),
  };
}
