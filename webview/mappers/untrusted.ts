// Markdown from agents, tools and context providers, made safe to hand to mynah-ui. Pure.
//
// mynah-ui renders markdown with marked and sets the result as innerHTML without sanitizing it:
// raw HTML in an answer (`<style>`, `<img style=…>`) becomes part of the page, and its link
// template inserts a link's text and URL into the HTML unescaped (`[a<img …](url)`). An agent, or
// a file it quotes, could restyle the chat around a permission card. The script CSP stops scripts,
// not this. So no `<` may reach mynah except inside code, which mynah escapes itself.
//
// How: marked's own lexer (the version mynah bundles) finds the code; every other `<` becomes
// `&lt;`, which reads the same. Where a token's children cannot be placed back in its source
// (multi-line list items, quotes, tables), the whole token is escaped, code included (mynah shows
// `&lt;` in code as `<` too). The result is lexed again and checked; if a `<` is left outside
// code, or in a link (mynah's template inserts a link's text raw, code spans included), every `<`
// is escaped. That check, not the rewriting, is what makes the output safe.
import { Lexer, type Token } from 'marked';
import { escapeLessThan } from '../../src/protocol/markdown';

/** As mynah parses a card body: marked.parse(body, { breaks: true }), GFM on by default. */
const LEX_OPTIONS = { gfm: true, breaks: true } as const;

const CODE = new Set(['code', 'codespan']);

/** Every `<` as `&lt;` (a backslash that escaped one goes with it). */
const escapeAll = escapeLessThan;

/** A token's child tokens, in source order (inline tokens, list items, table cells). */
function childrenOf(t: Token): Token[] | undefined {
  if (t.type === 'list') return t.items as Token[];
  if (t.type === 'table') return undefined; // cells are split on pipes: never placed back, escaped whole
  return 'tokens' in t && Array.isArray(t.tokens) ? (t.tokens as Token[]) : undefined;
}

function rewrite(t: Token): string {
  if (!t.raw.includes('<')) return t.raw;
  if (CODE.has(t.type)) return t.raw;
  // Everything in a link goes into mynah's template unescaped, code spans included. An autolink
  // (`<https://…>`, no `<` inside) loses its brackets: mynah shows it as its URL either way.
  if (t.type === 'link') return /^<[^<>]*>$/.test(t.raw) ? t.raw.slice(1, -1) : escapeAll(t.raw);
  const kids = childrenOf(t);
  if (!kids?.length) return escapeAll(t.raw);
  const inner = kids.map((k) => k.raw).join('');
  const at = t.raw.indexOf(inner);
  if (at < 0 || t.raw.indexOf(inner, at + 1) >= 0) return escapeAll(t.raw);
  return escapeAll(t.raw.slice(0, at)) + kids.map(rewrite).join('') + escapeAll(t.raw.slice(at + inner.length));
}

/** True when no `<` in `tokens` can reach the page as markup: only in code, never in a link. */
function onlyCodeHoldsLt(tokens: Token[], inLink = false): boolean {
  return tokens.every((t) => {
    if (!t.raw.includes('<')) return true;
    if (t.type === 'html') return false;
    if (CODE.has(t.type)) return !inLink;
    if (t.type === 'link' || t.type === 'image') {
      const { text, href, title } = t as { text?: string; href?: string; title?: string | null };
      if ([text, href, title].some((s) => s?.includes('<'))) return false;
    }
    const kids = t.type === 'table' ? tableCells(t) : childrenOf(t);
    // A leaf that is not code holds a `<` (text whose `<` starts no tag, an escape): not ours.
    if (!kids) return false;
    return onlyCodeHoldsLt(kids, inLink || t.type === 'link');
  });
}

function tableCells(t: Token): Token[] {
  const { header = [], rows = [] } = t as { header?: { tokens: Token[] }[]; rows?: { tokens: Token[] }[][] };
  return [...header, ...rows.flat()].flatMap((c) => c.tokens);
}

/**
 * `markdown` (a card body: an agent's answer, a tool's output) with no `<` outside code: raw
 * HTML shows as text, code stays as written.
 */
export function safeMarkdown(markdown: string): string {
  if (!markdown.includes('<')) return markdown;
  const source = markdown.replace(/\r\n|\r/g, '\n');
  let out: string;
  try {
    const tokens = new Lexer(LEX_OPTIONS).lex(source);
    // Link definitions are kept by the lexer without a token: where they were, the text is escaped whole.
    let at = 0;
    out = '';
    for (const t of tokens) {
      const i = source.indexOf(t.raw, at);
      if (i < 0) throw new Error('token not found');
      out += escapeAll(source.slice(at, i)) + rewrite(t);
      at = i + t.raw.length;
    }
    out += escapeAll(source.slice(at));
    if (!onlyCodeHoldsLt(new Lexer(LEX_OPTIONS).lex(out))) throw new Error('a < left outside code');
  } catch {
    out = escapeAll(source);
  }
  return out;
}

/** A one-line label mynah renders as inline markdown (menu and option descriptions): every `<` escaped. */
export function safeLabel(text: string): string {
  return text.includes('<') ? escapeAll(text) : text;
}

/**
 * Which strings mynah puts into the page as markup, by key, and how each is made safe: bodies are
 * markdown; menu entries (`command`, `description`, `groupName`) are inline markdown or raw HTML
 * in its lists; a button's `text` is inline markdown. Found by reading mynah-ui 4.39's sources for
 * innerHTML; `webview/chatApp.dom.spec.ts` puts HTML in each and checks the page.
 */
const MARKUP_KEYS: Record<string, (s: string) => string> = {
  body: safeMarkdown,
  promptInputInfo: safeMarkdown,
  description: safeLabel,
  command: safeLabel,
  groupName: safeLabel,
};
/** Keys that are markup only inside an array of that name (`buttons[].text`). */
const MARKUP_KEYS_IN: Record<string, Record<string, (s: string) => string>> = { buttons: { text: safeLabel } };

/**
 * A copy of `value` (a ChatItem, a tab store) whose markup strings (above) are safe, at any depth.
 * Objects without such strings come back as they are.
 */
export function forMynahSafe<T>(value: T, arrayKey?: string): T {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v: unknown) => {
      const s = forMynahSafe(v, arrayKey);
      changed ||= s !== v;
      return s;
    });
    return (changed ? out : value) as T;
  }
  if (typeof value !== 'object' || value === null) return value;
  const extra = arrayKey === undefined ? undefined : MARKUP_KEYS_IN[arrayKey];
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const make = MARKUP_KEYS[k] ?? extra?.[k];
    const safe = typeof v === 'string' ? (make ? make(v) : v) : forMynahSafe(v, Array.isArray(v) ? k : undefined);
    if (safe !== v) (copy ??= { ...(value as Record<string, unknown>) })[k] = safe;
  }
  return (copy ?? value) as T;
}
