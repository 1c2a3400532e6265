// The `openctx` component: when the editor sends OpenCtx provider configuration with a session's
// setup (`_meta.symposium.openctx`, src/protocol/openctx.ts), it takes that out of the params
// (provider settings may hold tokens; the agent never sees them) and injects the `openctx` MCP
// server (tools.ts) into that session. Without providers the session is forwarded untouched and
// gets no server. HTTP and module providers both run here, in the conductor's Node, through the
// same client and timeout as the editor's (src/node/openctxClient.ts).
import { takeOpenCtxSessionConfig, type OpenCtxSessionConfig } from '../../../src/protocol/openctx';
import { isSessionSetup } from '../../chain/acpGuards';
import type { Component, ComponentContext, ComponentFactory, Direction, IncomingRequest, McpSessionInfo } from '../../chain/component';
import { SessionMcpServers } from '../sessionMcp';
import { OpenCtxClient } from '../../../src/node/openctxClient';
import { ToolProgress } from '../toolProgress';
import type { ToolCallExtra } from './tools';

/** A tool call that waits this long on providers shows progress on its card. */
export const SLOW_CALL_MS = 1_000;

class OpenCtxComponent implements Component {
  readonly name = 'openctx';
  /** The injected servers of every session (each session's own providers, given when it is set up). */
  private readonly servers = new SessionMcpServers([]);
  /** Clients by configuration, shared by sessions configured alike (their meta cache too). */
  private readonly clients = new Map<string, { client: OpenCtxClient; sinks: Set<(provider: string, message: string) => void> }>();

  constructor(
    /** Providers for sessions whose setup names none: the standalone command's configuration file. */
    private readonly configured?: OpenCtxSessionConfig,
    private readonly timeoutMs?: number,
    private readonly slowCallMs = SLOW_CALL_MS,
  ) {}

  /** Sessions set up (a server when the session names providers) and closed. */
  wantsRequest(method: string, direction: Direction): boolean {
    return SessionMcpServers.wants(method, direction);
  }

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    if (request.direction !== 'toAgent') return request.forward();
    if (!isSessionSetup(request.method)) {
      // session/close closes that session's server; everything else passes.
      if (!this.servers.handle(request, cx)) request.forward();
      return;
    }
    const { params, config: fromEditor, problem } = takeOpenCtxSessionConfig(request.params);
    if (problem) cx.log.warn(`${request.method}: ${problem}; no openctx server for this session`);
    const config = problem ? undefined : (fromEditor ?? this.configured);
    if (!config || config.providers.length === 0) return request.forward(params);
    const spec = {
      name: 'openctx',
      // The MCP SDK and zod (./tools) load when the agent first connects.
      create: async (session: McpSessionInfo) =>
        (await import('./tools')).createOpenCtxServer({
          withClient: (tool, extra, run) => this.withProgress(session, cx, tool, extra, () => this.run(config, cx, run)),
        }),
    };
    this.servers.handle(withParams(request, params), cx, [spec]);
  }

  /**
   * Runs one tool call; past SLOW_CALL_MS it reports, once a second, how long it has waited for
   * the providers (each has its own timeout, so the wait is bounded), on the caller's tool card.
   */
  private async withProgress<T>(
    session: McpSessionInfo,
    cx: ComponentContext,
    tool: string,
    extra: ToolCallExtra,
    work: () => Promise<T>,
  ): Promise<T> {
    const started = Date.now();
    let progress: ToolProgress | undefined;
    let finished = false;
    const tick = async (): Promise<void> => {
      const sessionId = await session.sessionId;
      if (finished) return; // the call ended while the session id was awaited: nothing to report
      progress ??= new ToolProgress({
        cx,
        sessionId,
        server: 'openctx',
        tool,
        mcp: { progressToken: extra._meta?.progressToken, sendNotification: (n) => extra.sendNotification(n) },
      });
      progress.report(`Waiting for OpenCtx providers… ${Math.round((Date.now() - started) / 1000)} s`);
    };
    let timer: NodeJS.Timeout | undefined;
    const schedule = (ms: number): void => {
      timer = setTimeout(() => {
        void tick();
        schedule(1_000);
      }, ms);
    };
    schedule(this.slowCallMs);
    try {
      return await work();
    } finally {
      finished = true;
      clearTimeout(timer);
      progress?.done();
    }
  }

  /** Runs one tool call's requests, collecting the problems reported meanwhile for its answer (and the log). */
  private async run<T>(
    config: OpenCtxSessionConfig,
    cx: ComponentContext,
    work: (c: OpenCtxClient) => Promise<T>,
  ): Promise<{ value: T; problems: string[] }> {
    const key = JSON.stringify(config);
    let entry = this.clients.get(key);
    if (!entry) {
      const sinks = new Set<(provider: string, message: string) => void>();
      const client = new OpenCtxClient({
        providers: config.providers,
        allowModules: config.allowModules,
        ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
        onProblem: (provider, message) => {
          cx.log.warn(`openctx: ${provider}: ${message}`);
          for (const sink of sinks) sink(provider, message);
        },
      });
      entry = { client, sinks };
      this.clients.set(key, entry);
    }
    const problems: string[] = [];
    const sink = (provider: string, message: string): void => void problems.push(`${provider}: ${message}`);
    entry.sinks.add(sink);
    try {
      return { value: await work(entry.client), problems };
    } finally {
      entry.sinks.delete(sink);
    }
  }

  async dispose(): Promise<void> {
    for (const { client } of this.clients.values()) client.dispose();
    this.clients.clear();
    await this.servers.dispose();
  }
}

/** The same request, seen with other params (what forward() sends by default). */
function withParams(request: IncomingRequest, params: unknown): IncomingRequest {
  return {
    method: request.method,
    params,
    direction: request.direction,
    signal: request.signal,
    forward: (p) => request.forward(p ?? params),
    forwardThen: (p, map) => request.forwardThen(p, map),
    respond: (r) => request.respond(r),
    fail: (e) => request.fail(e),
  };
}

/** `configured`: providers for sessions the editor names none for (the standalone command's configuration file). */
export const openctxFactory = (configured?: OpenCtxSessionConfig): ComponentFactory => ({
  name: 'openctx',
  description:
    'Injects the "openctx" MCP server (openctx_providers, openctx_mentions, openctx_items) into sessions the editor (or the configuration file) configured OpenCtx providers for.',
  kind: 'component',
  create: () => new OpenCtxComponent(configured),
});
