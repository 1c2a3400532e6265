// The conductor: one ACP agent to the editor (stdin/stdout), one ACP client to the downstream
// agent it spawns, and the component chain in between. Owns the agent process and the chain;
// the chain is assembled at `initialize`, once the editor's capabilities are known.
import type { Readable, Writable } from 'node:stream';
import { AGENT_EXITED_METHOD, type AgentExitedParams, type SymposiumCapabilitiesMeta } from '../../src/protocol/symposium-ext';
import { LineChannel } from '../jsonrpc/lineChannel';
import { ErrorCodes, isRequest, type RpcMessage } from '../jsonrpc/message';
import type { Logger } from '../log';
import { injectMcpServers, agentSupportsHttpMcp, type SelfCommand } from '../mcp/injector';
import { AgentProcess, agentExitError, type AgentExit } from './agentProcess';
import { assembleChain } from './assembly';
import { Chain } from './chain';
import type { ChainInfo, Component, ComponentContext, ComponentFactory } from './component';
import { AgentEdge, EditorEdge } from './edges';
import type { TraceWriter } from './trace';

export { CONDUCTOR_VERSION } from '../version';
import { CONDUCTOR_VERSION } from '../version';

export interface ConductorOptions {
  agentCommand: string;
  agentArgs: string[];
  /** Added to the agent's environment only (the conductor's own stays as it is). */
  agentEnv?: Record<string, string>;
  components: string[];
  registry: ReadonlyMap<string, ComponentFactory>;
  log: Logger;
  trace?: TraceWriter;
  self: SelfCommand;
  input: Readable;
  output: Writable;
}

export class Conductor {
  private chain: Chain | undefined;
  private readonly editor: LineChannel;
  private readonly agent: AgentProcess;
  private readonly agentEdge = new AgentEdge();
  private clientCapabilities: Record<string, unknown> = {};
  private skipped: { name: string; reason: string }[] = [];
  /** Agent messages that arrive before the chain exists (agents should not send any). */
  private readonly early: RpcMessage[] = [];
  private stopping = false;
  readonly done: Promise<number>;
  private resolveDone!: (code: number) => void;

  constructor(private readonly options: ConductorOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const log = options.log;
    this.editor = new LineChannel(options.input, options.output, {
      message: (m) => this.fromEditor(m),
      invalid: (line, error, id) => {
        log.warn(`invalid message from the editor: ${error.message}`, line.slice(0, 500));
        this.editor.send({ jsonrpc: '2.0', id, error });
      },
      end: () => void this.stop('the editor closed stdin', 0),
    });
    this.agent = new AgentProcess(options.agentCommand, options.agentArgs, log.child('agent'), (m) => this.fromAgent(m), (exit) => this.onAgentExit(exit), options.agentEnv);
  }

  start(): void {
    this.agent.start();
  }

  async stop(reason: string, code: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.options.log.info(`stopping: ${reason}`);
    await this.agent.stop();
    await this.chain?.dispose();
    await this.editor.flush();
    await this.options.trace?.close();
    this.resolveDone(code);
  }

  private fromEditor(message: RpcMessage): void {
    if (this.chain) return this.chain.fromEditor(message);
    if (isRequest(message) && message.method === 'initialize') {
      this.assemble(message.params);
      return this.chain!.fromEditor(message);
    }
    if (isRequest(message)) {
      this.editor.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCodes.invalidRequest, message: `"${message.method}" before "initialize"` } });
    } else {
      this.options.log.warn('message from the editor before initialize dropped', message);
    }
  }

  private fromAgent(message: RpcMessage): void {
    if (this.chain) this.chain.fromAgent(message);
    else this.early.push(message);
  }

  private assemble(initializeParams: unknown): void {
    const params = (typeof initializeParams === 'object' && initializeParams !== null ? initializeParams : {}) as { clientCapabilities?: unknown };
    const caps = params.clientCapabilities;
    this.clientCapabilities = typeof caps === 'object' && caps !== null ? (caps as Record<string, unknown>) : {};
    const { components, skipped } = assembleChain(this.options.components, this.options.registry, this.clientCapabilities);
    this.skipped = skipped;
    for (const s of skipped) this.options.log.info(`component "${s.name}" left out: ${s.reason}`);
    const describe = (): SymposiumCapabilitiesMeta => ({ conductorVersion: CONDUCTOR_VERSION, components: components.map((c) => c.name), skipped: this.skipped });
    const all: Component[] = [new EditorEdge(describe), ...components, this.agentEdge];
    this.options.log.info(`chain: editor → ${all.map((c) => c.name).join(' → ')} → agent`);
    const trace = this.options.trace;
    this.chain = new Chain(all, {
      log: this.options.log.child('chain'),
      editor: { name: 'editor', send: (m) => this.editor.send(m) },
      agent: { name: 'agent', send: (m) => this.sendToAgent(m) },
      trace: trace ? (from, to, m) => trace.record(from, to, m) : undefined,
      contextFor: (component, chain) => this.contextFor(component, chain),
    });
    for (const m of this.early.splice(0)) this.chain.fromAgent(m);
  }

  private sendToAgent(message: RpcMessage): void {
    const exit = this.agent.exit;
    if (!exit) return this.agent.send(message);
    // The agent is gone: a request fails at once (asynchronously, like a real response would).
    if (isRequest(message)) queueMicrotask(() => this.chain?.fromAgent({ jsonrpc: '2.0', id: message.id, error: agentExitError(exit) }));
  }

  private onAgentExit(exit: AgentExit): void {
    const error = agentExitError(exit);
    if (this.stopping) return; // we stopped it ourselves
    this.options.log.error(error.message);
    this.chain?.failRequestsToAgent(error);
    const params: AgentExitedParams = { message: error.message, exitCode: exit.code, signal: exit.signal, stderrTail: exit.stderrTail };
    this.editor.send({ jsonrpc: '2.0', method: AGENT_EXITED_METHOD, params });
    // A conductor without its agent is useless: end, so the editor sees one process exit.
    void this.stop('the agent exited', exit.code === 0 ? 0 : 1);
  }

  private contextFor(component: Component, chain: Chain): ComponentContext {
    const conductor = this;
    const info: ChainInfo = {
      get clientCapabilities() { return conductor.clientCapabilities; },
      get agentCapabilities() { return conductor.agentEdge.agentCapabilities; },
    };
    const log = this.options.log.child(component.name);
    return {
      name: component.name,
      log,
      info,
      request: (direction, method, params, options) => chain.request(component, direction, method, params, options),
      notify: (direction, method, params) => chain.notify(component, direction, method, params),
      injectMcpServers: (sessionParams, servers) =>
        injectMcpServers(sessionParams, servers, { useHttp: agentSupportsHttpMcp(info.agentCapabilities), self: this.options.self, log }),
    };
  }
}
