// The conductor: one ACP agent to the editor (stdin/stdout), one ACP client to the downstream
// agent it spawns, and the component chain in between. Owns the agent process and the chain;
// the chain is assembled at `initialize`, once the editor's capabilities are known (and again
// at the next `initialize` if the agent rejects that one: the accepted one decides the chain).
//
// Hardening: the editor and agent pipes are wired with backpressure (a side that stops reading
// stops the other side being read, see LineChannel; with external proxies, every other input, see
// outputFull and holds.ts); a line that cannot be accepted is answered
// or skipped by its kind; and every delivery is guarded, so one bad message costs that message,
// never the process and every session on it.
import type { Readable, Writable } from 'node:stream';
import { ErrorCodes } from '../src/protocol/errorCodes';
import { errorText } from '../src/protocol/errorText';
import { isObject } from '../src/protocol/guards';
import {
  AGENT_EXITED_METHOD,
  COMPONENT_EXITED_METHOD,
  type AgentExitedParams,
  type ComponentExitedParams,
  type SymposiumCapabilitiesMeta,
} from '../src/protocol/symposium-ext';
import { LineChannel } from './jsonrpc/lineChannel';
import {
  isRequest,
  isResponse,
  type JsonRpcId,
  type MessageKind,
  type RpcError,
  type RpcMessage,
  type RpcResponse,
} from './jsonrpc/message';
import type { Logger } from './log';
import type { SelfCommand } from './mcp/injector';
import { agentMcpTransports, bridgeRemoteServers } from './mcp/remoteBridge';
import { AgentProcess, agentExitError, type AgentExit } from './agentProcess';
import { Holds } from './holds';
import { assembleChain } from './chain/assembly';
import { Chain } from './chain/chain';
import type { Component, ComponentFactory } from './chain/component';
import { componentContext } from './chain/componentContext';
import { AgentEdge, EditorEdge } from './chain/edges';
import type { TraceSink } from './trace';
import { CONDUCTOR_VERSION } from './version';

export interface ConductorOptions {
  agentCommand: string;
  agentArgs: string[];
  /** Added to the agent's environment only (the conductor's own stays as it is). */
  agentEnv?: Record<string, string>;
  components: string[];
  /**
   * The component factories by name, or their loading (cli.ts loads them while the agent starts):
   * until it settles the editor is not read, so `initialize` always finds them.
   */
  registry: ReadonlyMap<string, ComponentFactory> | Promise<ReadonlyMap<string, ComponentFactory>>;
  log: Logger;
  trace?: TraceSink;
  self: SelfCommand;
  input: Readable;
  output: Writable;
  /**
   * How long after `session/cancel` the agent has to answer the prompt before the conductor
   * answers it `cancelled` itself. Default: SYMPOSIUM_CANCEL_GRACE_MS, else 5000.
   */
  cancelGraceMs?: number;
  /** Components this conductor never places, by name, with why (assembly.ts). */
  withheld?: ReadonlyMap<string, string>;
}

const DEFAULT_CANCEL_GRACE_MS = 5000;
/** Agent messages held before the chain exists; past this, the agent is not read until then. */
const MAX_EARLY = 1000;

function cancelGraceFromEnv(): number {
  const ms = Number(process.env.SYMPOSIUM_CANCEL_GRACE_MS);
  return process.env.SYMPOSIUM_CANCEL_GRACE_MS && Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_CANCEL_GRACE_MS;
}

/** A short description of a message for logs (never the message itself: it may be huge or cyclic). */
const summarize = (m: RpcMessage): string =>
  'method' in m ? `${String(m.method)}${'id' in m ? ` (id ${String(m.id)})` : ''}` : `response (id ${String(m.id)})`;

export class Conductor {
  private chain: Chain | undefined;
  private readonly editor: LineChannel;
  private readonly agent: AgentProcess;
  private agentEdge: AgentEdge;
  /** `none`: no initialize has been accepted yet, so the next one (re)assembles the chain. */
  private initialize: 'none' | 'pending' | 'accepted' = 'none';
  private readonly cancelGraceMs: number;
  private clientCapabilities: Record<string, unknown> = {};
  private skipped: { name: string; reason: string }[] = [];
  /** Agent messages that arrive before the chain exists (agents should not send any). */
  private readonly early: RpcMessage[] = [];
  private stopping = false;
  /** Why the editor's input, or the agent's output, is not being read just now (backpressure). */
  private readonly editorInput: Holds;
  private readonly agentOutput: Holds;
  /** The chain's components that own an input of their own (external proxies). */
  private inputs: Component[] = [];
  private registry: ReadonlyMap<string, ComponentFactory> | undefined;
  readonly done: Promise<number>;
  private resolveDone!: (code: number) => void;

