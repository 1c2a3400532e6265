// Markdown that more than one layer writes: the chat's cards (webview/mappers), exported
// conversations (src/history), ElizACP's replies and the language-server fallback's hovers
// (conductor/). Pure.

/** A fenced code block its content cannot close: the fence is longer than any backtick run inside. */
export function fenced(code: string, lang = ''): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${code}\n${fence}`;
}
