// A recorded conversation as Markdown: the prompts, the replies, tool calls (title and status, with
// their input and output collapsed in `<details>`), plans as checklists, thoughts collapsed, the
// permission decisions and notices. Conversation text goes through exportText.ts, so an answer's
// raw HTML, `</details>` or `## You` cannot change the file around it. Pure, so a golden file pins
// the format.
import { shownStatus, turnPhase, type ShownStatus, type TurnPhase } from '../protocol/toolCallStatus';
import type { ContentBlock, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { changedFileLabel } from '../protocol/checkpoints';
import { foldConversation, type ElicitationCard, type Notice, type PermissionCard, type Turn } from '../protocol/conversation';
import type { ConversationEntry } from '../protocol/webview';
import { fenced } from '../protocol/markdown';
import { contextText, costText, type SessionUsage } from '../protocol/usage';
import { elicitationOutcomeLabel } from '../protocol/elicitation';
import { exportBlock, exportInline } from './exportText';
import type { ConversationMeta } from './historyStore';

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

/**
 * The conversation is folded the way the chat folds it (src/protocol/conversation.ts), so the file
 * shows what the tab showed: a tool call completed after its turn in its own turn, a call announced
 * only by its approval as one tool, approvals and input requests where they were asked.
 */
export function exportMarkdown(meta: ConversationMeta, entries: readonly ConversationEntry[]): string {
  const conversation = foldConversation(entries);
  const out: string[] = [`# ${exportInline(meta.title)}`, ''];
  out.push(
    `- Agent: ${meta.agentName}`,
    `- Folder: ${inlineCode(meta.folder)}`,
    `- Started: ${meta.createdAt}`,
    `- Last activity: ${meta.lastActivity}`,
    ...usageLines(conversation.usage),
    '',
  );
  const severalFolders =
    new Set(conversation.blocks.flatMap((b) => (b.kind === 'notice' ? (b.changes?.files ?? []).map((f) => f.folder) : []))).size > 1;
  for (const block of conversation.blocks) {
    if (block.kind === 'notice') out.push(...noticeMarkdown(block, severalFolders));
    else out.push(...turnMarkdown(block));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The session's last reported context use and cost (`usage_update`), as the chat's meter showed them. */
function usageLines(usage: SessionUsage | undefined): string[] {
  if (!usage) return [];
  const cost = costText(usage);
  return [`- Context: ${contextText(usage)}`, ...(cost ? [`- Cost: ${exportInline(cost)}`] : [])];
}

function noticeMarkdown(n: Notice, severalFolders: boolean): string[] {
  if (n.signIn) return [];
  if (n.changes) {
    const files = n.changes.files.map((f) => {
      const lines = f.added !== undefined ? ` +${f.added} −${f.removed ?? 0}` : '';
      return `- ${inlineCode(changedFileLabel(f, severalFolders))} ${f.kind}${lines}${f.state ? ` (${f.state})` : ''}`;
    });
    return [`**Files changed:** ${n.changes.files.length}`, '', ...files, ''];
  }
  const text =
    n.text ?? (n.failure ? `${n.failure.agentName} stopped: ${n.failure.message}` : `${n.agentName} restarted with a new session.`);
  return [`> ${exportInline(text)}`, ''];
}

function turnMarkdown(t: Turn): string[] {
  const embodiment = t.embodiment?.length ? embodimentMarkdown(t.embodiment) : [];
  // Sparkle's embodiment before any prompt of the session is a section of its own, as in the chat.
  const ownPrompt = t.prompt.trim() !== '' || (t.attachments?.length ?? 0) > 0;
  if (!ownPrompt && t.updates.length === 0 && t.permissions.length === 0 && !t.elicitations?.length && !t.error) return embodiment;
  const out: string[] = ['## You', ''];
  out.push(exportBlock(t.prompt.trim()) || '_(no text)_', '');
  if (t.attachments?.length) out.push(`Attached: ${t.attachments.map(inlineCode).join(', ')}`, '');
  out.push('## Agent', '', ...embodiment);
  // Approvals and input requests go after the update that preceded them, as in the chat.
  const cardsAt = (position: number): string[] => [
    ...t.permissions.filter((p) => p.position === position).flatMap(permissionMarkdown),
    ...(t.elicitations ?? []).filter((e) => e.position === position).flatMap(elicitationMarkdown),
  ];
  out.push(...cardsAt(0));
  const phase = turnPhase(t);
  t.updates.forEach((u, i) => out.push(...updateMarkdown(u, phase), ...cardsAt(i + 1)));
  const late = (p: { position: number }): boolean => p.position > t.updates.length;
  out.push(...t.permissions.filter(late).flatMap(permissionMarkdown), ...(t.elicitations ?? []).filter(late).flatMap(elicitationMarkdown));
  if (t.error) out.push(`**Failed:** ${exportInline(t.error)}`, '');
  else if (t.stopReason && t.stopReason !== 'end_turn') out.push(`_Stopped: ${t.stopReason}_`, '');
  return out;
}

function embodimentMarkdown(updates: readonly SessionUpdate[]): string[] {
  const text = updates.flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' ? [blockText(u.content)] : [])).join('');
  return ['<details><summary>Sparkle embodiment</summary>', '', exportBlock(text), '', '</details>', ''];
}

function permissionMarkdown(p: PermissionCard): string[] {
  const d = p.decision;
  const how = !d ? 'not answered' : d.outcome === 'selected' ? `${d.optionName} (by ${d.by})` : `cancelled: ${d.reason}`;
  return [`Permission for ${exportInline(p.toolCall.title ?? 'a tool call')}: ${exportInline(how)}`, ''];
}

function elicitationMarkdown(e: ElicitationCard): string[] {
  const how = e.outcome ? elicitationOutcomeLabel(e.outcome.action).toLowerCase() : 'not answered';
  return [`Input requested: ${exportInline(e.prompt.message)} (${how})`, ''];
}

function updateMarkdown(u: SessionUpdate, phase: TurnPhase): string[] {
  switch (u.sessionUpdate) {
    case 'agent_message_chunk':
      return [exportBlock(blockText(u.content)), ''];
    case 'agent_thought_chunk':
      return ['<details><summary>Thinking</summary>', '', exportBlock(blockText(u.content)), '', '</details>', ''];
    case 'tool_call':
    case 'tool_call_update':
      return toolMarkdown(u, phase);
    case 'plan':
      return ['**Plan**', '', ...u.entries.map((e) => `- [${e.status === 'completed' ? 'x' : ' '}] ${exportInline(e.content)}`), ''];
    default:
      return [];
  }
}

/** A call's status in words, as the chat's card shows it. */
const STATUS_TEXT: Record<ShownStatus, string> = {
  pending: 'pending',
  in_progress: 'running',
  completed: 'completed',
  failed: 'failed',
  stopped: 'stopped',
  unreported: 'turn ended',
};

function toolMarkdown(u: ToolUpdate, phase: TurnPhase): string[] {
  const title = oneLine(u.title ?? u.toolCallId);
  const status = STATUS_TEXT[shownStatus(u, phase)];
  const out = [`<details><summary>Tool: ${escapeHtml(title)} (${status})</summary>`, ''];
  if (u.rawInput !== undefined) out.push('Input:', '', fenced(JSON.stringify(u.rawInput, null, 2), 'json'), '');
  const content = (u.content ?? []).map(contentText).filter((s) => s.length > 0);
  if (content.length) out.push('Output:', '', fenced(content.join('\n\n')), '');
  else if (u.rawOutput !== undefined) out.push('Output:', '', fenced(JSON.stringify(u.rawOutput, null, 2), 'json'), '');
  for (const l of u.locations ?? []) out.push(`- ${inlineCode(`${l.path}${l.line ? `:${l.line}` : ''}`)}`);
  if (u.locations?.length) out.push('');
  out.push('</details>', '');
  return out;
}

function contentText(c: ToolCallContent): string {
  switch (c.type) {
    case 'content':
      return blockText(c.content);
    case 'diff':
      return `diff ${c.path}\n--- before\n${c.oldText ?? '(new file)'}\n+++ after\n${c.newText}`;
    case 'terminal':
      return `(terminal ${c.terminalId})`;
    default:
      return '';
  }
}

function blockText(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'resource_link':
      return `[${b.name}](${b.uri})`;
    case 'resource':
      return 'text' in b.resource ? `${b.resource.uri}:\n${b.resource.text}` : b.resource.uri;
    case 'image':
      return `(image ${b.mimeType})`;
    case 'audio':
      return `(audio ${b.mimeType})`;
    default:
      return '';
  }
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** A path or name as inline code that its own backticks cannot end (one line). */
function inlineCode(s: string): string {
  const text = oneLine(s);
  const ticks = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}
const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
