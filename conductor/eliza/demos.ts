// Hooks that only *send* things (no client requests): the long story, plans, thoughts, a fake
// edit with a diff, raw throughput streaming, and the help text. They exist so clients and the
// conductor can be tested against every kind of session/update without a real model.
import { respond } from './engine';
import { MAX_STREAM_CHUNKS } from './hooks';
import { nextToolCallId, resolvePath } from './client-calls';
import { chunkDelay, sendUpdate, sleep, throwIfCancelled } from './turn-context';
import type { Turn } from './turn-context';
import type * as acp from '@agentclientprotocol/sdk';

/** 40 fragments, one chunk each, 100 ms apart: about four seconds — long enough to cancel. */
export const STORY: readonly string[] = [
  'Once upon a time, ',
  'in a repository ',
  'far, far away, ',
  'there lived a small bug. ',
  'It hid in a function ',
  'that nobody had read ',
  'since the last big refactor. ',
  'Every night, ',
  'when the CI ran, ',
  'the bug would wake up ',
  'and flip a single bit. ',
  'The tests went red, ',
  'then green again, ',
  'and nobody knew why. ',
  'One day a developer ',
  'named Ada ',
  'opened the file ',
  'and sighed. ',
  '"Tell me about your bug," ',
  'said the terminal. ',
  'Ada typed: ',
  '"It only fails on Tuesdays." ',
  '"Why do you say ',
  'it only fails on Tuesdays?" ',
  'asked the terminal. ',
  'Ada thought about it ',
  'for a long time. ',
  'Then she wrote a test ',
  'that set the clock ',
  'to a Tuesday. ',
  'It failed at once. ',
  'The bug, ',
  'finally seen, ',
  'had nowhere left to hide. ',
  'Ada fixed it ',
  'with a single line, ',
  'and the tests ',
  'stayed green forever. ',
  'The end. ',
  'Sleep well, little build.',
];
export const STORY_CHUNK_DELAY_MS = 100;

export async function storyHook(turn: Turn): Promise<void> {
  for (const fragment of STORY) {
    await sleep(STORY_CHUNK_DELAY_MS, turn.signal);
    await sendUpdate(turn, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: fragment } });
  }
}

export const PLAN_STEPS: ReadonlyArray<readonly [string, acp.PlanEntryPriority]> = [
  ['Reproduce the problem with a failing test', 'high'],
  ['Make the smallest change that fixes it', 'medium'],
  ['Refactor and run the whole suite', 'low'],
];
export const PLAN_REPLY = 'All three steps of the plan are completed.';

/** Full plan replacements: all pending, then each step in_progress → completed in turn. */
export async function planHook(turn: Turn): Promise<string> {
  const status: acp.PlanEntryStatus[] = PLAN_STEPS.map(() => 'pending');
  const send = async (): Promise<void> => {
    await sleep(chunkDelay(turn) * 2, turn.signal);
    await sendUpdate(turn, {
      sessionUpdate: 'plan',
      entries: PLAN_STEPS.map(([content, priority], i) => ({ content, priority, status: status[i] ?? 'pending' })),
    });
  };
  await send();
  for (let i = 0; i < status.length; i++) {
    status[i] = 'in_progress';
    await send();
    status[i] = 'completed';
    await send();
  }
  return PLAN_REPLY;
}

export function thoughts(topic: string): string[] {
  return [
    `The user wants me to think about ${topic}. `,
    'What would a patient listener ask here? ',
    'Reflecting the question back usually helps. ',
    'I will answer with a question.',
  ];
}

/** Several agent_thought_chunk updates, then the ELIZA reply to the topic. */
export async function thinkHook(turn: Turn, topic: string): Promise<string> {
  for (const thought of thoughts(topic)) {
    await sleep(chunkDelay(turn), turn.signal);
    await sendUpdate(turn, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: thought } });
  }
  return respond(topic, { deterministic: turn.options.deterministic, verbose: turn.session.model === 'eliza-verbose' });
}

export const DEMO_FILE = 'src/eliza-demo.ts';
export const DEMO_LINE = 3;
export const DEMO_OLD_TEXT = "const greeting = 'hello';\n";
export const DEMO_NEW_TEXT = "const greeting = 'hello, world';\n";

type ToolCallStart = Omit<Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' }>, 'sessionUpdate' | 'toolCallId' | 'status'>;
type ToolCallEnd = Omit<Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }>, 'sessionUpdate' | 'toolCallId' | 'status'>;

/**
 * The life of a demo tool call, as real agents send it: `tool_call` (pending) → a status-only
 * `tool_call_update` (in_progress) → `tool_call_update` completed with `end`'s fields.
 */