  constructor(private readonly options: ConductorOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const log = options.log;
    this.cancelGraceMs = options.cancelGraceMs ?? cancelGraceFromEnv();
    this.agentEdge = this.makeAgentEdge();
    this.editorInput = new Holds((held) => (held ? this.editor.pauseInput() : this.editor.resumeInput()));
    this.agentOutput = new Holds((held) => this.agent.pauseOutput(held));
    this.editor = new LineChannel(options.input, options.output, {
      message: (m) => this.guard('editor', m, () => this.fromEditor(m)),
      invalid: (line, error, id, kind) => this.refused('editor', line, error, id, kind),
      // The editor is not reading: stop reading the agent (and proxies), whose messages would pile up here.
      backpressure: (full) => this.outputFull(full, 'editor'),
      end: () => void this.stop('the editor closed stdin', 0),
    });
    if (options.registry instanceof Map) this.registry = options.registry;
    else this.awaitRegistry(Promise.resolve(options.registry));
    this.agent = new AgentProcess(
      options.agentCommand,
      options.agentArgs,
      log.child('agent'),
      {
        message: (m) => this.guard('agent', m, () => this.fromAgent(m)),
        invalid: (line, error, id, kind) => this.refused('agent', line, error, id, kind),
        // The agent is not reading: stop reading the editor (and proxies).
        backpressure: (full) => this.outputFull(full, 'agent'),
        exit: (exit) => this.onAgentExit(exit),
      },
      options.agentEnv,
    );
  }

  start(): void {
    this.agent.start();
  }

  private loadedRegistry(): ReadonlyMap<string, ComponentFactory> {
    // Cannot happen while the editor is not read (awaitRegistry); a clear error if it ever does.
    if (!this.registry) throw new Error('the components are still loading');
    return this.registry;
  }

  private awaitRegistry(loading: Promise<ReadonlyMap<string, ComponentFactory>>): void {
    const reason = 'loading components';
    this.editorInput.set(reason, true);
    loading.then(
      (registry) => {
        this.registry = registry;
        this.editorInput.set(reason, false);
      },
      (err: unknown) => {
        this.options.log.error(`the components could not be loaded: ${errorText(err)}`);
        void this.stop(`the components could not be loaded: ${errorText(err)}`, 1);
      },
    );
  }

  private makeAgentEdge(): AgentEdge {
    const log = this.options.log.child('agent-edge');
    return new AgentEdge(
      this.cancelGraceMs,
      log,
      () => this.agent.outputPaused,
      (servers, caps) => {
        const { mcpServers, bridged } = bridgeRemoteServers(servers, agentMcpTransports(caps), this.options.self);
        if (bridged.length) log.info(`MCP servers the agent takes only over stdio, bridged: ${bridged.join(', ')}`);
        return mcpServers;
      },
    );
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

  /** Runs the delivery of one message; an exception costs that message (a request is answered). */
  private guard(from: 'editor' | 'agent', message: RpcMessage, deliver: () => void): void {
    try {
      deliver();
    } catch (err) {
      this.options.log.error(`delivering ${summarize(message)} from the ${from} failed: ${errorText(err)}`);
      if (!isRequest(message)) return;
      const response: RpcResponse = {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ErrorCodes.internalError, message: `the conductor could not deliver ${summarize(message)}: ${errorText(err)}` },
      };
      try {
        if (from === 'editor') this.editor.send(response);
        else this.agent.send(response);
      } catch {
        /* nothing more to do */
      }
    }
  }

