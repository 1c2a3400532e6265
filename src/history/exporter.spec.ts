import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationEntry } from '../protocol/webview';
import { exportMarkdown } from './exporter';
import type { ConversationMeta } from './historyStore';

const GOLDEN = path.join(__dirname, 'fixtures', 'export.golden.md');

const meta: ConversationMeta = {
  id: '00000000-0000-4000-8000-000000000001',
  title: 'Fix the parser',
  agentName: 'ElizACP',
  folder: '/work/project',
  sessionId: 'sess-1',
  createdAt: '2026-11-22T10:00:00.000Z',
  lastActivity: '2026-11-22T10:05:00.000Z',
  turns: 2,
};
const text = (messageId: string, t: string): ConversationEntry => ({
  type: 'agent-update',
  messageId,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } },
});

/** A conversation with every kind of thing the exporter writes, streamed as the chat records it. */
const entries: ConversationEntry[] = [
  { type: 'session-ready', agentName: 'ElizACP', cwd: '/work/project' },
  { type: 'prompt-started', messageId: 'm1', text: 'Why does the parser fail?', attachments: ['parser.rs'] },
  {
    type: 'agent-update',
    messageId: 'm1',
    update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Look at the lexer.' } },
  },
  text('m1', 'Let me '),
  text('m1', 'look.'),
  {
    type: 'agent-update',
    messageId: 'm1',
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Read <parser.rs>',
      kind: 'read',
      status: 'pending',
      rawInput: { path: 'src/parser.rs' },
    },
  },
  {
    type: 'agent-update',
    messageId: 'm1',
    update: {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'fn parse() { ```oops``` }' } }],
      locations: [{ path: 'src/parser.rs', line: 12 }],
    },
  },
  {
    type: 'agent-update',
    messageId: 'm1',
    update: {
      sessionUpdate: 'plan',
      entries: [
        { content: 'Read the parser', priority: 'high', status: 'completed' },
        { content: 'Fix the lexer', priority: 'medium', status: 'pending' },
      ],
    },
  },
  {
    type: 'permission-requested',
    messageId: 'm1',
    requestId: 'r1',
    toolCall: { toolCallId: 't2', title: 'Edit parser.rs' },
    options: [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }],
  },
  {
    type: 'permission-resolved',
    messageId: 'm1',
    requestId: 'r1',
    decision: { outcome: 'selected', optionId: 'allow', optionName: 'Allow once', optionKind: 'allow_once', by: 'user' },
  },
  text('m1', 'The lexer drops the last token.'),
  { type: 'prompt-ended', messageId: 'm1', stopReason: 'end_turn' },
  { type: 'prompt-started', messageId: 'm2', text: 'Tell me a long story' },
  text('m2', 'Once upon'),
  { type: 'prompt-ended', messageId: 'm2', stopReason: 'cancelled' },
  { type: 'tab-notice', level: 'warning', text: 'ElizACP cannot continue old sessions.' },
];

describe('exportMarkdown', () => {
  it('matches the golden file (prompts, replies, tool calls in <details>, plans, decisions, notices)', () => {
    const md = exportMarkdown(meta, entries);
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(GOLDEN, md);
    assert.equal(md, fs.readFileSync(GOLDEN, 'utf8'));
  });

  it('a fence is longer than any backtick run in the tool output', () => {
    const md = exportMarkdown(meta, entries);
    assert.ok(md.includes('````\nfn parse() { ```oops``` }\n````'), md);
  });

  it("the session's last context use and cost are in the header; an update that cannot be shown is skipped", () => {
    const usage = (update: Record<string, unknown>): ConversationEntry =>
      ({ type: 'agent-update', messageId: 'm1', update: { sessionUpdate: 'usage_update', ...update } }) as ConversationEntry;
    const md = exportMarkdown(meta, [
      ...entries,
      usage({ used: 1000, size: 200_000 }),
      usage({ used: 170_000, size: 200_000, cost: { amount: 0.01234567, currency: 'USD' } }),
      usage({ used: -5, size: 200_000 }),
      usage({ used: 10, size: 0 }),
    ]);
    assert.match(md, /\n- Context: 170k of 200k tokens \(85 %\)\n- Cost: 0\.0123 USD\n/);
    assert.doesNotMatch(exportMarkdown(meta, entries), /Context:/, 'no usage reported, no line');
  });
});
