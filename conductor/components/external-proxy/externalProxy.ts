// An external proxy: a component of the chain that is another process, spoken to with the ACP
// proxy protocol (dialect.ts) over its stdin/stdout. At its position in the chain:
//   - from upstream (the editor's side): `initialize` goes to the proxy as `proxy/initialize`,
//     everything else plain; the proxy's answer is the answer;
//   - from downstream (the agent's side): wrapped in `proxy/successor` ("from your successor");
//   - from the proxy: `proxy/successor {method, params}` is unwrapped and sent on downstream, its
//     outcome returned to the proxy unchanged; a plain message goes upstream.
// Ids are per hop, as everywhere in the chain; `$/cancel_request` is hop-local and translated
// both ways. Every line from the proxy is delivered synchronously, in order, so a prompt's
// answer never overtakes the updates the proxy sent before it.
//
// The process is owned like the agent's (AgentProcess: own process group, stderr tail, no
// orphans). If it exits, everything waiting on it fails with its exit reason, every later request
// that reaches it is refused with that reason, and `exited` settles: the conductor tells the editor
// and keeps answering (the chat's Restart builds a new chain).
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { AgentProcess, agentExitError, type AgentExit } from '../../agentProcess';
import { Holds } from '../../holds';
import { RpcCallError } from '../../chain/chain';
import type { Component, ComponentContext, ComponentFactory, IncomingNotification, IncomingRequest } from '../../chain/component';
import {
  isRequest,
  isResponse,
  outcomeOf,
  type JsonRpcId,
  type MessageKind,
  type RpcError,
  type RpcMessage,
  type RpcOutcome,
} from '../../jsonrpc/message';
import type { Logger } from '../../log';
import { isProxyInitializeMethod, isSuccessorMethod, PROXY_DIALECTS, unwrap, wrap, type ProxyDialect } from './dialect';
import type { ProxySpec } from './proxySpec';
import { errorText } from '../../../src/protocol/errorText';
import { DisposableBase } from '../../../src/node/disposable';

const CANCEL_REQUEST = '$/cancel_request';

export class ExternalProxy extends DisposableBase implements Component {
  readonly name: string;
  readonly exited: Promise<RpcError>;
  private resolveExited!: (error: RpcError) => void;
  private readonly process: AgentProcess;
  private cx: ComponentContext | undefined;
  private dialect: ProxyDialect = 'spec';
  private nextId = 1;
  /** Requests sent to the proxy, by our id: where their outcome goes. */
  private readonly pending = new Map<JsonRpcId, (outcome: RpcOutcome) => void>();
  /** Requests of the proxy's still running on our side, by its id. */
  private readonly running = new Map<string, AbortController>();
  private exitError: RpcError | undefined;
  /** Notifications that reached the proxy after it ended (logged once, then counted). */
  private droppedNotifications = 0;
  /** Why the proxy's stdout is not being read just now (an output it feeds is full). */
  private readonly output = new Holds((held) => this.process.pauseOutput(held));

  constructor(
    spec: ProxySpec,
    private readonly log: Logger,
  ) {
    super();
    this.name = spec.name;
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.process = new AgentProcess(
      spec.command,
      spec.args,
      log,
      {
        message: (m) => this.fromProxy(m),
        invalid: (line, error, id, kind) => this.refused(line, error, id, kind),
        // The proxy is not reading: the conductor stops reading everything else that could feed it.
        backpressure: (full) => {
          this.log.debug(full ? 'proxy stdin full: holding the other inputs' : 'proxy stdin drained');
          this.cx?.outputFull?.(full);
        },
        exit: (exit) => this.onExit(exit),
      },
      spec.env,
      `proxy "${spec.name}"`,
    );
    this.process.start();
  }

