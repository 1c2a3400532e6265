// The IDE operations component (seed: "IDE Operations — component/adapter pair"). It
// injects the MCP server `symposium-ide` into every user session and turns its tool calls into
// `_symposium/ide/<operation>` requests sent upstream. It never talks to an editor itself: the
// extension answers when it advertises `_meta.symposium.ide`; otherwise an IDE adapter placed
// upstream of this component (the next issue's language-server fallback) does; with neither, the
// tools answer "no IDE available". Crate researchers' sessions get no `symposium-ide` server (they must not
// see the user's workspace), and `_symposium/ide/*` requests from the agent itself are refused:
// only this component speaks that protocol, on behalf of its tools.
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { isObject } from '../../../src/protocol/guards';
import {
  IDE_MCP_SERVER,
  IDE_METHOD_PREFIX,
  IDE_PROGRESS_METHOD,
  ideCapabilityOf,
  parseIdeProgress,
} from '../../../src/protocol/ideOperations';
import { researchSessionMeta } from '../../../src/protocol/symposium-ext';
import type {
  Component,
  ComponentContext,
  ComponentFactory,
  Direction,
  IncomingNotification,
  IncomingRequest,
  McpSessionInfo,
} from '../../chain/component';
import { SessionMcpServers } from '../sessionMcp';
import { ChainIdeBackend } from './backend';
import { IdeCallProgress, type ProgressTokens } from './callProgress';
import { DEFAULT_MAX_RESULTS, sessionRoots } from './results';

export interface IdeOperationsOptions {
  /** How long one `_symposium/ide/*` request may take (the first one may wait for a project load). */
  timeoutMs: number;
  /** Items of a list result shown to the agent; the total is always reported. */
  maxResults: number;
  /** After how long a waiting call says so on its card (when the answerer reports nothing itself). */
  slowCallMs: number;
}

const positive = (raw: string | undefined, fallback: number): number => {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
};

export function defaultIdeOperationsOptions(env: NodeJS.ProcessEnv = process.env): IdeOperationsOptions {
  return {
    timeoutMs: positive(env.SYMPOSIUM_IDE_TIMEOUT_MS, 30_000),
    maxResults: positive(env.SYMPOSIUM_IDE_MAX_RESULTS, DEFAULT_MAX_RESULTS),
    slowCallMs: positive(env.SYMPOSIUM_IDE_SLOW_CALL_MS, 1_000),
  };
}

export class IdeOperations implements Component {
  readonly name = 'ide-operations';
  private cx: ComponentContext | undefined;
  private readonly mcp = new SessionMcpServers([{ name: IDE_MCP_SERVER, create: (session) => this.createServer(session) }]);
  /** Progress tokens of the requests in flight, to their tool calls. */
  private readonly progressTokens: ProgressTokens = new Map();

  constructor(private readonly options: IdeOperationsOptions = defaultIdeOperationsOptions()) {}

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    this.cx = cx;
    if (request.direction === 'toAgent') {
      if (request.method === 'session/new' && researchSessionMeta(request.params)) return request.forward();
      if (!this.mcp.handle(request, cx)) request.forward();
      return;
    }
    if (request.method.startsWith(IDE_METHOD_PREFIX)) {
      const sessionId = isObject(request.params) ? request.params.sessionId : undefined;
      cx.log.warn(
        `refused ${request.method} from the agent (session ${String(sessionId)}): only the ide-operations component sends IDE requests`,
      );
      return request.fail({
        code: ErrorCodes.methodNotFound,
        message: `${request.method} is sent by Symposium's ide-operations component only; agents use the "${IDE_MCP_SERVER}" MCP tools`,
      });
    }
    request.forward();
  }

  /** Sessions set up and closed (its MCP server), and IDE requests from the agent (refused). */
  wantsRequest(method: string, direction: Direction): boolean {
    return direction === 'toAgent' ? SessionMcpServers.wants(method, direction) : method.startsWith(IDE_METHOD_PREFIX);
  }

  /** `_symposium/ide/progress` from the answerer: shown on its call's card, never passed to the agent. */
  wantsNotification(method: string): boolean {
    return method === IDE_PROGRESS_METHOD;
  }

  onNotification(notification: IncomingNotification, cx: ComponentContext): void {
    if (notification.method !== IDE_PROGRESS_METHOD) return notification.forward();
    if (notification.direction !== 'toAgent') return cx.log.warn(`dropped ${IDE_PROGRESS_METHOD} from the agent`);
    const progress = parseIdeProgress(notification.params);
    if (!progress) return cx.log.warn(`dropped malformed ${IDE_PROGRESS_METHOD}`, { params: notification.params });
    const call = this.progressTokens.get(progress.token);
    if (call) call.upstream(progress);
    else cx.log.trace(`${IDE_PROGRESS_METHOD} for a request already answered`);
  }

  dispose(): Promise<void> {
    return this.mcp.dispose();
  }

  private async createServer(session: McpSessionInfo) {
    const { createIdeServer } = await import('./tools'); // the MCP SDK and zod: on first connect
    const roots = sessionRoots(session.cwd);
    return createIdeServer({
      maxResults: this.options.maxResults,
      log: (m) => this.cx?.log.debug(`ide ${m}`),
      scope: async (tool, extra) => {
        const cx = this.cx;
        if (!cx) throw new Error('the ide-operations component is not ready');
        const notes: string[] = [];
        const sessionId = await session.sessionId;
        // The editor answers when it advertises `ide`; otherwise the ide-lsp adapter's servers do.
        const answerer = ideCapabilityOf(cx.info.clientCapabilities) ? "the editor's language features" : 'the language servers';
        const progress = new IdeCallProgress(
          {
            cx,
            sessionId,
            server: IDE_MCP_SERVER,
            tool,
            mcp: { progressToken: extra._meta?.progressToken, sendNotification: (n) => extra.sendNotification(n) },
          },
          this.progressTokens,
          `Waiting for ${answerer}`,
          this.options.slowCallMs,
        );
        const backend = new ChainIdeBackend(cx, { sessionId, timeoutMs: this.options.timeoutMs, signal: extra.signal, notes, progress });
        return { backend, roots, notes, finish: () => progress.finish() };
      },
    });
  }
}

export const ideOperationsFactory: ComponentFactory = {
  name: 'ide-operations',
  description:
    'Injects the "symposium-ide" MCP server (ide_operation, find_definitions, find_references, …): the editor\'s code intelligence, asked upstream as _symposium/ide/* requests.',
  kind: 'component',
  adapters: ['ide-lsp'],
  create: () => new IdeOperations(),
};
