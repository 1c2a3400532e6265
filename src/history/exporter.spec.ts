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

  it('writes what the chat showed: a late tool completion in its own turn, a call announced by its approval, input requests, changed files, failures', () => {
    const update = (messageId: string | undefined, u: Record<string, unknown>): ConversationEntry =>
      ({ type: 'agent-update', ...(messageId ? { messageId } : {}), update: u }) as ConversationEntry;
    const md = exportMarkdown(meta, [
      { type: 'session-ready', agentName: 'Codex', cwd: '/w' },
      { type: 'prompt-started', messageId: 'm1', text: 'run the tests' },
      update('m1', { sessionUpdate: 'tool_call', toolCallId: 'cmd', title: 'npm test', status: 'in_progress' }),
      { type: 'prompt-ended', messageId: 'm1', stopReason: 'end_turn' },
      { type: 'prompt-started', messageId: 'm2', text: 'write greeting.txt' },
      // Codex reports the first turn's command ending while the second runs.
      update('m2', { sessionUpdate: 'tool_call_update', toolCallId: 'cmd', status: 'completed' }),
      {
        type: 'permission-requested',
        messageId: 'm2',
        requestId: 'r1',
        toolCall: { toolCallId: 'w1', title: 'Writing to greeting.txt', kind: 'edit' },
        options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
      },
      {
        type: 'permission-resolved',
        messageId: 'm2',
        requestId: 'r1',
        decision: { outcome: 'selected', optionId: 'ok', optionName: 'Allow', optionKind: 'allow_once', by: 'user' },
      },
      // Gemini CLI: the call's updates carry only its status.
      update('m2', { sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'completed' }),
      {
        type: 'elicitation-requested',
        messageId: 'm2',
        requestId: 'e1',
        prompt: { mode: 'form', message: 'Which greeting?', form: { fields: [] } },
      },
      { type: 'elicitation-resolved', requestId: 'e1', outcome: { action: 'decline' } },
      { type: 'prompt-ended', messageId: 'm2', stopReason: 'end_turn' },
      { type: 'files-changed', messageId: 'm2', files: [{ folder: '/w', path: 'greeting.txt', kind: 'added', added: 1, removed: 0 }] },
      { type: 'agent-failed', noticeId: 'n1', failure: { agentName: 'Codex', message: 'exited with code 1', exitCode: 1, signal: null } },
      { type: 'agent-restarted', agentName: 'Codex', noticeId: 'n1' },
    ] as ConversationEntry[]);
    const first = md.slice(md.indexOf('run the tests'), md.indexOf('write greeting.txt'));
    assert.match(first, /Tool: npm test \(completed\)/, 'the late completion is in the first turn');
    const second = md.slice(md.indexOf('write greeting.txt'));
    assert.doesNotMatch(second, /npm test/);
    assert.equal(second.match(/Tool: Writing to greeting\.txt \(completed\)/g)?.length, 1, 'one tool, titled by its approval');
    assert.ok(second.indexOf('Permission for Writing to greeting.txt: Allow (by user)') < second.indexOf('Tool: Writing'), second);
    assert.match(second, /Input requested: Which greeting\? \(declined\)/);
    assert.match(second, /\*\*Files changed:\*\* 1\n\n- `greeting\.txt` added \+1 −0/);
    assert.match(second, /> Codex stopped: exited with code 1\n\n> Codex restarted with a new session\./);
  });

  it("a call left open by its turn: 'turn ended' when the agent ended it, 'stopped' when it was stopped, as the chat shows", () => {
    const call = (messageId: string): ConversationEntry =>
      ({
        type: 'agent-update',
        messageId,
        update: { sessionUpdate: 'tool_call', toolCallId: `c-${messageId}`, title: `ls ${messageId}`, status: 'in_progress' },
      }) as ConversationEntry;
    const md = exportMarkdown(meta, [
      { type: 'session-ready', agentName: 'Codex', cwd: '/w' },
      { type: 'prompt-started', messageId: 'm1', text: 'list' },
      call('m1'),
      { type: 'prompt-ended', messageId: 'm1', stopReason: 'end_turn' },
      { type: 'prompt-started', messageId: 'm2', text: 'list again' },
      call('m2'),
      { type: 'prompt-ended', messageId: 'm2', stopReason: 'cancelled' },
    ] as ConversationEntry[]);
    assert.match(md, /Tool: ls m1 \(turn ended\)/);
    assert.match(md, /Tool: ls m2 \(stopped\)/);
    assert.doesNotMatch(md, /in_progress/);
  });

  it("Sparkle's embodiment before the first prompt is a section of its own, not a turn without a prompt", () => {
    const mark = { symposium: { sparkle: 'embodiment' } };
    const md = exportMarkdown(meta, [
      { type: 'session-ready', agentName: 'ElizACP', cwd: '/w' },
      {
        type: 'agent-update',
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Embodiment received.' }, _meta: mark },
      },
      { type: 'prompt-started', messageId: 'm1', text: 'hello' },
      text('m1', 'Hi.'),
      { type: 'prompt-ended', messageId: 'm1', stopReason: 'end_turn' },
    ]);
    const body = md.slice(md.indexOf('- Last activity'));
    assert.match(body, /<details><summary>Sparkle embodiment<\/summary>\n\nEmbodiment received\.\n\n<\/details>\n\n## You\n\nhello\n/);
    assert.equal(body.match(/## You/g)?.length, 1);
    assert.doesNotMatch(body, /no text/);
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
