// Test hooks: fixed phrases that make ElizACP exercise one protocol feature instead of chatting.
// This file only *recognizes* hooks (pure, unit-testable); turn.ts runs them. Every phrase is
// documented in docs/eliza.md — keep the two in sync.
//
// Matching is case-insensitive on the prompt's text blocks joined with '\n' and trimmed. Hooks
// are anchored at the start of the text so ordinary sentences ("why does my app crash?") never
// trigger them by accident.
import type { ContentBlock, ToolKind } from '@agentclientprotocol/sdk';
import type { DiskEdit } from './diskEdits';

export type Hook =
  | { kind: 'help' }
  | { kind: 'story' }
  | { kind: 'plan' }
  | { kind: 'list-tools'; server: string }
  | { kind: 'use-tool'; server: string; tool: string; argsJson: string }
  /** Several MCP calls at once (one line each), as an agent calling tools in parallel does. */
  | { kind: 'use-tools'; calls: { server: string; tool: string; argsJson: string }[] }
  | { kind: 'session-info' }
  /** Whether an earlier prompt of the session held `word` (what a fork or a resume remembers). */
  | { kind: 'recall'; word: string }
  | { kind: 'sign-in-status' }
  | { kind: 'permission'; title: string; toolKind: ToolKind }
  /** `additionalFolder`: the path is relative to the session's n-th additional directory (1-based). */
  | { kind: 'read-file'; path: string; line?: number; limit?: number; additionalFolder?: number }
  /** The session's folders: cwd and `additionalDirectories`. */
  | { kind: 'folders' }
  | { kind: 'write-file'; path: string; content: string }
  | { kind: 'disk-edit'; edit: DiskEdit }
  | { kind: 'run-command'; commandLine: string }
  | { kind: 'think'; topic: string }
  | { kind: 'demo-tool-call' }
  | { kind: 'demo-read-tool' }
  /** `reason` is normalized (lower case, underscores); turn.ts decides whether it is a known one. */
  | { kind: 'stop'; reason: string }
  | { kind: 'fail'; message: string }
  | { kind: 'what-mode' }
  | { kind: 'stream'; count: number }
  | { kind: 'crash'; code: number }
  | { kind: 'garbage' }
  | { kind: 'echo-meta' }
  | { kind: 'attachments' }
  /** A `usage_update`: the figures given, or (`raw`) the JSON fields exactly as written, unchecked. */
  | { kind: 'usage'; used: number; size: number; cost?: { amount: number; currency: string } }
  | { kind: 'raw-usage'; json: string }
  /** Adds the boolean config option `brief` to the session (config_option_update). */
  | { kind: 'offer-toggle' }
  /** The text blocks of the session's previous prompt, as JSON (what a client put before the typed text). */
  | { kind: 'previous-prompt' }
  /** The session's MCP servers as `session/new` (or load, resume, fork) declared them. */
  | { kind: 'mcp-servers' }
  /** elicitation/create in form mode: the demo form, or (`schemaJson`) the schema as written. */
  | { kind: 'form'; schemaJson?: string }
  | { kind: 'url'; url: string };

/** Upper bound for `stream <N> chunks`, so a typo cannot make the agent stream forever. */
export const MAX_STREAM_CHUNKS = 100_000;
export const DEFAULT_CRASH_CODE = 3;
export const DEFAULT_PERMISSION_TITLE = 'an example edit';
export const DEFAULT_PERMISSION_KIND: ToolKind = 'edit';
export const DEFAULT_FAIL_MESSAGE = 'ElizACP failed this prompt as asked';

/** Every ACP ToolKind; `request permission … kind <kind>` only recognizes these. */
export const TOOL_KINDS: readonly ToolKind[] = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
];

