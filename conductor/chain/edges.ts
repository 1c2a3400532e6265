// The two built-in ends of the chain. The editor edge checks the params the conductor itself
// relies on and advertises the assembled chain in `agentCapabilities._meta.symposium`; the
// agent edge records the agent's capabilities (the MCP injector needs `mcpCapabilities`).
import { SYMPOSIUM_META_KEY, type SymposiumCapabilitiesMeta } from '../../src/protocol/symposium-ext';
import { ErrorCodes, type RpcOutcome } from '../jsonrpc/message';
import type { Component, IncomingRequest } from './component';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returns an error message when `params` of a method the conductor reads are malformed. */
export function checkParams(method: string, params: unknown): string | undefined {
  const p = isObj(params) ? params : undefined;
  switch (method) {
    case 'initialize':
      if (!p || typeof p.protocolVersion !== 'number') return 'initialize needs a numeric "protocolVersion"';
      if (p.clientCapabilities !== undefined && !isObj(p.clientCapabilities)) return '"clientCapabilities" must be an object';
      return undefined;
    case 'session/new':
    case 'session/load':
    case 'session/resume':
      if (!p || typeof p.cwd !== 'string' || !(p.cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p.cwd))) return `${method} needs an absolute "cwd"`;
      if (p.mcpServers !== undefined && !Array.isArray(p.mcpServers)) return '"mcpServers" must be an array';
      if (method !== 'session/new' && typeof p.sessionId !== 'string') return `${method} needs a "sessionId"`;
      return undefined;
    case 'session/prompt':
      if (!p || typeof p.sessionId !== 'string') return 'session/prompt needs a "sessionId"';
      if (!Array.isArray(p.prompt)) return 'session/prompt needs a "prompt" array of content blocks';
      return undefined;
    case 'session/cancel':
      if (!p || typeof p.sessionId !== 'string') return 'session/cancel needs a "sessionId"';
      return undefined;
    default:
      return undefined;
  }
}

export class EditorEdge implements Component {
  readonly name = 'editor-edge';
  constructor(private readonly describe: () => SymposiumCapabilitiesMeta) {}

  onRequest(request: IncomingRequest): void {
    if (request.direction !== 'toAgent') return request.forward();
    const problem = checkParams(request.method, request.params);
    if (problem) return request.fail({ code: ErrorCodes.invalidParams, message: problem });
    if (request.method !== 'initialize') return request.forward();
    request.forwardThen(undefined, (outcome) => this.advertise(outcome));
  }

  private advertise(outcome: RpcOutcome): RpcOutcome {
    if (!('result' in outcome) || !isObj(outcome.result)) return outcome;
    const result = outcome.result;
    const caps = isObj(result.agentCapabilities) ? result.agentCapabilities : {};
    const meta = isObj(caps._meta) ? caps._meta : {};
    return { result: { ...result, agentCapabilities: { ...caps, _meta: { ...meta, [SYMPOSIUM_META_KEY]: this.describe() } } } };
  }
}

export class AgentEdge implements Component {
  readonly name = 'agent-edge';
  agentCapabilities: Obj | undefined;

  onRequest(request: IncomingRequest): void {
    if (request.direction !== 'toAgent' || request.method !== 'initialize') return request.forward();
    request.forwardThen(undefined, (outcome) => {
      if ('result' in outcome && isObj(outcome.result) && isObj(outcome.result.agentCapabilities)) {
        this.agentCapabilities = outcome.result.agentCapabilities;
      }
      return outcome;
    });
  }
}
