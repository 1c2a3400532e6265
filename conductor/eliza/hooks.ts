// Test hooks: fixed phrases that make ElizACP exercise one protocol feature instead of chatting.
// This file only *recognizes* hooks (pure, unit-testable); turn.ts runs them. Every phrase is
// documented in docs/eliza.md — keep the two in sync.
//
// Matching is case-insensitive on the prompt's text blocks joined with '\n' and trimmed. Hooks
// are anchored at the start of the text so ordinary sentences ("why does my app crash?") never
// trigger them by accident.
import type { ContentBlock } from '@agentclientprotocol/sdk';

export type Hook =
  | { kind: 'help' }
  | { kind: 'story' }
  | { kind: 'plan' }
  | { kind: 'list-tools'; server: string }
  | { kind: 'use-tool'; server: string; tool: string; argsJson: string }
  | { kind: 'permission'; title: string }
  | { kind: 'read-file'; path: string; line?: number; limit?: number }
  | { kind: 'write-file'; path: string; content: string }
  | { kind: 'run-command'; commandLine: string }
  | { kind: 'think'; topic: string }
  | { kind: 'demo-tool-call' }
  | { kind: 'stream'; count: number }
  | { kind: 'crash'; code: number }
  | { kind: 'garbage' }
  | { kind: 'echo-meta' }
  | { kind: 'attachments' };

/** Upper bound for `stream <N> chunks`, so a typo cannot make the agent stream forever. */
export const MAX_STREAM_CHUNKS = 100_000;
export const DEFAULT_CRASH_CODE = 3;
export const DEFAULT_PERMISSION_TITLE = 'an example edit';

/** The text the hooks and the engine see: all text blocks, in order. */
export function promptText(prompt: readonly ContentBlock[]): string {
  return prompt
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
}

/** One line per non-text block, for the `what did i attach` hook. */
export function describeAttachments(prompt: readonly ContentBlock[]): string[] {
  const lines: string[] = [];
  for (const block of prompt) {
    switch (block.type) {
      case 'text':
        break;
      case 'resource_link':
        lines.push(`resource_link ${block.uri} (${block.name})`);
        break;
      case 'resource':
        lines.push(`resource ${block.resource.uri}`);
        break;
      case 'image':
        lines.push(`image ${block.uri ?? block.mimeType}`);
        break;
      case 'audio':
        lines.push(`audio ${block.mimeType}`);
        break;
    }
  }
  return lines;
}

// Names may be written bare, "quoted" or `quoted`; quotes allow spaces in paths and names.
function unquote(s: string): string {
  const t = s.trim();
  const m = /^(["'`])(.*)\1$/s.exec(t);
  return m ? (m[2] ?? '') : t;
}

const PATH = String.raw`("[^"]+"|'[^']+'|\S+)`;

type Matcher = (m: RegExpExecArray) => Hook;
const HOOKS: ReadonlyArray<readonly [RegExp, Matcher]> = [
  [/^\/help\b/i, () => ({ kind: 'help' })],
  [/^\/story\b/i, () => ({ kind: 'story' })],
  [/^\/plan\b/i, () => ({ kind: 'plan' })],
  [/^(?:please\s+)?tell me a long story\b/i, () => ({ kind: 'story' })],
  [/^show plan\b/i, () => ({ kind: 'plan' })],
  [/^list tools from\s+(.+)$/is, (m) => ({ kind: 'list-tools', server: unquote(m[1] ?? '') })],
  [
    /^use tool\s+(.+?)::(\S+)(?:\s+with\s+(.*))?$/is,
    (m) => ({ kind: 'use-tool', server: unquote(m[1] ?? ''), tool: m[2] ?? '', argsJson: (m[3] ?? '{}').trim() }),
  ],
  [
    /^request permission(?:\s+for\s+(.+))?$/is,
    (m) => ({ kind: 'permission', title: m[1]?.trim() || DEFAULT_PERMISSION_TITLE }),
  ],
  [
    new RegExp(String.raw`^read file\s+${PATH}(?:\s+lines\s+(\d+)\s+(\d+))?\s*$`, 'is'),
    (m) => ({
      kind: 'read-file',
      path: unquote(m[1] ?? ''),
      ...(m[2] !== undefined ? { line: Number(m[2]) } : {}),
      ...(m[3] !== undefined ? { limit: Number(m[3]) } : {}),
    }),
  ],
  [
    new RegExp(String.raw`^write file\s+${PATH}\s+with\s+(.*)$`, 'is'),
    (m) => ({ kind: 'write-file', path: unquote(m[1] ?? ''), content: m[2] ?? '' }),
  ],
  [/^run command\s+(.+)$/is, (m) => ({ kind: 'run-command', commandLine: (m[1] ?? '').trim() })],
  [/^think about\s+(.+)$/is, (m) => ({ kind: 'think', topic: (m[1] ?? '').trim() })],
  [/^demo tool call\b/i, () => ({ kind: 'demo-tool-call' })],
  [
    /^stream\s+(\d+)\s+chunks?\b/i,
    (m) => ({ kind: 'stream', count: Math.min(MAX_STREAM_CHUNKS, Number(m[1])) }),
  ],
  [
    /^crash(?:\s+with\s+code\s+(\d+))?[.!]?$/i,
    (m) => ({ kind: 'crash', code: m[1] !== undefined ? Number(m[1]) & 0xff : DEFAULT_CRASH_CODE }),
  ],
  [/^print garbage\b/i, () => ({ kind: 'garbage' })],
  [/^echo meta\b/i, () => ({ kind: 'echo-meta' })],
  [/^what did i attach\b/i, () => ({ kind: 'attachments' })],
];

/** The hook the (trimmed) prompt text asks for, or undefined for ordinary conversation. */
export function parseHook(text: string): Hook | undefined {
  for (const [re, build] of HOOKS) {
    const m = re.exec(text);
    if (m) return build(m);
  }
  return undefined;
}

/**
 * Splits a command line into words the way a shell would for simple cases: whitespace separates,
 * single and double quotes group, backslash escapes the next character. No expansion — the client
 * runs the command directly, not through a shell.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}
