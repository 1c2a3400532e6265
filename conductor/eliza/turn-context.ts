// What one prompt turn works with, plus the small helpers every hook uses: sending session
// updates, streaming text in chunks, sleeping, and calling the client — all of them aware of
// cancellation so session/cancel ends the turn promptly no matter where it is waiting.
import type * as acp from '@agentclientprotocol/sdk';
import { CancelledError } from './session';
import type { Session } from './session';

export interface AgentOptions {
  /** Replies (and the story) depend only on the input; chunks are sent without artificial delay. */
  deterministic: boolean;
  /** Advertise mcpCapabilities.http. `--no-http-mcp` turns it off to exercise stdio fallbacks. */
  httpMcp: boolean;
  /**
   * `--legacy-models`: session/new offers the older `models` picker instead of the `model` config
   * option, so clients' fallback path (session/set_model) can be tested.
   */
  legacyModels: boolean;
  /** `--load-session`: advertise `loadSession` and replay a session's updates on session/load. */
  loadSession?: boolean;
  /** `--resume`: advertise `sessionCapabilities.resume` (session/resume continues without replay). */
  resume?: boolean;
  /**
   * `--fork`: advertise `sessionCapabilities.fork` (unstable); session/fork copies a session as it
   * is now (history, picks, prompt count) into a new one with the MCP servers of the request.
   */
  fork?: boolean;
  /** `--no-delete`: withhold `sessionCapabilities.delete` (otherwise offered with `list`) and refuse session/delete. */
  noDelete?: boolean;
  /** `--fail-delete`: session/delete answers an internal error with a reason (a client's failure path). */
  failDelete?: boolean;
  /** `--hang-list`: session/list never answers (a client's deadline, a process it must still release). */
  hangList?: boolean;
  /**
   * `--no-additional-directories`: withhold `sessionCapabilities.additionalDirectories` and ignore
   * the field, as an agent that does not know it would.
   */
  noAdditionalDirectories?: boolean;
  /** `--state-dir D`: sessions are also kept on disk in D, so a restarted ElizACP can load them. */
  stateDir?: string;
  /** `--require-auth`: advertise auth methods and refuse session/new until signed in (auth.ts). */
  requireAuth?: boolean;
  /** `--offer-auth`: advertise the same auth methods, but work without them (sign-in is optional). */
  offerAuth?: boolean;
  /** `--auth-file F`: where the terminal sign-in leaves its token. */
  authFile?: string;
  /** `--terminal-login` (added by the terminal sign-in method): sign in, then exit instead of serving ACP. */
  terminalLogin?: boolean;
  /** `--steering`: advertise and answer `_session/steering` (steering.ts). */
  steering?: boolean;
}

export interface Turn {
  readonly session: Session;
  readonly client: acp.AgentContext;
  /** Aborted by session/cancel, session/close, $/cancel_request or connection loss. */
  readonly signal: AbortSignal;
  readonly request: acp.PromptRequest;
  /** The prompt's text blocks joined with '\n', trimmed. */
  readonly text: string;
  readonly options: AgentOptions;
  readonly clientCapabilities: acp.ClientCapabilities | undefined;
  /** How the client signed in (the `sign-in status` hook reports it). */
  readonly signInStatus?: () => string;
}

export function throwIfCancelled(turn: Turn): void {
  if (turn.signal.aborted) throw new CancelledError();
}

export async function sendUpdate(turn: Turn, update: acp.SessionUpdate): Promise<void> {
  // What the client marked the prompt with (Sparkle's embodiment) stays on its replayed updates.
  const meta = turn.request._meta;
  turn.session.record(meta ? { ...update, _meta: { ...update._meta, ...meta } } : update);
  await turn.client.notify('session/update', { sessionId: turn.session.id, update });
}

/** Resolves after `ms` (or on the next macrotask for 0), rejects with CancelledError on cancel. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new CancelledError());
    const done = (): void => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    // A 0 ms wait still yields to the event loop, which is what lets an incoming session/cancel
    // be processed between two chunks of a fast stream.
    const timer = ms > 0 ? setTimeout(done, ms) : undefined;
    const immediate = ms > 0 ? undefined : setImmediate(done);
    const onAbort = (): void => {
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      reject(new CancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Splits a reply into word groups whose concatenation is exactly the reply. Normal replies give at
 * least three chunks (so clients really have to assemble a stream); long ones use three words per
 * chunk.
 */
export function chunkText(text: string): string[] {
  if (!text) return [];
  const words = text.split(/(?<=\s)(?=\S)/); // every piece keeps its trailing whitespace
  if (words.length < 3) {
    if (text.length < 3) return [text];
    const size = Math.ceil(text.length / 3);
    return [text.slice(0, size), text.slice(size, 2 * size), text.slice(2 * size)].filter((c) => c);
  }
  const size = Math.max(1, Math.min(3, Math.floor(words.length / 3)));
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(''));
  return chunks;
}

/** Default pause between chunks: none in deterministic mode (tests), a little otherwise (demos). */
export function chunkDelay(turn: Turn): number {
  return turn.options.deterministic ? 0 : 25;
}

/** Streams `text` as agent_message_chunk (or agent_thought_chunk) updates. */
export async function streamText(
  turn: Turn,
  text: string,
  opts: { delayMs?: number; kind?: 'agent_message_chunk' | 'agent_thought_chunk' } = {},
): Promise<void> {
  const delay = opts.delayMs ?? chunkDelay(turn);
  const kind = opts.kind ?? 'agent_message_chunk';
  for (const chunk of chunkText(text)) {
    await sleep(delay, turn.signal);
    await sendUpdate(turn, { sessionUpdate: kind, content: { type: 'text', text: chunk } });
  }
}

/**
 * Calls the client so that cancelling the turn never leaves it waiting: the request gets
 * `$/cancel_request` and we stop waiting at once (the client may still answer a permission
 * request with `cancelled`, which the SDK then drops).
 */
export async function callClient<T>(turn: Turn, call: (options: acp.SendRequestOptions) => Promise<T>): Promise<T> {
  throwIfCancelled(turn);
  try {
    return await call({ cancellationSignal: turn.signal, stopWaitingOnCancel: true });
  } catch (err) {
    if (turn.signal.aborted) throw new CancelledError();
    throw err;
  }
}

/** A readable one-line description of an error from the client or an MCP server. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const data = (err as { data?: unknown }).data;
    const details =
      data && typeof data === 'object' && typeof (data as { details?: unknown }).details === 'string'
        ? (data as { details: string }).details
        : undefined;
    return details && !err.message.includes(details) ? `${err.message}: ${details}` : err.message;
  }
  return String(err);
}
