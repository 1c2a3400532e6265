// ACP tool-call locations from an MCP tool's structured result, as a real agent reports the files
// a tool touched: `use tool …` puts them on its tool card, so the IDE tools' definitions and
// references show as clickable files (line included). Understands the `ide` server's shapes —
// `{results: [{file, line}]}` and a single `{file, line}` — and nothing else. Pure.
import { isAbsolute, resolve } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { isObject } from '../../src/protocol/guards';

/** Cards stay readable: at most this many locations. */
export const MAX_TOOL_LOCATIONS = 20;

export function locationsFromResult(structured: unknown, cwd: string): acp.ToolCallLocation[] {
  if (!isObject(structured)) return [];
  const items = Array.isArray(structured.results) ? structured.results : [structured];
  const out: acp.ToolCallLocation[] = [];
  for (const item of items) {
    if (out.length >= MAX_TOOL_LOCATIONS) break;
    if (!isObject(item) || typeof item.file !== 'string' || item.file === '') continue;
    const path = isAbsolute(item.file) ? item.file : resolve(cwd, item.file);
    out.push(typeof item.line === 'number' && item.line >= 1 ? { path, line: item.line } : { path });
  }
  return out;
}
