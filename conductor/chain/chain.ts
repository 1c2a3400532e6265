// The router that runs components as a chain. Positions: 0 is the editor's edge, 1..N are the
// components, N+1 is the agent's edge. A message moves one position at a time; each position
// that sends a request gives it a fresh id (ids are per hop, so ids from the editor, the agent
// and components can never collide) and remembers where its response must go.
//
// Delivery is synchronous: a message read from the editor or the agent runs through every
// component that forwards it synchronously before the next message is read, which is what keeps
// the stream ordered. `$/cancel_request` is handled here, not by components: it is translated
// to the forwarded id at every hop and aborts the request's signal where it is being answered.
import type { Logger } from '../log';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import {
  isNotification,
  isRequest,
  outcomeOf,
  responseFor,
  type JsonRpcId,
  type RpcError,
  type RpcMessage,
  type RpcNotification,
  type RpcOutcome,
  type RpcRequest,
} from '../jsonrpc/message';
import type { Component, ComponentContext, Direction, IncomingNotification, IncomingRequest, RequestOptions } from './component';

/** A peer outside the chain: the editor (above position 0) or the agent (below position N+1). */
export interface ExternalPeer {
  readonly name: string;
  send(message: RpcMessage): void;
}

/**
 * Records one hop of `message`. `via`: the components it passed by on the way from `from` to `to`
 * without any of them looking at it (a notification none of them wants), in order; the hop
 * stands for every hop in between, with the message unchanged.
 */
export type TraceHook = (from: string, to: string, message: RpcMessage, via?: readonly string[]) => void;

interface Outgoing {
  onOutcome(outcome: RpcOutcome): void;
}

interface Incoming {
  /**
   * Made when a handler first reads `request.signal`: most requests are forwarded without anyone
   * looking, and an AbortController per request per hop was most of a forwarded request's cost.
   */
  abort?: AbortController;
  /** Cancelled (or the chain disposed) before anyone asked for the signal. */
  cancelled?: boolean;
  forwardedAs?: JsonRpcId;
}

function cancel(incoming: Incoming): void {
  incoming.cancelled = true;
  incoming.abort?.abort();
}

function signalOf(incoming: Incoming): AbortSignal {
  if (!incoming.abort) {
    incoming.abort = new AbortController();
    if (incoming.cancelled) incoming.abort.abort();
  }
  return incoming.abort.signal;
}

const CANCEL_REQUEST = '$/cancel_request';

export class RpcCallError extends Error {
  constructor(readonly error: RpcError) {
    super(error.message);
  }
}

class Node {
  readonly outgoing = new Map<JsonRpcId, Outgoing>();
  readonly incoming = new Map<string, Incoming>();
  private nextId = 1;
  constructor(
    readonly position: number,
    readonly component: Component,
    readonly context: (node: Node) => ComponentContext,
  ) {}
  allocateId(): number {
    return this.nextId++;
  }
}

export interface ChainOptions {
  log: Logger;
  editor: ExternalPeer;
  agent: ExternalPeer;
  trace?: TraceHook;
  /** Builds the context a component's handlers receive. */
  contextFor(component: Component, chain: Chain): ComponentContext;
}

export class Chain {
  private readonly nodes: Node[];
  private disposed = false;

  /** `components` in chain order, editor side first; the edges are included by the caller. */
  constructor(
    components: readonly Component[],
    private readonly options: ChainOptions,
  ) {
    // Each node's context is made lazily, once, so contexts can refer to the finished chain.
    this.nodes = components.map((component, position) => {
      let context: ComponentContext | undefined;
      return new Node(position, component, () => (context ??= options.contextFor(component, this)));
    });
  }

  /** A message from the editor enters at position 0, travelling toward the agent. */
  fromEditor(message: RpcMessage): void {
    this.receiveExternal(this.nodes[0]!, 'toAgent', message, this.options.editor.name);
  }

  /** A message from the agent enters at the last position, travelling toward the editor. */
  fromAgent(message: RpcMessage): void {
    this.receiveExternal(this.nodes[this.nodes.length - 1]!, 'toClient', message, this.options.agent.name);
  }

