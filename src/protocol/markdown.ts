// Markdown that more than one layer writes: the chat's cards (webview/mappers), exported
// conversations (src/history), ElizACP's replies and the language-server fallback's hovers
// (conductor/). Pure.

/** A fenced code block its content cannot close: the fence is longer than any backtick run inside. */
export function fenced(code: string, lang = ''): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${code}\n${fence}`;
}

/**
 * Every `<` as `&lt;`, which reads the same but starts no HTML; a backslash that escaped one goes
 * with it (`\<` and `&lt;` read the same, and `\&lt;` would show the entity).
 */
export function escapeLessThan(text: string): string {
  return text.replace(/(\\*)</g, (_, slashes: string) => (slashes.length % 2 ? slashes.slice(1) : slashes) + '&lt;');
}
