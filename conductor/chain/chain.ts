// The router that runs components as a chain. Positions: 0 is the editor's edge, 1..N are the
// components, N+1 is the agent's edge. A message moves toward the next position that looks at it
// (a component that does not want a request or notification is passed by: see passBy); each
// position that sends a request gives it a fresh id (ids are per sender, and a receiver keys them
// by sender, so ids from the editor, the agent and components can never collide) and remembers
// where it went; the response and any `$/cancel_request` go straight between the two.
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
import { errorText } from '../../src/protocol/errorText';
import { DisposableBase } from '../../src/node/disposable';

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
  /** The position the request went to (its cancel goes there too). */
  readonly sentTo: number;
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

export class Chain extends DisposableBase {
  private readonly nodes: Node[];
  /** between()'s answers, by pair of positions. */
  private readonly viaByPair = new Map<number, readonly string[] | undefined>();

  /** `components` in chain order, editor side first; the edges are included by the caller. */
  constructor(
    components: readonly Component[],
    private readonly options: ChainOptions,
  ) {
    super();
    // Each node's context is made lazily, once, so contexts can refer to the finished chain.
    this.nodes = components.map((component, position) => {
      let context: ComponentContext | undefined;
      return new Node(position, component, () => (context ??= options.contextFor(component, this)));
    });
  }

  /** A message from the editor enters at position 0, travelling toward the agent. */
  fromEditor(message: RpcMessage): void {
    this.receiveExternal(-1, 0, 'toAgent', message);
  }

