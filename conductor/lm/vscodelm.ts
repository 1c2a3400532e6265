// `conductor vscodelm`: the logic half of the experimental LM provider (docs/language-model.md). Speaks the
// `lm/*` JSON-RPC protocol (src/protocol/lm.ts) over stdio with vscode-jsonrpc, to the thin
// provider in src/lm/. Keeps one Downstream (conductor chain + agent) per agent definition and
// one Conversation per conversation, and routes each request to the conversation whose history
// it extends (else the one it shares most history with — an edit or regenerate — else a new one).
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import {
  LM_COMPLETE_METHOD,
  LM_PART_METHOD,
  LM_PROVIDE_METHOD,
  type LmCompleteParams,
  type LmPartParams,
  type LmProvideParams,
} from '../../src/protocol/lm';
import { createLogger, isLogLevel, type Logger } from '../log';
import { Conversation, RefusedRequest } from './conversation';
import { Downstream } from './downstream';
import { matchRequest, sharedPrefix } from './history';
import { errorText } from '../../src/protocol/errorText';

/** Conversations kept per agent; the least recently used goes first. */
export const MAX_CONVERSATIONS = 16;

export class LmHost {
  private readonly downstreams = new Map<string, Downstream>();
  private conversations: Conversation[] = [];

  constructor(
    private readonly self: string,
    private readonly cwd: string,
    private readonly log: Logger,
  ) {}

  async provide(params: LmProvideParams, emit: (p: LmPartParams['part']) => void, signal: AbortSignal): Promise<void> {
    const key = JSON.stringify([params.agent, params.components ?? null]);
    let downstream = this.downstreams.get(key);
    if (!downstream || downstream.dead) {
      // A dead agent's conversations go with it; their next request restarts primed with history.
      this.conversations = this.conversations.filter((c) => c.downstream !== downstream);
      downstream = new Downstream(params.agent, params.components, this.self, this.log);
      this.downstreams.set(key, downstream);
    }
    const conversation = this.pick(downstream, params);
    await conversation.handle(params.messages, params.tools, emit, signal);
  }

  private pick(downstream: Downstream, params: LmProvideParams): Conversation {
    const mine = this.conversations.filter((c) => c.downstream === downstream);
    const extending = mine.find((c) => {
      try {
        return matchRequest(c.state, params.messages).kind === 'extends';
      } catch {
        return false;
      }
    });
    if (extending) return extending;
    let best: Conversation | undefined;
    let bestShared = 0;
    for (const c of mine) {
      const n = sharedPrefix(c.state, params.messages);
      if (n > bestShared) [best, bestShared] = [c, n];
    }
    if (best) return best;
    const fresh = new Conversation(downstream, this.cwd, this.log.child('conversation'));
    this.conversations.push(fresh);
    if (mine.length + 1 > MAX_CONVERSATIONS) {
      const oldest = mine.reduce((a, b) => (a.lastUsed <= b.lastUsed ? a : b));
      this.conversations = this.conversations.filter((c) => c !== oldest);
      void oldest.dispose();
    }
    return fresh;
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.conversations.map((c) => c.dispose()));
    await Promise.allSettled([...this.downstreams.values()].map((d) => d.stop()));
  }
}

export async function runVscodeLm(argv: string[]): Promise<void> {
  const level = argv[0] === '--log' && argv[1] && isLogLevel(argv[1]) ? argv[1] : 'info';
  const log = createLogger(level, 'vscodelm');
  // stdout carries the protocol only.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const script = process.argv[1];
  if (!script) throw new Error('cannot tell the conductor script path');
  const host = new LmHost(script, process.cwd(), log);
  const conn = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
  conn.onRequest(LM_PROVIDE_METHOD, async (params: LmProvideParams, token) => {
    const abort = new AbortController();
    // A cancel that arrived while the request still waited in vscode-jsonrpc's queue makes the
    // token cancelled before the handler runs, and then its onCancellationRequested never fires.
    if (token.isCancellationRequested) abort.abort();
    else token.onCancellationRequested(() => abort.abort());
    const emit = (part: LmPartParams['part']): void =>
      void conn.sendNotification(LM_PART_METHOD, { requestId: params.requestId, part } satisfies LmPartParams);
    try {
      await host.provide(params, emit, abort.signal);
    } catch (err) {
      const message = errorText(err);
      throw new ResponseError(err instanceof RefusedRequest ? -32602 : -32603, message);
    }
    await conn.sendNotification(LM_COMPLETE_METHOD, { requestId: params.requestId } satisfies LmCompleteParams);
    return {};
  });
  const closed = new Promise<void>((resolve) => conn.onClose(() => resolve()));
  conn.listen();
  await closed;
  await host.stop();
  setTimeout(() => process.exit(0), 200).unref();
}
