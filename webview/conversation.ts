// The webview's model of one tab's conversation, built by applying the host's conversation
// messages in order. mynah-ui items are rendered from it (mappers/), and it is saved with the
// webview state, so a streaming answer can continue after the webview is re-created. Pure.
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { AgentFailure, ConversationEntry, MessageId } from '../src/protocol/webview';
import { mergeUpdates } from '../src/protocol/coalesce';

export interface Turn {
  kind: 'turn';
  messageId: MessageId;
  prompt: string;
  /** The turn's ACP updates in arrival order, streamed chunks merged. */
  updates: SessionUpdate[];
  status: 'running' | 'done' | 'failed';
  stopReason?: StopReason;
  error?: string;
}

export interface Notice {
  kind: 'notice';
  id: string;
  level: 'error' | 'info';
  agentName: string;
  failure?: AgentFailure;
  /** An error notice stops offering Restart once a restart resolved it. */
  resolved: boolean;
}

export type Block = Turn | Notice;

export interface Conversation {
  blocks: Block[];
  agentName?: string;
  cwd?: string;
}

export const emptyConversation = (): Conversation => ({ blocks: [] });

export const blockId = (b: Block): string => (b.kind === 'turn' ? b.messageId : `notice:${b.id}`);

function findTurn(c: Conversation, messageId: MessageId): Turn | undefined {
  for (let i = c.blocks.length - 1; i >= 0; i--) {
    const b = c.blocks[i]!;
    if (b.kind === 'turn' && b.messageId === messageId) return b;
  }
  return undefined;
}

function ensureTurn(c: Conversation, messageId: MessageId, prompt = ''): Turn {
  let t = findTurn(c, messageId);
  if (!t) {
    t = { kind: 'turn', messageId, prompt, updates: [], status: 'running' };
    c.blocks.push(t);
  }
  return t;
}

/** Adds one update to a turn: merged with the last one when possible, tool updates into their call. */
export function addUpdate(t: Turn, update: SessionUpdate): void {
  const last = t.updates[t.updates.length - 1];
  const merged = last && mergeUpdates(last, update);
  if (merged) {
    t.updates[t.updates.length - 1] = merged;
    return;
  }
  if (update.sessionUpdate === 'tool_call_update') {
    const i = t.updates.findIndex((u) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === update.toolCallId);
    const target = i >= 0 ? t.updates[i] : undefined;
    const folded = target && mergeUpdates(target, update);
    if (folded) {
      t.updates[i] = folded;
      return;
    }
  }
  t.updates.push(update);
}

/** Applies one conversation message; returns the ids of the blocks it changed. */
export function applyEntry(c: Conversation, e: ConversationEntry): string[] {
  switch (e.type) {
    case 'session-ready':
      c.agentName = e.agentName;
      c.cwd = e.cwd;
      return [];
    case 'prompt-started': {
      const existed = findTurn(c, e.messageId) !== undefined;
      const t = ensureTurn(c, e.messageId, e.text);
      return existed ? [] : [t.messageId];
    }
    case 'agent-update': {
      // Updates outside a prompt turn (e.g. available commands) have no block of their own yet.
      if (!e.messageId) return [];
      const t = ensureTurn(c, e.messageId);
      addUpdate(t, e.update);
      return [t.messageId];
    }
    case 'prompt-ended': {
      const t = ensureTurn(c, e.messageId);
      t.status = 'done';
      t.stopReason = e.stopReason;
      return [t.messageId];
    }
    case 'prompt-failed': {
      const t = ensureTurn(c, e.messageId);
      t.status = 'failed';
      t.error = e.error;
      return [t.messageId];
    }
    case 'agent-failed': {
      // A dead agent ends whatever was running in this tab.
      const changed: string[] = [];
      for (const b of c.blocks) if (b.kind === 'turn' && b.status === 'running') { b.status = 'failed'; b.error = 'Interrupted: the agent stopped.'; changed.push(b.messageId); }
      const n: Notice = { kind: 'notice', id: e.noticeId, level: 'error', agentName: e.failure.agentName, failure: e.failure, resolved: false };
      c.blocks.push(n);
      return [...changed, blockId(n)];
    }
    case 'agent-restarted': {
      const changed: string[] = [];
      for (const b of c.blocks) {
        if (b.kind === 'notice' && b.level === 'error' && !b.resolved && (e.noticeId === undefined || b.id === e.noticeId)) {
          b.resolved = true;
          changed.push(blockId(b));
        }
      }
      // Deterministic id: replaying the same entries (resync) must produce the same blocks.
      const n: Notice = { kind: 'notice', id: `restart-${c.blocks.length}`, level: 'info', agentName: e.agentName, resolved: true };
      c.blocks.push(n);
      return [...changed, blockId(n)];
    }
  }
}

/** Whether a prompt is running (the Stop button shows). */
export const isBusy = (c: Conversation): boolean => c.blocks.some((b) => b.kind === 'turn' && b.status === 'running');
