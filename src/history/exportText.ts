// Text from a conversation (the agent's answers and thoughts, prompts, titles) placed into an
// exported Markdown file so that it reads as it was said and cannot change the file around it: no
// raw HTML (an agent's `</details>` would close the section it sits in, an `<img>` or `<style>`
// would render), no heading at the level of the export's own turns (`## You` would forge a turn),
// and no code fence left open (the rest of the file would become code). The answer's own Markdown
// (emphasis, lists, links, tables, code) stays as it is. Pure, line based.
//
// `<` outside code becomes `&lt;`, which reads the same. Code is left as written, and is trusted
// to be code only where every Markdown renderer agrees that it is: a fenced block whose opening
// fence starts the line (indented, or after `>` or a list marker, it may belong to a container
// that ends it early; then the text gets no fences at all: their backticks are escaped), closed
// at the end if the text leaves it open; and a code span whose backticks pair up on one line, in a paragraph
// where no backtick before it is left unpaired (that one could pair with a later line) and on a
// line without `|` (a table splits cells before it finds code). Everywhere else a `<` is escaped,
// code included, where it then shows as `&lt;`: rare, and safe.

import { escapeLessThan } from '../protocol/markdown';

const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
/** Fence characters anywhere else: a fence some renderer may see where this reading does not. */
const FENCE_LIKE = /`{3,}|~{3,}/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
/** A setext underline: under a paragraph line it makes that line an h1 (`===`) or h2 (`---`). */
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** An ATX heading, also inside block quotes and list items (`> ## x`, `- ## x`). */
const ATX = /^( {0,3}(?:(?:>[ ]?|(?:[-+*]|\d{1,9}[.)]) {1,4}))*)(#{1,6})(?=[ \t]|$)/;
/** The export's turns are `##`: text headings start two levels lower (at most `######`). */
const DEMOTE_BY = 2;

/** The code spans of one line as [start, end) ranges, and whether a backtick run was left unpaired. */
function codeSpans(line: string): { spans: [number, number][]; unpaired: boolean } {
  const spans: [number, number][] = [];
  let unpaired = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '\\') {
      i += 2; // an escaped character (a backtick included) opens nothing
      continue;
    }
    if (ch !== '`') {
      i++;
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    // The next run of exactly n backticks closes it; inside a span a backslash is literal.
    let j = i + n;
    let close = -1;
    while (j < line.length) {
      if (line[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (line[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      unpaired = true;
      i += n;
      continue;
    }
    spans.push([i, close + n]);
    i = close + n;
  }
  return { spans, unpaired };
}

/** One line outside fenced code: `<` escaped except inside code spans that are surely code. */
function escapeLine(line: string, trustSpans: boolean): { text: string; unpaired: boolean } {
  const { spans, unpaired } = codeSpans(line);
  if (!trustSpans || line.includes('|') || spans.length === 0) return { text: escapeLessThan(line), unpaired };
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += escapeLessThan(line.slice(at, start)) + line.slice(start, end);
    at = end;
  }
  return { text: out + escapeLessThan(line.slice(at)), unpaired };
}

function demoteHeading(line: string): string {
  return line.replace(ATX, (_, prefix: string, hashes: string) => prefix + '#'.repeat(Math.min(hashes.length + DEMOTE_BY, 6)));
}

interface Fence {
  char: string;
  length: number;
}

/** The fence a line opens, if it opens one here (a backtick fence's info string holds no backtick). */
function fenceOpenedBy(line: string): Fence | undefined {
  const open = FENCE_OPEN.exec(line);
  if (!open || (open[1]![0] === '`' && open[2]!.includes('`'))) return undefined;
  return { char: open[1]![0]!, length: open[1]!.length };
}

function closes(line: string, fence: Fence): boolean {
  const close = FENCE_CLOSE.exec(line);
  return close !== null && close[1]![0] === fence.char && close[1]!.length >= fence.length;
}

/** Whether every fence-like line is a fence this reading places for sure (else: no code is trusted). */
function fencesAreSure(lines: readonly string[]): boolean {
  let fence: Fence | undefined;
  for (const line of lines) {
    if (fence) {
      if (closes(line, fence)) fence = undefined;
    } else if ((fence = fenceOpenedBy(line)) === undefined && FENCE_LIKE.test(line)) return false;
  }
  return true;
}

/** A block of conversation text (many lines) as Markdown that stays inside its place in the export. */
export function exportBlock(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const trustCode = fencesAreSure(lines);
  const out: string[] = [];
  let fence: Fence | undefined;
  let previousBlank = true;
  let paragraphUnpaired = false;
  for (const line of lines) {
    if (fence) {
      out.push(line);
      if (closes(line, fence)) fence = undefined;
      previousBlank = false;
      continue;
    }
    const opened = trustCode ? fenceOpenedBy(line) : undefined;
    if (opened) {
      fence = opened;
      out.push(escapeLessThan(line));
      previousBlank = false;
      paragraphUnpaired = false;
      continue;
    }
    const blank = line.trim() === '';
    if (blank) paragraphUnpaired = false;
    // Under a paragraph line, `---` or `===` would make that line a heading: a blank line keeps it a rule or text.
    if (!previousBlank && SETEXT.test(line)) out.push('');
    // Without sure fences there are none: every fence-like run is escaped, so no renderer opens one.
    const unfenced = trustCode ? line : line.replace(/`{3,}|~{3,}/g, (run) => run.replace(/./g, '\\$&'));
    const escaped = escapeLine(demoteHeading(unfenced), trustCode && !paragraphUnpaired);
    if (escaped.unpaired) paragraphUnpaired = true;
    out.push(escaped.text);
    previousBlank = blank;
  }
  if (fence) out.push(fence.char.repeat(fence.length));
  return out.join('\n');
}

/** One-line text (a title, a plan entry, a notice): read literally, whatever Markdown it holds. */
export function exportInline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/([\\`*_[\]<>~|#])/g, '\\$1');
}
