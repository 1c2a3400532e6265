// Shared by components that offer MCP servers to the user's sessions: inject on
// `session/new|load|resume|fork` on the way to the agent, bind the hosts to the session id from the
// answer, close them on `session/close` or when the component is disposed.
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { asSessionClose, asSessionSetup, isSessionSetup, setUpSessionId } from '../chain/acpGuards';
import type { ComponentContext, Direction, IncomingRequest, McpInjection, McpServerSpec } from '../chain/component';

export class SessionMcpServers {
  private readonly bySession = new Map<string, McpInjection[]>();

  constructor(private readonly servers: readonly McpServerSpec[]) {}

  /** Whether `handle` acts on such a request (for a component's `wantsRequest`). */
  static wants(method: string, direction: Direction): boolean {
    return direction === 'toAgent' && (isSessionSetup(method) || method === 'session/close');
  }

  /**
   * Handles the request if it sets up or closes a session; returns false otherwise. `servers`:
   * what this session gets, when it differs per session (the openctx component's providers).
   */
  handle(request: IncomingRequest, cx: ComponentContext, servers: readonly McpServerSpec[] = this.servers): boolean {
    if (request.direction !== 'toAgent') return false;
    if (isSessionSetup(request.method)) {
      void this.inject(request, cx, servers);
      return true;
    }
    const closed = request.method === 'session/close' ? asSessionClose(request.params) : undefined;
    if (closed) void this.closeSession(closed.sessionId);
    return false;
  }

  /** Whether the agent connected to our server `name` in this session (see McpInjection.connected). */
  async connected(sessionId: string, name: string, withinMs: number): Promise<boolean | undefined> {
    const injections = this.bySession.get(sessionId) ?? [];
    const checks = injections.filter((i) => i.connected).map((i) => i.connected!(name, withinMs));
    if (!checks.length) return undefined; // not known (no injection that can tell)
    return (await Promise.all(checks)).some(Boolean);
  }

  async dispose(): Promise<void> {
    const all = [...this.bySession.values()].flat();
    this.bySession.clear();
    await Promise.allSettled(all.map((i) => i.close()));
  }

  private async inject(request: IncomingRequest, cx: ComponentContext, servers: readonly McpServerSpec[]): Promise<void> {
    const params = asSessionSetup(request.method, request.params);
    if (!params) return request.forward(); // malformed: the agent answers it, without our servers
    let injection: McpInjection;
    try {
      injection = await cx.injectMcpServers(params, servers);
    } catch (err) {
      cx.log.error(`could not start MCP servers for ${request.method}; forwarding without them`, err);
      return request.forward();
    }
    if (request.signal.aborted) {
      await injection.close();
      return request.fail({ code: ErrorCodes.requestCancelled, message: 'request cancelled' });
    }
    request.forwardThen(injection.params, (outcome) => {
      const sessionId = 'result' in outcome ? setUpSessionId(request.method, params, outcome.result) : undefined;
      if (sessionId) {
        injection.bind(sessionId);
        this.bySession.set(sessionId, [...(this.bySession.get(sessionId) ?? []), injection]);
      } else {
        void injection.close();
      }
      return outcome;
    });
  }

  private async closeSession(sessionId: string): Promise<void> {
    const injections = this.bySession.get(sessionId) ?? [];
    this.bySession.delete(sessionId);
    await Promise.allSettled(injections.map((i) => i.close()));
  }
}