  /** A line the editor or agent sent that is not an acceptable message (malformed, too deep…). */
  private refused(from: 'editor' | 'agent', line: string, error: RpcError, id: JsonRpcId | null, kind: MessageKind | undefined): void {
    const log = this.options.log;
    if (kind === 'notification') {
      // Nobody waits for an answer: skipping it costs exactly that notification.
      log.warn(`skipped a notification from the ${from}: ${error.message}`, line.slice(0, 200));
    } else if (kind === 'response') {
      // Someone waits for this response: they get an error instead of waiting forever.
      log.warn(`a response from the ${from} was refused: ${error.message}; its request fails instead`, line.slice(0, 200));
      if (id === null) return;
      const failed: RpcResponse = {
        jsonrpc: '2.0',
        id,
        error: { ...error, message: `the ${from}'s response was refused: ${error.message}` },
      };
      this.guard(from, failed, () => (from === 'editor' ? this.fromEditor(failed) : this.fromAgent(failed)));
    } else if (from === 'editor') {
      log.warn(`invalid message from the editor: ${error.message}`, line.slice(0, 500));
      this.editor.send({ jsonrpc: '2.0', id, error });
    } else if (kind === 'request') {
      log.warn(`refused a request from the agent: ${error.message}`, line.slice(0, 200));
      this.agent.send({ jsonrpc: '2.0', id, error });
    } else {
      // Banners, stray logs on stdout: skipped, the session goes on.
      log.warn(`skipped a line on the agent's stdout that is not JSON-RPC (${error.message})`, line.slice(0, 500));
    }
  }

