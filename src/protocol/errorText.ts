// The text of an error for a person: its message, and for a JSON-RPC error what the other side put
// in its `data` (agents often answer "Internal error" and say what went wrong only there, e.g.
// `{details: "No previous sessions found for this project."}`). One helper for every layer.
// Pure: no vscode, DOM or Node imports.

const MAX_DETAIL = 300;

/** `e`'s message, with the JSON-RPC error data's `details`/`message` (or a string data) when it adds something. */
export function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : String(e);
  const detail = detailOf(e && typeof e === 'object' ? (e as { data?: unknown }).data : undefined);
  return detail && !message.includes(detail) ? `${message}: ${detail}` : message;
}

function detailOf(data: unknown): string | undefined {
  const text =
    typeof data === 'string'
      ? data
      : data && typeof data === 'object'
        ? [(data as Record<string, unknown>).details, (data as Record<string, unknown>).message].find((v) => typeof v === 'string')
        : undefined;
  if (typeof text !== 'string' || !text.trim()) return undefined;
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL)}…` : line;
}
