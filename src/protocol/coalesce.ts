// Merging of consecutive conversation messages and ACP updates, shared by the host (outbox,
// transcript: one buffered message per streamed item instead of one per chunk) and the webview
// (its conversation model). Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { sparkleMarkOf } from './symposium-ext';

type ChunkUpdate = Extract<SessionUpdate, { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk' }>;
type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

const CHUNK_KINDS = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);
/** Updates that are full replacements of a per-session value: only the latest one matters. */
const REPLACING_KINDS = new Set(['plan', 'available_commands_update', 'current_mode_update', 'config_option_update', 'usage_update']);

const isChunk = (u: SessionUpdate): u is ChunkUpdate => CHUNK_KINDS.has(u.sessionUpdate);
const isTool = (u: SessionUpdate): u is ToolUpdate => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update';

/**
 * The single update equivalent to applying `prev` then `next`, or undefined when they cannot be
 * merged without losing information.
 */
export function mergeUpdates(prev: SessionUpdate, next: SessionUpdate): SessionUpdate | undefined {
  // Sparkle's embodiment turn and the user's answer after it are shown apart: never one chunk.
  if (sparkleMarkOf(prev) !== sparkleMarkOf(next)) return undefined;
  if (isChunk(prev) && isChunk(next)) {
    if (prev.sessionUpdate !== next.sessionUpdate || prev.messageId !== next.messageId) return undefined;
    if (prev.content.type !== 'text' || next.content.type !== 'text') return undefined;
    return { ...next, content: { ...next.content, text: prev.content.text + next.content.text } };
  }
  // ACP: tool_call_update fields replace the previous values; absent fields stay as they were.
  // A second `tool_call` with an id already announced is taken the same way: Claude Code sends a
  // nearly empty one as the model starts the call and the full one once its input is known, and
  // both describe the one call.
  if (isTool(prev) && isTool(next) && prev.toolCallId === next.toolCallId) {
    const defined = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined && v !== null));
    const kind = next.sessionUpdate === 'tool_call' ? 'tool_call' : prev.sessionUpdate;
    return { ...prev, ...defined, sessionUpdate: kind } as SessionUpdate;
  }
  if (REPLACING_KINDS.has(prev.sessionUpdate) && prev.sessionUpdate === next.sessionUpdate) return next;
  return undefined;
}

/**
 * Adds one update to a turn's list as the chat shows it: merged with the last one when possible
 * (streamed chunks), one plan per turn (replaced in place), tool_call_updates (and a repeated
 * tool_call) folded into their call.
 * Shared by the webview's conversation model and the host's history (export, replay).
 */
export function appendUpdate(updates: SessionUpdate[], update: SessionUpdate): void {
  const last = updates[updates.length - 1];
  const merged = last && mergeUpdates(last, update);
  if (merged) {
    updates[updates.length - 1] = merged;
    return;
  }
  if (update.sessionUpdate === 'plan') {
    const i = updates.findIndex((u) => u.sessionUpdate === 'plan');
    if (i >= 0) {
      updates[i] = update;
      return;
    }
  }
  if (isTool(update)) {
    const i = updates.findIndex((u) => isTool(u) && u.toolCallId === update.toolCallId);
    const target = i >= 0 ? updates[i] : undefined;
    const folded = target && mergeUpdates(target, update);
    if (folded) {
      updates[i] = folded;
      return;
    }
  }
  updates.push(update);
}

interface UpdateCarrier {
  type: string;
  messageId?: string;
  update?: SessionUpdate;
}

/**
 * Merges two consecutive messages of one tab into one, or returns undefined. Only `agent-update`s
 * of the same prompt turn merge; the result keeps `next`'s other fields (notably its index).
 */
export function coalesce<T extends UpdateCarrier>(prev: T, next: T): T | undefined {
  // Terminal output is a snapshot: the newer one of the same terminal replaces the older.
  if (prev.type === 'terminal-output' && next.type === 'terminal-output') {
    return (prev as { terminalId?: string }).terminalId === (next as { terminalId?: string }).terminalId ? next : undefined;
  }
  if (prev.type !== 'agent-update' || next.type !== 'agent-update') return undefined;
  if (prev.messageId !== next.messageId || !prev.update || !next.update) return undefined;
  const update = mergeUpdates(prev.update, next.update);
  return update ? { ...next, update } : undefined;
}

/** Rough size of a message in UTF-16 units, for buffer limits. */
export function approxSize(message: unknown): number {
  return JSON.stringify(message)?.length ?? 0;
}
