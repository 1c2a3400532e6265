// The pure ELIZA engine: text in, text out, no I/O. Everything protocol-related lives elsewhere so
// that tests (ours and the conductor's) can import `respond` and compute the exact reply ElizACP
// will stream for a given prompt.
import { EMPTY_INPUT_REPLY, FALLBACKS, KEYWORDS, PRE_SUBSTITUTIONS, REFLECTIONS, VERBOSE_SUFFIXES } from './script';
import type { Keyword } from './script-types';

export interface RespondOptions {
  /** Same input → same reply. Variants are chosen by a stable hash of the normalized input. */
  deterministic: boolean;
  /** Source of randomness when not deterministic (defaults to Math.random). Handy for tests. */
  random?: () => number;
  /** The 'eliza-verbose' model: append one extra remark to every reply. */
  verbose?: boolean;
}

const PRE = new Map(PRE_SUBSTITUTIONS);

// Verbs after which "you" is the subject ("you are" → "I am"); elsewhere it is an object
// ("help you" → "help me"). Crude, but it is what makes reflections read naturally.
const SUBJECT_VERBS = new Set([
  'are',
  'were',
  'have',
  'had',
  'will',
  'would',
  'can',
  'could',
  'do',
  'did',
  'should',
  'think',
  'want',
  'need',
  'know',
  'said',
  'say',
  'seem',
  'look',
  'make',
  'made',
  'wrote',
  'write',
]);

/** Lower-cases, drops punctuation and expands contractions, so patterns see one canonical form. */
export function normalize(input: string): string {
  const cleaned = input
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[^a-z0-9'\s]+/g, ' ');
  const words: string[] = [];
  for (const word of cleaned.split(/\s+/)) {
    const bare = word.replace(/^'+|'+$/g, '');
    if (bare) words.push(PRE.get(bare) ?? bare);
  }
  return words.join(' ');
}

/** Swaps first and second person in a normalized fragment ("i am lost in my code" → "you are lost in your code"). */
export function reflect(fragment: string): string {
  const words = fragment.split(' ').filter((w) => w.length > 0);
  return words
    .map((word, i) => {
      const prev = words[i - 1];
      const next = words[i + 1];
      if (word === 'you') return next !== undefined && SUBJECT_VERBS.has(next) ? 'I' : 'me';
      if (prev === 'you' && word === 'are') return 'am';
      if (prev === 'you' && word === 'were') return 'was';
      if (prev === 'i' && word === 'was') return 'were';
      return REFLECTIONS[word] ?? word;
    })
    .join(' ');
}

/** FNV-1a, 32 bit. Stable across runs and platforms, unlike anything seeded by Math.random. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const compiled = new Map<string, RegExp>();
function cached(key: string, build: () => RegExp): RegExp {
  let re = compiled.get(key);
  if (!re) {
    re = build();
    compiled.set(key, re);
  }
  return re;
}

// '* i am *' → /^(.*?)\s*\bi\b\s*\bam\b\s*(.*?)$/ : stars capture (possibly empty) word runs.
function decomposition(pattern: string): RegExp {
  return cached(`d:${pattern}`, () => {
    const parts = pattern
      .split(' ')
      .filter((t) => t.length > 0)
      .map((t) => (t === '*' ? '(.*?)' : `\\b${escapeRegExp(t)}\\b`));
    return new RegExp(`^${parts.join('\\s*')}$`);
  });
}

function phrase(word: string): RegExp {
  return cached(`k:${word}`, () => new RegExp(`\\b${word.split(' ').map(escapeRegExp).join('\\s+')}\\b`));
}

/** Keywords present in the input, best first: higher rank, then earlier position. */
function rankedKeywords(text: string): Keyword[] {
  const found: Array<{ keyword: Keyword; index: number }> = [];
  for (const keyword of KEYWORDS) {
    let index = -1;
    for (const word of keyword.words) {
      const m = phrase(word).exec(text);
      if (m && (index < 0 || m.index < index)) index = m.index;
    }
    if (index >= 0) found.push({ keyword, index });
  }
  found.sort((a, b) => b.keyword.rank - a.keyword.rank || a.index - b.index);
  return found.map((f) => f.keyword);
}

function pick<T>(items: readonly T[], salt: string, text: string, options: RespondOptions): T {
  if (items.length === 0) throw new Error('eliza script: empty reply list');
  const index = options.deterministic
    ? stableHash(`${text}|${salt}`) % items.length
    : Math.min(items.length - 1, Math.floor((options.random ?? Math.random)() * items.length));
  return items[index] as T;
}

const REF = /\((\d)\)/g;

function fill(template: string, captures: readonly string[]): string {
  return template.replace(REF, (_, n: string) => captures[Number(n) - 1] ?? '');
}

/** A template is usable only if every capture it references is non-empty. */
function usable(template: string, captures: readonly string[]): boolean {
  for (const m of template.matchAll(REF)) {
    if (!captures[Number(m[1]) - 1]) return false;
  }
  return true;
}

function classic(text: string, options: RespondOptions): string {
  if (!text) return EMPTY_INPUT_REPLY;
  for (const keyword of rankedKeywords(text)) {
    for (const rule of keyword.rules) {
      const m = decomposition(rule.pattern).exec(text);
      if (!m) continue;
      const captures = m.slice(1).map((c) => reflect((c ?? '').trim()));
      const candidates = rule.replies.filter((r) => usable(r, captures));
      if (candidates.length === 0) continue;
      return fill(pick(candidates, `${keyword.words[0] ?? ''}|${rule.pattern}`, text, options), captures);
    }
  }
  return pick(FALLBACKS, 'fallback', text, options);
}

/**
 * ELIZA's answer to `input`. With `deterministic`, the reply depends only on the normalized input
 * (and `verbose`), so callers can predict it exactly.
 */
export function respond(input: string, options: RespondOptions): string {
  const text = normalize(input);
  const reply = classic(text, options);
  return options.verbose ? `${reply} ${pick(VERBOSE_SUFFIXES, 'verbose', text, options)}` : reply;
}
