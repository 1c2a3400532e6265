// A recorded conversation as turns: each prompt with what the agent did in answer (streamed text
// merged, tool calls folded with their updates, one plan), and the notices in between. The
// exporter writes these; vscode-free and pure.
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import { appendUpdate } from '../protocol/coalesce';
import { sparkleMarkOf } from '../protocol/symposium-ext';
import type { ConversationEntry, PermissionDecision } from '../protocol/webview';

export interface HistoryTurn {
  kind: 'turn';
  messageId: string;
  prompt: string;
  attachments: string[];
  updates: SessionUpdate[];
  /** Sparkle's embodiment turn, when it ran during this prompt (shown apart, as in the chat). */
  embodiment: SessionUpdate[];
  decisions: { title: string; decision: PermissionDecision }[];
  stopReason?: StopReason;
  error?: string;
}

export interface HistoryNotice {
  kind: 'notice';
  text: string;
}

export type HistoryBlock = HistoryTurn | HistoryNotice;

/** Folds a conversation's entries into turns and notices, in order. */
export function toTurns(entries: readonly ConversationEntry[]): HistoryBlock[] {
  const blocks: HistoryBlock[] = [];
  const turns = new Map<string, HistoryTurn>();
  const pendingTitles = new Map<string, string>();
  const turn = (messageId: string, prompt = ''): HistoryTurn => {
    let t = turns.get(messageId);
    if (!t) {
      t = { kind: 'turn', messageId, prompt, attachments: [], updates: [], embodiment: [], decisions: [] };
      turns.set(messageId, t);
      blocks.push(t);
    }
    return t;
  };
  const last = (): HistoryTurn | undefined => [...turns.values()].pop();
  for (const e of entries) {
    switch (e.type) {
      case 'prompt-started': {
        const t = turn(e.messageId, e.text);
        t.prompt = e.text;
        t.attachments = e.attachments ?? [];
        break;
      }
      case 'agent-update': {
        const t = e.messageId ? turn(e.messageId) : last();
        if (t && sparkleMarkOf(e.update) === 'embodiment') appendUpdate(t.embodiment, e.update);
        else if (e.messageId) appendUpdate(turn(e.messageId).updates, e.update);
        break;
      }
      case 'prompt-ended':
        turn(e.messageId).stopReason = e.stopReason;
        break;
      case 'prompt-failed':
        turn(e.messageId).error = e.error;
        break;
      case 'permission-requested':
        pendingTitles.set(e.requestId, e.toolCall.title ?? 'a tool call');
        break;
      case 'permission-resolved': {
        const t = (e.messageId && turns.get(e.messageId)) || last();
        t?.decisions.push({ title: pendingTitles.get(e.requestId) ?? 'a tool call', decision: e.decision });
        break;
      }
      case 'agent-failed':
        blocks.push({ kind: 'notice', text: `${e.failure.agentName} stopped: ${e.failure.message}` });
        break;
      case 'agent-restarted':
        blocks.push({ kind: 'notice', text: `${e.agentName} restarted with a new session.` });
        break;
      case 'tab-notice':
        blocks.push({ kind: 'notice', text: e.text });
        break;
      case 'session-ready':
      case 'controls-changed':
      case 'terminal-output':
        break;
    }
  }
  return blocks;
}