/** `stop with Max Tokens` → `max_tokens`: tests may write the reason the way they read it. */
export function normalizeStopReason(s: string): string {
  return s
    .trim()
    .replace(/[.!]+$/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

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

/**
 * The file a permission title is about, if its last word looks like a path ("Edit src/main.rs",
 * "Read \"my notes.md\"") — a slash, or a name with a letter extension. The permission hook then
 * sends it as rawInput.path and as a location, as a real agent would for a file tool.
 */
export function pathInTitle(title: string): string | undefined {
  const m = new RegExp(String.raw`(?:^|\s)${PATH}$`, 's').exec(title.trim());
  const word = m ? unquote(m[1] ?? '') : '';
  return word.includes('/') || word.includes('\\') || /.\.[A-Za-z][A-Za-z0-9]*$/.test(word) ? word : undefined;
}

type Matcher = (m: RegExpExecArray) => Hook;
const HOOKS: ReadonlyArray<readonly [RegExp, Matcher]> = [
  [/^\/help\b/i, () => ({ kind: 'help' })],
  [/^what was my previous prompt\??$/i, () => ({ kind: 'previous-prompt' })],
  [/^which mcp servers do you have\??$/i, () => ({ kind: 'mcp-servers' })],
  [/^ask me a form$/i, () => ({ kind: 'form' })],
  [/^ask me a raw form\s+(.+)$/is, (m) => ({ kind: 'form', schemaJson: (m[1] ?? '').trim() })],
  [/^ask me to open a url\s+(\S+)$/i, (m) => ({ kind: 'url', url: m[1] ?? '' })],
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
    // A trailing `kind <kind>` is only taken from the title when it names a real ToolKind, so
    // titles such as "Pick a kind of test" keep working as before.
    new RegExp(String.raw`^request permission(?:\s+for\s+(.+?))?(?:\s+kind\s+(${TOOL_KINDS.join('|')}))?\s*$`, 'is'),
    (m) => ({
      kind: 'permission',
      title: m[1]?.trim() || DEFAULT_PERMISSION_TITLE,
      toolKind: (m[2]?.toLowerCase() as ToolKind | undefined) ?? DEFAULT_PERMISSION_KIND,
    }),
  ],
  [
    new RegExp(String.raw`^read file\s+${PATH}\s+in additional folder\s+(\d+)\s*$`, 'is'),
    (m) => ({ kind: 'read-file', path: unquote(m[1] ?? ''), additionalFolder: Number(m[2]) }),
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
  // Changes made on disk by the agent itself (no fs/* request): diskEdits.ts.
  [
    new RegExp(String.raw`^save file\s+${PATH}\s+with\s+(.*)$`, 'is'),
    (m) => ({ kind: 'disk-edit', edit: { op: 'save', path: unquote(m[1] ?? ''), content: m[2] ?? '' } }),
  ],
  [
    new RegExp(String.raw`^edit file\s+${PATH}\s+replacing\s+${PATH}\s+with\s+(.*)$`, 'is'),
    (m) => ({ kind: 'disk-edit', edit: { op: 'replace', path: unquote(m[1] ?? ''), old: unquote(m[2] ?? ''), new: unquote(m[3] ?? '') } }),
  ],
  [
    new RegExp(String.raw`^delete file\s+${PATH}\s*$`, 'is'),
    (m) => ({ kind: 'disk-edit', edit: { op: 'delete', path: unquote(m[1] ?? '') } }),
  ],
  [
    new RegExp(String.raw`^write file\s+${PATH}\s+with\s+(.*)$`, 'is'),
    (m) => ({ kind: 'write-file', path: unquote(m[1] ?? ''), content: m[2] ?? '' }),
  ],
  // Readable shortcuts for the `ide` server's typed tools (the ide-operations component).
  [
    /^find definitions?\s+(?:of|for)\s+(.+?)[.?!]?$/is,
    (m) => ({
      kind: 'use-tool',
      server: 'symposium-ide',
      tool: 'find_definitions',
      argsJson: JSON.stringify({ symbol: unquote(m[1] ?? '') }),
    }),
  ],
  [
    /^find references\s+(?:to|of)\s+(.+?)[.?!]?$/is,
    (m) => ({
      kind: 'use-tool',
      server: 'symposium-ide',
      tool: 'find_references',
      argsJson: JSON.stringify({ symbol: unquote(m[1] ?? '') }),
    }),
  ],
  [/^run command\s+(.+)$/is, (m) => ({ kind: 'run-command', commandLine: (m[1] ?? '').trim() })],
  [/^think about\s+(.+)$/is, (m) => ({ kind: 'think', topic: (m[1] ?? '').trim() })],
  [/^demo tool call\b/i, () => ({ kind: 'demo-tool-call' })],
  [/^demo read tool\b/i, () => ({ kind: 'demo-read-tool' })],
  [/^stop with\s+(.+)$/is, (m) => ({ kind: 'stop', reason: normalizeStopReason(m[1] ?? '') })],
  [
    // The message keeps its case: tests compare it with the JSON-RPC error they receive.
    /^fail this prompt(?:\s+with\s+(.+?)|[.!])?\s*$/is,
    (m) => ({ kind: 'fail', message: m[1]?.trim() || DEFAULT_FAIL_MESSAGE }),
  ],
  [/^what mode\b/i, () => ({ kind: 'what-mode' })],
  [/^session info\b/i, () => ({ kind: 'session-info' })],
  [/^what folders do you see\b/i, () => ({ kind: 'folders' })],
  [/^did i say\s+(.+?)[?.!]?\s*$/is, (m) => ({ kind: 'recall', word: unquote((m[1] ?? '').trim()) })],
  [/^sign-?in status\b/i, () => ({ kind: 'sign-in-status' })],
  [
    // `use tools` then one `<server>::<tool> [with {json}]` per line: all calls start together.
    /^use tools\s*\n([\s\S]+)$/i,
    (m) => ({
      kind: 'use-tools',
      calls: (m[1] ?? '')
        .split('\n')
        .map((l) => /^\s*(.+?)::(\S+)(?:\s+with\s+(.*))?\s*$/.exec(l))
        .filter((c): c is RegExpExecArray => c !== null)
        .map((c) => ({ server: unquote(c[1] ?? ''), tool: c[2] ?? '', argsJson: (c[3] ?? '{}').trim() })),
    }),
  ],
  [/^stream\s+(\d+)\s+chunks?\b/i, (m) => ({ kind: 'stream', count: Math.min(MAX_STREAM_CHUNKS, Number(m[1])) })],
  [
    /^crash(?:\s+with\s+code\s+(\d+))?[.!]?$/i,
    (m) => ({ kind: 'crash', code: m[1] !== undefined ? Number(m[1]) & 0xff : DEFAULT_CRASH_CODE }),
  ],
  [/^print garbage\b/i, () => ({ kind: 'garbage' })],
  [/^echo meta\b/i, () => ({ kind: 'echo-meta' })],
  [/^what did i attach\b/i, () => ({ kind: 'attachments' })],
  [
    /^report usage\s+(\d+)\s+of\s+(\d+)(?:\s+costing\s+(\d+(?:\.\d+)?)\s+([A-Za-z]+))?\s*$/i,
    (m) => ({
      kind: 'usage',
      used: Number(m[1]),
      size: Number(m[2]),
      ...(m[3] !== undefined ? { cost: { amount: Number(m[3]), currency: m[4] ?? '' } } : {}),
    }),
  ],
  [/^report raw usage\s+(\{.*\})\s*$/is, (m) => ({ kind: 'raw-usage', json: m[1] ?? '{}' })],
  [/^offer a toggle\b/i, () => ({ kind: 'offer-toggle' })],
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