async function playToolCall(turn: Turn, idPrefix: string, start: ToolCallStart, end: ToolCallEnd): Promise<void> {
  const toolCallId = nextToolCallId(idPrefix);
  await sendUpdate(turn, { sessionUpdate: 'tool_call', toolCallId, status: 'pending', ...start });
  await sleep(chunkDelay(turn), turn.signal);
  await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  await sleep(chunkDelay(turn), turn.signal);
  await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', ...end });
}

/** A fake edit: tool_call (pending, with location) → in_progress → completed with a diff. No file is touched. */
export async function demoToolCallHook(turn: Turn): Promise<string> {
  const path = resolvePath(turn, DEMO_FILE);
  await playToolCall(
    turn,
    'demo',
    {
      title: `Edit ${DEMO_FILE}`,
      kind: 'edit',
      locations: [{ path, line: DEMO_LINE }],
      rawInput: { path, oldText: DEMO_OLD_TEXT, newText: DEMO_NEW_TEXT },
    },
    {
      content: [
        { type: 'diff', path, oldText: DEMO_OLD_TEXT, newText: DEMO_NEW_TEXT },
        { type: 'content', content: { type: 'text', text: `Changed the greeting on line ${DEMO_LINE}.` } },
      ],
    },
  );
  return `I pretended to edit ${path}: the greeting on line ${DEMO_LINE} now says hello, world.`;
}

export const READ_DEMO_FILE = 'README.md';
export const READ_DEMO_TEXT = '# Title\nSome text';
export const READ_DEMO_REPLY = 'Read done.';

/**
 * A fake read with no terminal and no diff, for tool-call card tests: tool_call (kind read,
 * pending, location line 1, rawInput) → status-only in_progress → completed with text content and
 * rawOutput. The file is never touched: the content is canned so the test does not need one.
 */
export async function demoReadToolHook(turn: Turn): Promise<string> {
  const path = resolvePath(turn, READ_DEMO_FILE);
  await playToolCall(
    turn,
    'read',
    {
      title: `Read ${path}`,
      kind: 'read',
      locations: [{ path, line: 1 }],
      rawInput: { path },
    },
    {
      content: [{ type: 'content', content: { type: 'text', text: READ_DEMO_TEXT } }],
      rawOutput: { path, content: READ_DEMO_TEXT },
    },
  );
  return READ_DEMO_REPLY;
}

/**
 * `stream <N> chunks`: N chunks "chunk <i> " (i = 1..N) as fast as the pipe takes them. Sends are
 * awaited in batches — enough backpressure to bound memory, few enough awaits to measure the
 * transport rather than this loop — and cancellation is checked between batches.
 */
export async function streamChunksHook(turn: Turn, count: number): Promise<void> {
  const n = Math.max(0, Math.min(MAX_STREAM_CHUNKS, Math.floor(count)));
  const BATCH = 256;
  for (let start = 1; start <= n; start += BATCH) {
    throwIfCancelled(turn);
    const sends: Array<Promise<void>> = [];
    for (let i = start; i < start + BATCH && i <= n; i++) {
      sends.push(sendUpdate(turn, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${i} ` } }));
    }
    await Promise.all(sends);
    await sleep(0, turn.signal);
  }
}

export const HELP_TEXT = [
  'I am ElizACP, a deterministic ACP test agent. Talk to me, or try a hook:',
  '- tell me a long story  (or /story): slow stream, good for testing cancel',
  '- show plan  (or /plan): plan updates from pending to completed',
  '- think about <topic>: thought chunks, then a reply',
  '- demo tool call: a tool call with a diff | demo read tool: a read tool call with text content',
  '- request permission [for <title>] [kind <read|edit|delete|move|search|execute|think|fetch|other>]',
  '- read file <path> [lines <line> <limit>] | read file <path> in additional folder <n> | write file <path> with <content>',
  '- on disk, without fs/*: save file <path> with <content> | edit file <path> replacing <old> with <new> | delete file <path>',
  '- run command <command line>',
  '- list tools from <server> | use tool <server>::<tool> with <json>',
  '- what mode: the current mode and model | session info: the session id and its prompt count',
  '- what folders do you see: the session folder and its additional directories',
  '- did i say <word>: whether an earlier prompt of this session held it',
  '- use tools, then one <server>::<tool> [with <json>] per line: parallel MCP calls',
  '- stop with <refusal|max_tokens|max_turn_requests> | fail this prompt [with <message>]',
  '- stream <N> chunks | echo meta | what did i attach | print garbage | crash [with code <N>]',
].join('\n');
