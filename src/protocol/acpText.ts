// ACP field semantics shared by the conductor's fs-adapter, the crate-sources research reads and
// the extension's own fs/read_text_file. Pure.

/** The part of `text` that ACP's `fs/read_text_file` asks for: from 1-based `line`, at most `limit` lines. */
export function sliceLines(text: string, line: unknown, limit: unknown): string {
  const from = typeof line === 'number' && line >= 1 ? Math.floor(line) : 1;
  const count = typeof limit === 'number' && limit >= 0 ? Math.floor(limit) : undefined;
  if (from === 1 && count === undefined) return text;
  return text
    .split('\n')
    .slice(from - 1, count === undefined ? undefined : from - 1 + count)
    .join('\n');
}
