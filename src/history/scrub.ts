// What never goes to disk with a conversation: environment values (a terminal's or a tool call's
// `env`, which often hold tokens) and image bytes beyond a size cap. Applied to every entry before
// the history store writes it. Pure.
import { isObject } from '../protocol/guards';
import type { ConversationEntry } from '../protocol/webview';

/** Stands in for a removed environment value. */
export const ENV_VALUE_REMOVED = '(not stored)';

/** A copy of `entry` without environment values and without image/blob data over `maxImageBytes`. */
export function scrubEntry(entry: ConversationEntry, maxImageBytes: number): ConversationEntry {
  return scrub(entry, maxImageBytes) as ConversationEntry;
}

function scrub(value: unknown, maxBytes: number, key?: string): unknown {
  if (Array.isArray(value)) {
    // ACP's `env: [{name, value}]` (terminal/create, MCP server declarations).
    if (key === 'env') return value.map((v: unknown) => (isObject(v) && 'value' in v ? { ...v, value: ENV_VALUE_REMOVED } : v));
    return value.map((v: unknown) => scrub(v, maxBytes));
  }
  if (!isObject(value)) return value;
  // `env: {NAME: value}` as some agents put it in a tool call's rawInput.
  if (key === 'env') return Object.fromEntries(Object.keys(value).map((k) => [k, ENV_VALUE_REMOVED]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrub(v, maxBytes, k);
  // An image content block, or an embedded blob resource: keep the block, drop large bytes.
  for (const field of ['data', 'blob'] as const) {
    const bytes = out[field];
    if (typeof bytes === 'string' && (out.type === 'image' || out.type === 'audio' || field === 'blob')) {
      const size = Math.floor((bytes.length * 3) / 4);
      if (size > maxBytes) {
        out[field] = '';
        out._meta = { ...(isObject(out._meta) ? out._meta : {}), symposiumOmittedBytes: size };
      }
    }
  }
  return out;
}
