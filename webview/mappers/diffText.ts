// A small unified diff for the inline fallback of a tool call's `diff` content (the full view is
// VS Code's diff editor). Common leading and trailing lines are trimmed and shown as context; the
// changed middle is shown as removed then added lines. Exact for single-region edits, which is
// what agents mostly report, and linear in size, so a huge file cannot stall the webview. Pure.

const CONTEXT = 3;
const MAX_LINES = 400;

export function unifiedDiff(oldText: string | null | undefined, newText: string): string {
  const a = oldText ? oldText.split('\n') : [];
  const b = newText.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  if (start === a.length && start === b.length) return '(no changes)';
  const from = Math.max(0, start - CONTEXT);
  const lines = [
    `@@ -${from + 1},${Math.min(a.length, endA + CONTEXT) - from} +${from + 1},${Math.min(b.length, endB + CONTEXT) - from} @@`,
    ...a.slice(from, start).map((l) => ` ${l}`),
    ...a.slice(start, endA).map((l) => `-${l}`),
    ...b.slice(start, endB).map((l) => `+${l}`),
    ...a.slice(endA, Math.min(a.length, endA + CONTEXT)).map((l) => ` ${l}`),
  ];
  if (lines.length <= MAX_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more lines (open the diff to see everything)`].join('\n');
}