  // ---- from the chain -------------------------------------------------------------------------

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    this.cx = cx;
    if (this.exitError) return request.fail(this.exitError);
    const settle = (outcome: RpcOutcome): void => ('error' in outcome ? request.fail(outcome.error) : request.respond(outcome.result));
    if (request.direction === 'toClient') {
      return this.call(PROXY_DIALECTS[this.dialect].successor, wrap(request.method, request.params), request.signal, settle);
    }
    if (request.method !== 'initialize') return this.call(request.method, request.params, request.signal, settle);
    // Which dialect the proxy speaks: the spec's first, the Rust conductor's if it does not know it
    // (method not found, or an SDK's "not initialized" gate refusing an unknown method).
    const initialize = (dialect: ProxyDialect): void =>
      this.call(PROXY_DIALECTS[dialect].initialize, request.params, request.signal, (outcome) => {
        const refused =
          'error' in outcome && (outcome.error.code === ErrorCodes.methodNotFound || outcome.error.code === ErrorCodes.invalidRequest);
        if (dialect === 'spec' && refused) {
          this.log.info(`does not know ${PROXY_DIALECTS.spec.initialize}; trying ${PROXY_DIALECTS.sacp.initialize}`);
          this.dialect = 'sacp';
          return initialize('sacp');
        }
        if ('result' in outcome) this.log.info(`initialized (dialect ${PROXY_DIALECTS[dialect].initialize})`);
        else if (refused) {
          const message = `proxy "${this.name}" does not speak the ACP proxy protocol (neither ${PROXY_DIALECTS.spec.initialize} nor ${PROXY_DIALECTS.sacp.initialize}): ${outcome.error.message}`;
          this.log.error(message);
          return settle({ error: { ...outcome.error, message } });
        }
        settle(outcome);
      });
    initialize(this.dialect);
  }

  onNotification(notification: IncomingNotification, cx: ComponentContext): void {
    this.cx = cx;
    if (this.exitError) return this.droppedAfterExit(notification.method);
    if (notification.direction === 'toAgent')
      return this.send({ jsonrpc: '2.0', method: notification.method, params: notification.params });
    this.send({ jsonrpc: '2.0', method: PROXY_DIALECTS[this.dialect].successor, params: wrap(notification.method, notification.params) });
  }

  /** The sessions it served end here: their notifications (updates, cancels) have nowhere to go. */
  private droppedAfterExit(method: string): void {
    if (this.droppedNotifications++ === 0) this.log.warn(`${method} dropped: the proxy is gone (later notifications are dropped silently)`);
  }

  holdInput(reason: string, held: boolean): void {
    this.output.set(reason, held);
  }

  override async dispose(): Promise<void> {
    super.dispose();
    for (const abort of this.running.values()) abort.abort();
    this.running.clear();
    await this.process.stop();
  }

  /** Sends a request to the proxy; `done` gets its outcome (or the proxy's exit reason). */
  private call(method: string, params: unknown, signal: AbortSignal, done: (outcome: RpcOutcome) => void): void {
    const id = this.nextId++;
    this.pending.set(id, done);
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    signal.addEventListener(
      'abort',
      () => {
        if (this.pending.has(id)) this.send({ jsonrpc: '2.0', method: CANCEL_REQUEST, params: { requestId: id } });
      },
      { once: true },
    );
  }

  /** The proxy process in the trace: its own wire shows as `<name> → <name> (process)` and back. */
  private get peer(): string {
    return `${this.name} (process)`;
  }

  private send(message: RpcMessage): void {
    try {
      this.cx?.traceExternal?.('out', this.peer, message);
      this.process.send(message);
    } catch (err) {
      // Not serializable: a request fails back to its sender rather than wait forever.
      this.log.error(`could not send ${'method' in message ? message.method : 'a response'} to the proxy`, err);
      if ('id' in message && 'method' in message)
        this.answer(message.id as JsonRpcId, { error: { code: ErrorCodes.internalError, message: String(err) } });
    }
  }

  /** A response to one of our requests, as if the proxy had sent it. */
  private answer(id: JsonRpcId, outcome: RpcOutcome): void {
    const done = this.pending.get(id);
    this.pending.delete(id);
    done?.(outcome);
  }

  // ---- from the proxy -------------------------------------------------------------------------

  private fromProxy(message: RpcMessage): void {
    this.cx?.traceExternal?.('in', this.peer, message);
    try {
      this.deliver(message);
    } catch (err) {
      this.log.error(`delivering a message from the proxy failed`, err);
      if (isRequest(message)) this.reply(message.id, { error: internal(err) });
    }
  }

  private deliver(message: RpcMessage): void {
    if (isResponse(message)) {
      if (message.id === null || !this.pending.has(message.id))
        return this.log.warn(`response for unknown id ${String(message.id)} dropped`);
      return this.answer(message.id, outcomeOf(message));
    }
    if (message.method === CANCEL_REQUEST) {
      const requestId = (message.params as { requestId?: JsonRpcId } | undefined)?.requestId;
      this.running.get(String(requestId))?.abort();
      return;
    }
    const request = isRequest(message) ? message : undefined;
    const cx = this.cx;
    if (!cx || isProxyInitializeMethod(message.method)) {
      const why = cx ? `${message.method} is only sent by the conductor` : `${message.method} before initialize`;
      if (request) this.reply(request.id, { error: { code: ErrorCodes.invalidRequest, message: why } });
      else this.log.warn(`${why}: dropped`);
      return;
    }
    // Wrapped: for our successor (downstream). Plain: for our client (upstream).
    const wrapped = isSuccessorMethod(message.method) ? unwrap(message.params) : undefined;
    if (isSuccessorMethod(message.method) && !wrapped) {
      const why = `${message.method} params must be {method, params?}`;
      this.log.warn(`${why}: ${request ? 'answered with an error' : 'dropped'}`);
      if (request) this.reply(request.id, { error: { code: ErrorCodes.invalidParams, message: why } });
      return;
    }
    const direction = wrapped ? 'toAgent' : 'toClient';
    const method = wrapped?.method ?? message.method;
    const params = wrapped ? wrapped.params : message.params;
    if (!request) return cx.notify(direction, method, params);
    const key = String(request.id);
    const abort = new AbortController();
    this.running.set(key, abort);
    let replied = false;
    const finish = (outcome: RpcOutcome): void => {
      if (replied) return;
      replied = true;
      this.running.delete(key);
      this.reply(request.id, outcome);
    };
    // onResponse runs as the response is routed, before any later message: the answer reaches
    // the proxy in the order the chain saw it.
    cx.request(direction, method, params, { signal: abort.signal, onResponse: finish }).catch((err: unknown) =>
      finish({ error: err instanceof RpcCallError ? err.error : internal(err) }),
    );
  }

  private reply(id: JsonRpcId, outcome: RpcOutcome): void {
    this.send('error' in outcome ? { jsonrpc: '2.0', id, error: outcome.error } : { jsonrpc: '2.0', id, result: outcome.result });
  }

  /** A line from the proxy that is not an acceptable message: logged; whoever waits gets an error. */
  private refused(line: string, error: RpcError, id: JsonRpcId | null, kind: MessageKind | undefined): void {
    this.log.warn(`refused a line from the proxy: ${error.message}`, line.slice(0, 200));
    if (id === null) return;
    if (kind === 'request') this.reply(id, { error });
    else if (kind === 'response') this.answer(id, { error: { ...error, message: `the proxy's response was refused: ${error.message}` } });
  }

  private onExit(exit: AgentExit): void {
    const error = agentExitError(exit, `proxy "${this.name}"`);
    this.exitError = error;
    for (const abort of this.running.values()) abort.abort();
    this.running.clear();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const done of waiting) done({ error });
    if (!this.isDisposed) {
      this.log.error(error.message);
      this.resolveExited(error);
    }
  }
}

const internal = (err: unknown): RpcError => ({
  code: ErrorCodes.internalError,
  message: errorText(err),
});

/** The factory that puts a proxy process into the chain under its name. */
export function externalProxyFactory(spec: ProxySpec, log: Logger): ComponentFactory {
  return {
    name: spec.name,
    description: `External proxy: ${[spec.command, ...spec.args].join(' ')}`,
    kind: 'component',
    create: () => new ExternalProxy(spec, log.child(`proxy:${spec.name}`)),
  };
}