  /** A message from the agent enters at the last position, travelling toward the editor. */
  fromAgent(message: RpcMessage): void {
    this.receiveExternal(this.nodes.length, this.nodes.length - 1, 'toClient', message);
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
          const sentTo = node.outgoing.get(id)?.sentTo;
          node.outgoing.delete(id);
          if (sentTo !== undefined)
            this.deliver(node.position, sentTo, direction, { jsonrpc: '2.0', method: CANCEL_REQUEST, params: { requestId: id } });
          reject(new RpcCallError({ code: ErrorCodes.requestCancelled, message: 'request cancelled' }));
        },
        { once: true },
      );
    });
  }

  notify(component: Component, direction: Direction, method: string, params: unknown): void {
    this.sendNotification(this.nodeOf(component), direction, { jsonrpc: '2.0', method, params });
  }

  override async dispose(): Promise<void> {
    if (this.isDisposed) return;
    super.dispose();
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

  /**
   * A message from an external peer (`sender`: -1 for the editor, one past the last position for
   * the agent) enters at that peer's edge (`at`), the only position that exchanges ids with it.
   */
  private receiveExternal(sender: number, at: number, direction: Direction, message: RpcMessage): void {
    this.deliver(sender, this.passBy(at, direction, message), direction, message);
  }

  /**
   * The position, from `at` onward in `direction`, that first looks at `message`: the components
   * in between would only pass it on, so it skips them in one hop (traced as one line naming
   * them). A notification skips components that do not want it, up to the external peer; a
   * request skips the components between the edges that do not want it (the edges take every
   * request: they alone exchange ids with the editor and the agent). Responses and cancels are
   * not routed: they go straight to the position that sent or received the request.
   */
  private passBy(at: number, direction: Direction, message: RpcMessage): number {
    const step = direction === 'toAgent' ? 1 : -1;
    let to = at;
    if (isNotification(message)) {
      if (message.method === CANCEL_REQUEST) return to;
      while (to >= 0 && to < this.nodes.length && !looksAt(this.nodes[to]!.component, message, direction)) to += step;
    } else if (isRequest(message)) {
      while (to > 0 && to < this.nodes.length - 1 && !takesRequest(this.nodes[to]!.component, message.method, direction)) to += step;
    }
    return to;
  }

  /**
   * Carries `message` from position `from` to position `to` (either may be past an end: the
   * editor or the agent), tracing one line that names the components in between, and hands it
   * over there. `from` is where a request came from: its response goes back there.
   */
  private deliver(from: number, to: number, direction: Direction, message: RpcMessage): void {
    this.options.trace?.(this.nameOf(from), this.nameOf(to), message, this.between(from, to));
    if (to < 0) return this.options.editor.send(message);
    if (to >= this.nodes.length) return this.options.agent.send(message);
    const node = this.nodes[to]!;
    if (isRequest(message)) this.receiveRequest(node, direction, message, from);
    else if (isNotification(message)) this.receiveNotification(node, direction, message, from);
    else this.receiveResponse(node, message.id, outcomeOf(message));
  }

  /**
   * The names of the components strictly between two positions, in the order a message from
   * `from` to `to` passes them; undefined when they are neighbours. Made once per pair: every
   * chunk of a streamed reply takes the same way, and the trace's writer keeps the JSON it makes
   * of each list (trace.ts).
   */
  private between(from: number, to: number): readonly string[] | undefined {
    const key = (from + 1) * (this.nodes.length + 2) + (to + 1);
    if (this.viaByPair.has(key)) return this.viaByPair.get(key);
    const step = to > from ? 1 : -1;
    const names: string[] = [];
    for (let p = from + step; p !== to; p += step) names.push(this.nodes[p]!.component.name);
    const via = names.length ? Object.freeze(names) : undefined;
    this.viaByPair.set(key, via);
    return via;
  }

  /** The position next to `from` in `direction`. */
  private next(from: Node, direction: Direction): number {
    return direction === 'toAgent' ? from.position + 1 : from.position - 1;
  }

  private sendRequest(from: Node, direction: Direction, request: RpcRequest, onOutcome: (o: RpcOutcome) => void): number {
    const id = from.allocateId();
    const sentTo = this.passBy(this.next(from, direction), direction, request);
    from.outgoing.set(id, { onOutcome, sentTo });
    this.deliver(from.position, sentTo, direction, { ...request, id });
    return id;
  }

  private sendNotification(from: Node, direction: Direction, notification: RpcNotification): void {
    this.deliver(from.position, this.passBy(this.next(from, direction), direction, notification), direction, notification);
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

  private receiveNotification(node: Node, direction: Direction, message: RpcNotification, from: number): void {
    if (message.method === CANCEL_REQUEST) return this.receiveCancel(node, direction, message, from);
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

  private receiveCancel(node: Node, direction: Direction, message: RpcNotification, from: number): void {
    const params = (message.params ?? {}) as { requestId?: JsonRpcId };
    const incoming = node.incoming.get(incomingKey(direction, from, params.requestId));
    if (!incoming) return; // already answered: nothing to cancel
    const sentTo = incoming.forwardedAs === undefined ? undefined : node.outgoing.get(incoming.forwardedAs)?.sentTo;
    if (sentTo !== undefined)
      this.deliver(node.position, sentTo, direction, { ...message, params: { ...params, requestId: incoming.forwardedAs } });
    cancel(incoming);
  }

  private receiveRequest(node: Node, direction: Direction, message: RpcRequest, from: number): void {
    const key = incomingKey(direction, from, message.id);
    const state: Incoming = {};
    node.incoming.set(key, state);
    const back: Direction = direction === 'toAgent' ? 'toClient' : 'toAgent';
    let settled = false;
    const settle = (outcome: RpcOutcome): void => {
      if (settled) return;
      settled = true;
      node.incoming.delete(key);
      this.deliver(node.position, from, back, responseFor(message.id, outcome));
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
            : { code: ErrorCodes.internalError, message: `${node.component.name}: ${errorText(err)}` };
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

/** Whether `component` looks at a notification (passBy passes it by otherwise). */
function looksAt(component: Component, message: RpcNotification, direction: Direction): boolean {
  return component.onNotification !== undefined && component.wantsNotification?.(message.method, direction, message.params) !== false;
}

/** Whether `component`, between the edges, looks at a request (passBy passes it by otherwise). */
function takesRequest(component: Component, method: string, direction: Direction): boolean {
  return component.onRequest !== undefined && component.wantsRequest?.(method, direction) !== false;
}

/** A request's key at its receiver: ids are per sender, so two senders' ids may be equal. */
function incomingKey(direction: Direction, from: number, id: JsonRpcId | undefined): string {
  return `${direction}:${from}:${String(id)}`;
}