  /** Answers every request still waiting on the agent with `error` (the agent is gone). */
  failRequestsToAgent(error: RpcError): void {
    const last = this.nodes[this.nodes.length - 1]!;
    const waiting = [...last.outgoing.entries()];
    last.outgoing.clear();
    for (const [, pending] of waiting) pending.onOutcome({ error });
  }

  /** Requests of a component's own, sent in `direction`. */
  request(component: Component, direction: Direction, method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    const { signal, onResponse } = options;
    const node = this.nodeOf(component);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new RpcCallError({ code: ErrorCodes.requestCancelled, message: 'request cancelled' }));
      let settled = false;
      const id = this.sendRequest(node, direction, { jsonrpc: '2.0', id: 0, method, params }, (outcome) => {
        if (settled) return;
        settled = true;
        onResponse?.(outcome);
        if ('error' in outcome) reject(new RpcCallError(outcome.error));
        else resolve(outcome.result);
      });
      signal?.addEventListener(
        'abort',
        () => {
          if (settled) return;
          settled = true;
          node.outgoing.delete(id);
          this.sendNotification(node, direction, { jsonrpc: '2.0', method: CANCEL_REQUEST, params: { requestId: id } });
          reject(new RpcCallError({ code: ErrorCodes.requestCancelled, message: 'request cancelled' }));
        },
        { once: true },
      );
    });
  }

  notify(component: Component, direction: Direction, method: string, params: unknown): void {
    this.sendNotification(this.nodeOf(component), direction, { jsonrpc: '2.0', method, params });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const node of this.nodes) {
      for (const incoming of node.incoming.values()) cancel(incoming);
      node.incoming.clear();
    }
    await Promise.allSettled(this.nodes.map(async (n) => n.component.dispose?.()));
  }

  // ---- delivery -------------------------------------------------------------------------------

  private nodeOf(component: Component): Node {
    const node = this.nodes.find((n) => n.component === component);
    if (!node) throw new Error(`component ${component.name} is not in this chain`);
    return node;
  }

  /** The name at `position`: a component's, or past either end the editor's or the agent's. */
  private nameOf(position: number): string {
    if (position < 0) return this.options.editor.name;
    if (position >= this.nodes.length) return this.options.agent.name;
    return this.nodes[position]!.component.name;
  }

  private receiveExternal(node: Node, direction: Direction, message: RpcMessage, from: string): void {
    this.route(from, node.position, direction, message);
  }

  /**
   * Carries `message` from `from` to position `at` (or, for a notification, on to the first
   * component from there that looks at it: the others would only pass it on, so it skips them in
   * one hop, traced as one line naming them), then hands it over there.
   */
  private route(from: string, at: number, direction: Direction, message: RpcMessage): void {
    let to = at;
    let via: string[] | undefined;
    if (isNotification(message) && message.method !== CANCEL_REQUEST) {
      const step = direction === 'toAgent' ? 1 : -1;
      for (; to >= 0 && to < this.nodes.length && !looksAt(this.nodes[to]!.component, message.method, direction); to += step)
        (via ??= []).push(this.nodes[to]!.component.name);
    }
    this.options.trace?.(from, this.nameOf(to), message, via);
    if (to < 0) return this.options.editor.send(message);
    if (to >= this.nodes.length) return this.options.agent.send(message);
    this.dispatch(this.nodes[to]!, direction, message);
  }

  /** Hands a message arriving at `node` to the handling for its kind. */
  private dispatch(node: Node, direction: Direction, message: RpcMessage): void {
    if (isRequest(message)) this.receiveRequest(node, direction, message);
    else if (isNotification(message)) this.receiveNotification(node, direction, message);
    else this.receiveResponse(node, message.id, outcomeOf(message));
  }

  /** Sends `message` one position onward in `direction` (see route), or out to the external peer. */
  private transmit(from: Node, direction: Direction, message: RpcMessage): void {
    this.route(from.component.name, direction === 'toAgent' ? from.position + 1 : from.position - 1, direction, message);
  }

  private sendRequest(from: Node, direction: Direction, request: RpcRequest, onOutcome: (o: RpcOutcome) => void): number {
    const id = from.allocateId();
    from.outgoing.set(id, { onOutcome });
    this.transmit(from, direction, { ...request, id });
    return id;
  }

  private sendNotification(from: Node, direction: Direction, notification: RpcNotification): void {
    this.transmit(from, direction, notification);
  }

  private receiveResponse(node: Node, id: JsonRpcId | null, outcome: RpcOutcome): void {
    const pending = id === null ? undefined : node.outgoing.get(id);
    if (!pending) {
      this.options.log.warn(`${node.component.name}: response for unknown request id ${String(id)} dropped`, outcome);
      return;
    }
    node.outgoing.delete(id!);
    pending.onOutcome(outcome);
  }

  private receiveNotification(node: Node, direction: Direction, message: RpcNotification): void {
    if (message.method === CANCEL_REQUEST) return this.receiveCancel(node, direction, message);
    const handler = node.component.onNotification;
    if (!handler) return this.sendNotification(node, direction, message);
    let forwarded = false;
    const notification: IncomingNotification = {
      method: message.method,
      params: message.params,
      direction,
      forward: (params?: unknown) => {
        if (forwarded) return;
        forwarded = true;
        this.sendNotification(node, direction, params === undefined ? message : { ...message, params });
      },
    };
    try {
      const result = handler.call(node.component, notification, node.context(node));
      if (result instanceof Promise)
        result.catch((err: unknown) =>
          this.options.log.error(`${node.component.name}: notification handler failed for ${message.method}`, err),
        );
    } catch (err) {
      this.options.log.error(`${node.component.name}: notification handler failed for ${message.method}`, err);
    }
  }

  private receiveCancel(node: Node, direction: Direction, message: RpcNotification): void {
    const params = (message.params ?? {}) as { requestId?: JsonRpcId };
    const key = `${direction}:${String(params.requestId)}`;
    const incoming = node.incoming.get(key);
    if (!incoming) return; // already answered: nothing to cancel
    if (incoming.forwardedAs !== undefined) {
      this.sendNotification(node, direction, { ...message, params: { ...params, requestId: incoming.forwardedAs } });
    }
    cancel(incoming);
  }

  private receiveRequest(node: Node, direction: Direction, message: RpcRequest): void {
    const key = `${direction}:${String(message.id)}`;
    const state: Incoming = {};
    node.incoming.set(key, state);
    const back: Direction = direction === 'toAgent' ? 'toClient' : 'toAgent';
    let settled = false;
    const settle = (outcome: RpcOutcome): void => {
      if (settled) return;
      settled = true;
      node.incoming.delete(key);
      this.transmit(node, back, responseFor(message.id, outcome));
    };
    const forwardWith = (params: unknown, map: (o: RpcOutcome) => RpcOutcome): void => {
      if (state.forwardedAs !== undefined || settled) return;
      state.forwardedAs = this.sendRequest(node, direction, params === undefined ? message : { ...message, params }, (outcome) => {
        let mapped = outcome;
        try {
          mapped = map(outcome);
        } catch (err) {
          this.options.log.error(`${node.component.name}: response mapping failed for ${message.method}`, err);
        }
        settle(mapped);
      });
    };
    const request: IncomingRequest = {
      method: message.method,
      params: message.params,
      direction,
      get signal() {
        return signalOf(state);
      },
      forward: (params?: unknown) => forwardWith(params, (o) => o),
      forwardThen: (params, map) => forwardWith(params, map),
      respond: (result) => settle({ result }),
      fail: (error) => settle({ error }),
    };
    const handler = node.component.onRequest;
    if (!handler) return request.forward();
    const failInternal = (err: unknown): void => {
      this.options.log.error(`${node.component.name}: request handler failed for ${message.method}`, err);
      if (state.forwardedAs === undefined) {
        const rpc =
          err instanceof RpcCallError
            ? err.error
            : { code: ErrorCodes.internalError, message: `${node.component.name}: ${err instanceof Error ? err.message : String(err)}` };
        settle({ error: rpc });
      }
    };
    try {
      const result = handler.call(node.component, request, node.context(node));
      if (result instanceof Promise) result.catch(failInternal);
    } catch (err) {
      failInternal(err);
    }
  }
}

/** Whether `component` looks at a notification (route passes it by otherwise). */
function looksAt(component: Component, method: string, direction: Direction): boolean {
  return component.onNotification !== undefined && component.wantsNotification?.(method, direction) !== false;
}
