// ACP tool calls → one mynah-ui card per toolCallId: title, kind and status in the header (updated
// in place as tool_call_update arrives), input and output in a collapsed section, diffs inline
// with "Open diff" buttons (VS Code's diff view), locations as clickable files. Pure.
import type { ChatItem, ChatItemButton, ChatItemContent, MynahIconsType } from '@aws/mynah-ui';
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { TerminalView } from '../../src/protocol/conversation';
import { toolProgressOf } from '../../src/protocol/symposium-ext';
import { shownStatus, type ShownStatus, type TurnPhase } from '../../src/protocol/toolCallStatus';
import { unifiedDiff } from './diffText';
import { fenced } from '../../src/protocol/markdown';
import { basename, escapeInline, prettyJson } from './markdown';

export type ToolCallState = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

/** Button ids: `open-diff:<content index>`; file clicks carry `{action, index}` in details.data. */
export const OPEN_DIFF_PREFIX = 'open-diff:';

const KIND_ICON: Record<string, MynahIconsType> = {
  read: 'file',
  edit: 'pencil',
  delete: 'trash',
  move: 'transform',
  search: 'search',
  execute: 'shell',
  think: 'magic',
  fetch: 'globe',
  switch_mode: 'refresh',
  other: 'tools',
};
const KIND_LABEL: Record<string, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Switch mode',
  other: 'Tool',
};

export function statusView(status: ShownStatus): NonNullable<NonNullable<ChatItemContent['header']>['status']> {
  switch (status) {
    case 'stopped':
      return { status: 'info', icon: 'stop', text: 'Stopped', position: 'right' };
    case 'unreported':
      return { status: 'info', icon: 'info', text: 'Turn ended', position: 'right' };
    case 'pending':
      return { status: 'info', icon: 'progress', text: 'Pending', position: 'right' };
    case 'in_progress':
      return { status: 'info', icon: 'progress', text: 'Running', position: 'right' };
    case 'completed':
      return { status: 'success', icon: 'ok', text: 'Completed', position: 'right' };
    case 'failed':
      return { status: 'error', icon: 'cancel', text: 'Failed', position: 'right' };
  }
}

export const kindLabel = (kind: string | null | undefined): string => KIND_LABEL[kind ?? 'other'] ?? kind ?? 'Tool';

function terminalSection(terminalId: string, view: TerminalView | undefined): ChatItemContent {
  if (!view) return { header: { body: `Terminal \`${terminalId}\``, icon: 'shell' }, body: '_Waiting for output…_' };
  const exit = view.exitStatus;
  const status = !exit ? 'running' : exit.signal ? `killed by ${exit.signal}` : `exited with code ${String(exit.exitCode)}`;
  return {
    header: { body: `\`${escapeInline(view.command)}\` — ${status}`, icon: 'shell' },
    body: `${view.truncated ? '_(earlier output truncated)_\n' : ''}${fenced(view.output || '(no output)', 'text')}`,
  };
}

function contentSection(c: ToolCallContent, terminals: Record<string, TerminalView>): ChatItemContent {
  switch (c.type) {
    case 'content': {
      const b = c.content;
      if (b.type === 'text') return { body: b.text };
      if (b.type === 'resource_link') return { body: `[${escapeInline(b.name)}](${b.uri})` };
      if (b.type === 'resource') return { body: 'text' in b.resource ? fenced(b.resource.text) : `Binary resource ${b.resource.uri}` };
      return { body: `_${b.type} content_` };
    }
    case 'diff':
      return { header: { body: `Diff of \`${basename(c.path)}\``, icon: 'file' }, body: fenced(unifiedDiff(c.oldText, c.newText), 'diff') };
    case 'terminal':
      return terminalSection(c.terminalId, terminals[c.terminalId]);
  }
}

const percent = (done?: number, total?: number): string =>
  done !== undefined && total ? ` (${Math.min(100, Math.round((done / total) * 100))} %)` : '';

export function toolCallToChatItem(
  t: ToolCallState,
  itemId: string,
  terminals: Record<string, TerminalView> = {},
  turn: TurnPhase = 'running',
): ChatItem {
  const status = shownStatus(t, turn);
  const content = t.content ?? [];
  const locations = t.locations ?? [];
  const details: ChatItemContent[] = [];
  if (t.rawInput !== undefined && t.rawInput !== null)
    details.push({ header: { body: 'Input' }, body: fenced(prettyJson(t.rawInput), 'json') });
  for (const c of content) details.push(contentSection(c, terminals));
  if (t.rawOutput !== undefined && t.rawOutput !== null && !content.some((c) => c.type === 'content')) {
    details.push({ header: { body: 'Output' }, body: fenced(prettyJson(t.rawOutput), 'json') });
  }
  const buttons: ChatItemButton[] = content.flatMap((c, i) =>
    c.type === 'diff'
      ? [
          {
            id: `${OPEN_DIFF_PREFIX}${i}`,
            text: `Open diff: ${basename(c.path)}`,
            icon: 'file',
            status: 'clear',
            keepCardAfterClick: true,
          } satisfies ChatItemButton,
        ]
      : [],
  );
  // Files the call touched or points at: click opens the diff (if any) or reveals the line.
  const files = [
    ...content.flatMap((c, i) =>
      c.type === 'diff' ? [{ path: c.path, action: 'diff', index: i, line: undefined as number | undefined }] : [],
    ),
    ...locations.map((l, i) => ({ path: l.path, action: 'location', index: i, line: l.line ?? undefined })),
  ].filter((f, i, all) => all.findIndex((g) => g.path === f.path) === i); // a diff beats a location of the same file
  const item: ChatItem = {
    type: 'answer' as ChatItem['type'],
    messageId: itemId,
    header: {
      icon: KIND_ICON[t.kind ?? 'other'] ?? 'tools',
      body: `**${escapeInline(t.title ?? 'Tool call')}**`,
      status: statusView(status),
    },
    body: `_${kindLabel(t.kind)}_${locations.length ? ` · ${locations.map((l) => `\`${basename(l.path)}${l.line ? `:${l.line}` : ''}\``).join(', ')}` : ''}`,
    shimmer: status === 'in_progress' || status === 'pending',
  };
  // Live progress of long tool work (`_meta.symposium.progress`), only while the call runs.
  const progress = status === 'in_progress' ? toolProgressOf(t) : undefined;
  if (progress) item.body += `\n\n⏳ ${escapeInline(progress.message)}${percent(progress.progress, progress.total)}`;
  if (details.length)
    item.summary = {
      isCollapsed: true,
      content: { body: status === 'failed' ? 'Details (failed)' : 'Details' },
      collapsedContent: details,
    };
  if (buttons.length) item.buttons = [...buttons].reverse(); // mynah v4 renders buttons in reverse order
  if (files.length) {
    item.fileList = {
      fileTreeTitle: 'Files',
      filePaths: files.map((f) => f.path),
      flatList: true,
      hideFileCount: true,
      collapsed: false,
      details: Object.fromEntries(
        files.map((f) => [
          f.path,
          {
            visibleName: basename(f.path),
            description: f.action === 'diff' ? 'open diff' : f.line ? `line ${f.line}` : undefined,
            clickable: true,
            data: { action: f.action, index: String(f.index), ...(f.line ? { line: String(f.line) } : {}) },
          },
        ]),
      ),
    };
  }
  return item;
}
