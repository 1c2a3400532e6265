// The history actor's state and its one decision (committed and provisional history, docs/language-model.md).
// VS Code's LM API is stateless: every request carries the whole conversation. ACP sessions are
// stateful. This file decides, purely, whether a request *extends* what we already told the agent
// (then only the new user message goes to the same ACP session) or *mismatches* it (edit,
// regenerate, rejected tool, another conversation: then a fresh session primed with the history).
// Pure so the sequence diagrams can be tested as tables (history.spec.ts).
import type { LmMessage, LmPart } from '../../src/protocol/lm';

export interface Provisional {
  /** The in-flight user message. */
  user: LmMessage;
  /** The assistant parts streamed for it so far. */
  parts: LmPart[];
}

export interface HistoryState {
  /** Complete (user, assistant) pairs the consumer has acknowledged; empty or ends with assistant. */
  committed: LmMessage[];
  provisional: Provisional | undefined;
}

export type Match =
  /** messages = committed + provisional + newUser: commit, send newUser only. */
  | { kind: 'extends'; newUser: LmMessage }
  /** Anything else: discard the provisional part, restart primed with `prior`. */
  | { kind: 'mismatch'; prior: LmMessage[]; newUser: LmMessage };

export const emptyHistory = (): HistoryState => ({ committed: [], provisional: undefined });

/**
 * Consumers rebuild the assistant message from the stream in their own way (one text part or
 * many), so adjacent text parts are merged and empty ones dropped before comparing.
 */
export function normalize(content: readonly LmPart[]): LmPart[] {
  const out: LmPart[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.value === '') continue;
      const last = out[out.length - 1];
      if (last?.type === 'text') out[out.length - 1] = { type: 'text', value: last.value + part.value };
      else out.push({ ...part });
    } else if (part.type === 'tool_result') out.push({ ...part, content: normalize(part.content) });
    else out.push(part);
  }
  return out;
}

export function sameMessage(a: LmMessage, b: LmMessage): boolean {
  return a.role === b.role && stableJson(normalize(a.content)) === stableJson(normalize(b.content));
}

/** What the consumer must send back, before its new user message, for the request to extend us. */
export function expectedPrefix(state: HistoryState): LmMessage[] {
  const p = state.provisional;
  return p ? [...state.committed, p.user, { role: 'assistant', content: p.parts }] : [...state.committed];
}

/** How many leading messages of `messages` agree with this history (to pick the actor to reuse). */
export function sharedPrefix(state: HistoryState, messages: readonly LmMessage[]): number {
  const exp = expectedPrefix(state);
  let n = 0;
  while (n < exp.length && n < messages.length && sameMessage(exp[n]!, messages[n]!)) n++;
  return n;
}

/** Throws when the request does not end with a user message (nothing for the agent to answer). */
export function matchRequest(state: HistoryState, messages: readonly LmMessage[]): Match {
  const newUser = messages[messages.length - 1];
  if (!newUser || newUser.role !== 'user') throw new Error('the request must end with a user message');
  const exp = expectedPrefix(state);
  const extendsUs = messages.length === exp.length + 1 && sharedPrefix(state, messages) === exp.length;
  return extendsUs ? { kind: 'extends', newUser } : { kind: 'mismatch', prior: messages.slice(0, -1), newUser };
}

/** After `extends`: the provisional exchange becomes committed, newUser the new provisional. */
export function commit(state: HistoryState, newUser: LmMessage): HistoryState {
  return { committed: expectedPrefix(state), provisional: { user: newUser, parts: [] } };
}

/** After `mismatch`: the request's own history is the truth; our provisional work is gone. */
export function restart(prior: readonly LmMessage[], newUser: LmMessage): HistoryState {
  return { committed: [...prior], provisional: { user: newUser, parts: [] } };
}

/** A part streamed to the consumer joins the provisional response. */
export function record(state: HistoryState, part: LmPart): HistoryState {
  if (!state.provisional) return state;
  return { ...state, provisional: { ...state.provisional, parts: [...state.provisional.parts, part] } };
}

/** The tool results a user message carries. */
export function toolResultsOf(message: LmMessage): Extract<LmPart, { type: 'tool_result' }>[] {
  return message.content.filter((p): p is Extract<LmPart, { type: 'tool_result' }> => p.type === 'tool_result');
}

/** The plain text of parts (tool results' text included), for results and priming transcripts. */
export function textOf(parts: readonly LmPart[]): string {
  return parts
    .map((p) => (p.type === 'text' ? p.value : p.type === 'tool_result' ? textOf(p.content) : ''))
    .filter(Boolean)
    .join('\n');
}

/** JSON with sorted keys, so `input` objects compare by content, not key order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
