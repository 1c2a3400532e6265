// Markdown helpers shared by the mappers. Pure.

/** Markdown-escapes user text so it renders literally (raw HTML is escaped later for all text: untrusted.ts). */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_{}[\]()#+\-.!|<>~])/g, '\\$1');
}

/** JSON for people: two-space indent, with a cap so a huge input cannot flood the chat. */
export function prettyJson(value: unknown, max = 20_000): string {
  let s: string;
  try {
    s = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max)}\n… (${s.length - max} more characters)` : s;
}

export function basename(p: string): string {
  return p.split(/[\\/]/).filter(Boolean).pop() ?? p;
}

/**
 * Lighter escaping for one-line labels (tool titles, plan entries): only characters that start
 * emphasis, code, links or HTML, so paths and sentences stay readable in the markdown source.
 */
export function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>~|])/g, '\\$1').replace(/\n/g, ' ');
}
