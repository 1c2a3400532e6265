// What one component of the chain sees of the conductor (ComponentContext): its log, the two peers'
// capabilities (learned, or replaced, after the chain exists: hence getters), requests and
// notifications from its place in the chain, MCP servers injected into sessions (which ask the user
// through the editor from that same place), backpressure, and tracing of its own external traffic.
import type { RpcMessage } from '../jsonrpc/message';
import type { Logger } from '../log';
import { injectMcpServers, agentSupportsHttpMcp, type SelfCommand } from '../mcp/injector';
import type { ElicitationRoute } from '../mcp/mcpElicitation';
import type { Chain } from './chain';
import type { ChainInfo, Component, ComponentContext } from './component';
import type { AgentEdge } from './edges';

export interface ComponentContextDeps {
  log: Logger;
  self: SelfCommand;
  clientCapabilities: () => Record<string, unknown>;
  /** The chain's agent edge (replaced when the chain is assembled again). */
  agentEdge: () => AgentEdge;
  /** The component's own output is full (or drained): see Conductor.outputFull. */
  outputFull: (full: boolean, component: Component) => void;
  /** Records a message of the component's own traffic, when tracing is on. */
  trace: ((from: string, to: string, message: RpcMessage) => void) | undefined;
}

export function componentContext(component: Component, chain: Chain, deps: ComponentContextDeps): ComponentContext {
  const info: ChainInfo = {
    get clientCapabilities() {
      return deps.clientCapabilities();
    },
    get agentCapabilities() {
      return deps.agentEdge().agentCapabilities;
    },
  };
  const log = deps.log.child(component.name);
  const elicitation: ElicitationRoute = {
    capabilities: () => info.clientCapabilities.elicitation,
    request: (params, signal) => chain.request(component, 'toClient', 'elicitation/create', params, { signal }),
    complete: (elicitationId) => chain.notify(component, 'toClient', 'elicitation/complete', { elicitationId }),
    toolCallFor: (sessionId, tool) => deps.agentEdge().toolCalls.runningCall(sessionId, tool),
  };
  return {
    name: component.name,
    log,
    info,
    request: (direction, method, params, options) => chain.request(component, direction, method, params, options),
    notify: (direction, method, params) => chain.notify(component, direction, method, params),
    injectMcpServers: (sessionParams, servers) =>
      injectMcpServers(sessionParams, servers, {
        useHttp: agentSupportsHttpMcp(info.agentCapabilities),
        self: deps.self,
        log,
        elicitation,
      }),
    outputFull: (full) => deps.outputFull(full, component),
    traceExternal: (direction, peer, message) => {
      const [from, to] = direction === 'out' ? [component.name, peer] : [peer, component.name];
      deps.trace?.(from, to, message);
    },
  };
}