  private fromEditor(message: RpcMessage): void {
    if (isRequest(message) && message.method === 'initialize' && this.initialize === 'none') {
      this.assemble(message.params);
      return this.chain!.fromEditor(message);
    }
    if (this.chain) return this.chain.fromEditor(message);
    if (isRequest(message)) {
      this.editor.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ErrorCodes.invalidRequest, message: `"${message.method}" before "initialize"` },
      });
    } else {
      this.options.log.warn('message from the editor before initialize dropped', message);
    }
  }

  private fromAgent(message: RpcMessage): void {
    if (this.chain) return this.chain.fromAgent(message);
    this.early.push(message);
    if (this.early.length >= MAX_EARLY) this.agentOutput.set('early', true);
  }

  private assemble(initializeParams: unknown): void {
    // A chain assembled from a rejected initialize goes: its components were chosen for
    // capabilities the editor did not end up with.
    const previous = this.chain;
    if (previous) {
      this.options.log.info('the agent rejected initialize: assembling the chain again');
      void previous.dispose();
      this.agentEdge = this.makeAgentEdge();
    }
    this.initialize = 'pending';
    const caps = isObject(initializeParams) ? initializeParams.clientCapabilities : undefined;
    this.clientCapabilities = isObject(caps) ? caps : {};
    const { components, skipped } = assembleChain(
      this.options.components,
      this.loadedRegistry(),
      this.clientCapabilities,
      this.options.withheld,
    );
    this.skipped = skipped;
    for (const s of skipped) this.options.log.info(`component "${s.name}" left out: ${s.reason}`);
    const describe = (): SymposiumCapabilitiesMeta => ({
      conductorVersion: CONDUCTOR_VERSION,
      components: components.map((c) => c.name),
      skipped: this.skipped,
      agentMcpCapabilities: agentMcpTransports(this.agentEdge.agentCapabilities),
    });
    const onInitialize = (accepted: boolean): void => {
      if (this.chain === chain && this.initialize !== 'accepted') this.initialize = accepted ? 'accepted' : 'none';
    };
    const all: Component[] = [new EditorEdge(describe, onInitialize), ...components, this.agentEdge];
    this.options.log.info(`chain: editor → ${all.map((c) => c.name).join(' → ')} → agent`);
    const trace = this.options.trace;
    const chain: Chain = new Chain(all, {
      log: this.options.log.child('chain'),
      editor: { name: 'editor', send: (m) => this.sendOut('editor', m, () => this.editor.send(m)) },
      agent: { name: 'agent', send: (m) => this.sendToAgent(m) },
      trace: trace ? (from, to, m, via) => this.sendOut('trace', m, () => trace.record(from, to, m, via)) : undefined,
      contextFor: (component, c) =>
        componentContext(component, c, {
          log: this.options.log,
          self: this.options.self,
          clientCapabilities: () => this.clientCapabilities,
          agentEdge: () => this.agentEdge,
          outputFull: (full, owner) => this.outputFull(full, owner),
          trace: trace ? (from, to, m) => this.sendOut('trace', m, () => trace.record(from, to, m)) : undefined,
        }),
    });
    this.chain = chain;
    for (const component of components) void component.exited?.then((error) => this.onComponentExit(chain, component, error));
    for (const m of this.early.splice(0)) this.guard('agent', m, () => chain.fromAgent(m));
    this.agentOutput.set('early', false);
    this.inputs = components.filter((c) => c.holdInput !== undefined);
  }

  /**
   * An output is full (or drained): the inputs that feed it stop (or resume) being read — every
   * input but the one of the same peer, which must go on being read for that peer to drain.
   */
  private outputFull(full: boolean, owner: 'editor' | 'agent' | Component): void {
    const reason = typeof owner === 'string' ? owner : `component:${owner.name}`;
    if (owner !== 'editor') this.editorInput.set(reason, full);
    if (owner !== 'agent') this.agentOutput.set(reason, full);
    for (const c of this.inputs) if (c !== owner) c.holdInput?.(reason, full);
  }

  private sendToAgent(message: RpcMessage): void {
    const exit = this.agent.exit;
    if (!exit) return this.sendOut('agent', message, () => this.agent.send(message));
    // The agent is gone: a request fails at once (asynchronously, like a real response would).
    if (isRequest(message)) this.bounce('agent', message.id, agentExitError(exit));
  }

  /**
   * Writes one message out of the chain. If that throws (it cannot be serialized), the message
   * is lost, but not silently: a request is failed back to its sender, a response is replaced
   * by an error, so nobody waits forever.
   */
  private sendOut(to: 'editor' | 'agent' | 'trace', message: RpcMessage, write: () => void): void {
    try {
      write();
    } catch (err) {
      const why = `could not send ${summarize(message)} to the ${to}: ${errorText(err)}`;
      this.options.log.error(why);
      if (to === 'trace') return;
      const error: RpcError = { code: ErrorCodes.internalError, message: why };
      if (isRequest(message)) this.bounce(to, message.id, error);
      else if (isResponse(message) && message.id !== null) {
        try {
          (to === 'editor' ? this.editor : this.agent).send({ jsonrpc: '2.0', id: message.id, error });
        } catch {
          /* nothing more to do */
        }
      }
    }
  }

  /** Answers a request the chain sent toward `peer` with `error`, as if `peer` had. */
  private bounce(peer: 'editor' | 'agent', id: JsonRpcId, error: RpcError): void {
    const response: RpcResponse = { jsonrpc: '2.0', id, error };
    queueMicrotask(() =>
      this.guard(peer, response, () => (peer === 'editor' ? this.chain?.fromEditor(response) : this.chain?.fromAgent(response))),
    );
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

  /**
   * A component the chain cannot work without is gone (an external proxy process exited). What
   * waited on it has failed with `error`, and it answers whatever reaches it later with the same
   * error (the component does both). Once the chain is running, the conductor stays up: the
   * editor is told which component ended and why (`_symposium/component_exited`), every session
   * that goes through it fails cleanly, and the chat's Restart builds a new chain. Before
   * `initialize` was accepted (a proxy that cannot start) there is no chain to keep: the conductor
   * ends, like when the agent cannot start.
   */
  private onComponentExit(chain: Chain, component: Component, error: RpcError): void {
    if (this.stopping || this.chain !== chain) return;
    this.options.log.error(`component "${component.name}" is gone: ${error.message}`);
    const data = isObject(error.data) ? error.data : {};
    const exit: AgentExitedParams = {
      message: error.message,
      exitCode: typeof data.exitCode === 'number' ? data.exitCode : null,
      signal: typeof data.signal === 'string' ? data.signal : null,
      stderrTail: typeof data.stderrTail === 'string' ? data.stderrTail : '',
    };
    if (this.initialize !== 'accepted') {
      this.editor.send({ jsonrpc: '2.0', method: AGENT_EXITED_METHOD, params: exit });
      return void this.stop(`component "${component.name}" exited before the chain was running`, 1);
    }
    const params: ComponentExitedParams = { ...exit, component: component.name };
    this.editor.send({ jsonrpc: '2.0', method: COMPONENT_EXITED_METHOD, params });
  }
}
