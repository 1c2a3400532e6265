// ~/.sparkle/config.toml, read and written in upstream sparkle-mcp's shape:
//   one sparkler:   [human] name = "…"   [ai] name = "…"
//   several:        [human] name = "…"   [[sparklers]] name = "…" default = true|false (repeated)
//   no file:        human "User", one sparkler "Sparkle".
// Only the TOML that shape needs is understood (tables, arrays of tables, `key = value` with
// strings, booleans, numbers and one-line arrays of those). Keys and tables we do not use are kept
// and written back, so editing the config through a tool loses nothing but comments. A file we
// cannot read is reported and left untouched; tools that would change it refuse until it is fixed.
import { DEFAULT_SPARKLER, SparkleError } from './names';
import { errorText } from '../../../src/protocol/errorText';

export type TomlValue = string | number | boolean | TomlValue[];

export interface TomlSection {
  kind: 'root' | 'table' | 'array';
  name: string;
  entries: Record<string, TomlValue>;
}

/** A parsed file: its sections in order (the root section first, possibly empty). */
export type TomlDoc = TomlSection[];

export class TomlError extends Error {}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

function parseString(src: string, at: number): [string, number] {
  const quote = src[at];
  let out = '';
  let i = at + 1;
  for (; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === quote) return [out, i + 1];
    if (quote === '"' && ch === '\\') {
      const next = src[++i];
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' };
      if (next !== undefined && next in simple) out += simple[next];
      else if (next === 'u' || next === 'U') {
        const len = next === 'u' ? 4 : 8;
        const hex = src.slice(i + 1, i + 1 + len);
        if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) throw new TomlError('bad unicode escape');
        out += String.fromCodePoint(parseInt(hex, 16));
        i += len;
      } else throw new TomlError(`bad escape \\${next ?? ''}`);
    } else out += ch;
  }
  throw new TomlError('unterminated string');
}

function parseValue(src: string, at: number): [TomlValue, number] {
  const ch = src[at];
  if (ch === '"' || ch === "'") {
    if (src.startsWith(ch.repeat(3), at)) throw new TomlError('multi-line strings are not supported');
    return parseString(src, at);
  }
  if (ch === '[') {
    const items: TomlValue[] = [];
    let i = skipSpace(src, at + 1);
    while (src[i] !== ']') {
      const [v, next] = parseValue(src, i);
      items.push(v);
      i = skipSpace(src, next);
      if (src[i] === ',') i = skipSpace(src, i + 1);
      else if (src[i] !== ']') throw new TomlError('expected , or ] in array');
    }
    return [items, i + 1];
  }
  const m = /^(true|false|[+-]?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(src.slice(at));
  if (!m) throw new TomlError(`unsupported value "${src.slice(at, at + 20)}"`);
  const word = m[1]!;
  const value = word === 'true' ? true : word === 'false' ? false : Number(word.replace(/_/g, ''));
  return [value, at + word.length];
}

function skipSpace(src: string, at: number): number {
  while (at < src.length && (src[at] === ' ' || src[at] === '\t')) at++;
  return at;
}

function parseKey(src: string, at: number): [string, number] {
  if (src[at] === '"' || src[at] === "'") return parseString(src, at);
  const m = /^[A-Za-z0-9_-]+/.exec(src.slice(at));
  if (!m) throw new TomlError('expected a key');
  return [m[0], at + m[0].length];
}

function rest(src: string, at: number): void {
  const i = skipSpace(src, at);
  if (i < src.length && src[i] !== '#') throw new TomlError(`unexpected "${src.slice(i, i + 20)}"`);
}

export function parseToml(text: string): TomlDoc {
  const doc: TomlDoc = [{ kind: 'root', name: '', entries: {} }];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, n) => {
    try {
      const at = skipSpace(line, 0);
      if (at >= line.length || line[at] === '#') return;
      const header = /^\[(\[)?\s*([^\]]+?)\s*\](\])?/.exec(line.slice(at));
      if (header) {
        if (Boolean(header[1]) !== Boolean(header[3])) throw new TomlError('unbalanced [[ ]]');
        const name = header[2]!;
        if (!BARE_KEY.test(name)) throw new TomlError(`unsupported table name "${name}"`);
        const kind = header[1] ? 'array' : 'table';
        if (kind === 'table' && doc.some((s) => s.kind !== 'root' && s.name === name)) throw new TomlError(`table [${name}] defined twice`);
        doc.push({ kind, name, entries: {} });
        return rest(line, at + header[0].length);
      }
      const [key, afterKey] = parseKey(line, at);
      let i = skipSpace(line, afterKey);
      if (line[i] !== '=') throw new TomlError(line[i] === '.' ? 'dotted keys are not supported' : 'expected =');
      i = skipSpace(line, i + 1);
      const [value, afterValue] = parseValue(line, i);
      const section = doc[doc.length - 1]!;
      if (key in section.entries) throw new TomlError(`key "${key}" defined twice`);
      section.entries[key] = value;
      rest(line, afterValue);
    } catch (err) {
      throw new TomlError(`line ${n + 1}: ${errorText(err)}`);
    }
  });
  return doc;
}

function formatValue(v: TomlValue): string {
  if (typeof v === 'string') return JSON.stringify(v); // JSON string escapes are valid TOML basic-string escapes
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  return String(v);
}

const formatKey = (k: string): string => (BARE_KEY.test(k) ? k : JSON.stringify(k));

export function formatToml(doc: TomlDoc): string {
  const blocks: string[] = [];
  for (const s of doc) {
    const lines = Object.entries(s.entries).map(([k, v]) => `${formatKey(k)} = ${formatValue(v)}`);
    if (s.kind === 'root') {
      if (lines.length) blocks.push(lines.join('\n'));
    } else blocks.push([s.kind === 'array' ? `[[${s.name}]]` : `[${s.name}]`, ...lines].join('\n'));
  }
  return blocks.join('\n\n') + '\n';
}

// ---- the Sparkle config on top of it ------------------------------------------------------------

export interface SparklerEntry {
  name: string;
  default: boolean;
}

export interface SparkleConfig {
  human: string;
  /** `single`: the sparkler's files sit in ~/.sparkle/ itself; `multi`: under sparklers/<name>/. */
  layout: 'single' | 'multi';
  sparklers: SparklerEntry[];
  doc: TomlDoc;
}

export function defaultConfigDoc(human: string, sparkler = DEFAULT_SPARKLER): TomlDoc {
  return [
    { kind: 'root', name: '', entries: {} },
    { kind: 'table', name: 'human', entries: { name: human } },
    { kind: 'table', name: 'ai', entries: { name: sparkler } },
  ];
}

const table = (doc: TomlDoc, name: string): TomlSection | undefined => doc.find((s) => s.kind === 'table' && s.name === name);

export function configFromDoc(doc: TomlDoc): SparkleConfig {
  const humanName = table(doc, 'human')?.entries.name;
  const human = typeof humanName === 'string' && humanName.trim() ? humanName : 'User';
  const multi = doc.filter((s) => s.kind === 'array' && s.name === 'sparklers');
  if (multi.length) {
    const sparklers = multi.map((s) => {
      if (typeof s.entries.name !== 'string') throw new SparkleError('config.toml: every [[sparklers]] entry needs a name = "…"');
      return { name: s.entries.name, default: s.entries.default === true };
    });
    return { human, layout: 'multi', sparklers, doc };
  }
  const aiName = table(doc, 'ai')?.entries.name;
  return {
    human,
    layout: 'single',
    sparklers: [{ name: typeof aiName === 'string' && aiName.trim() ? aiName : DEFAULT_SPARKLER, default: true }],
    doc,
  };
}

/** The default sparkler: the one marked default, else the first (as upstream). */
export function defaultSparkler(c: SparkleConfig): string {
  return (c.sparklers.find((s) => s.default) ?? c.sparklers[0])?.name ?? DEFAULT_SPARKLER;
}

export function withHumanName(doc: TomlDoc, name: string): TomlDoc {
  const copy = cloneDoc(doc);
  const human = table(copy, 'human');
  if (human) human.entries.name = name;
  else copy.splice(1, 0, { kind: 'table', name: 'human', entries: { name } });
  return copy;
}

/** The multi-sparkler form of a config: `[ai]` becomes the first `[[sparklers]]` entry (default). */
export function withSparklers(doc: TomlDoc, sparklers: readonly SparklerEntry[]): TomlDoc {
  const kept = cloneDoc(doc).filter((s) => !(s.kind === 'array' && s.name === 'sparklers') && !(s.kind === 'table' && s.name === 'ai'));
  // Keys of [ai] other than its name (none upstream) are not dropped silently: they stay in [ai].
  const ai = table(doc, 'ai');
  const aiExtra = ai ? Object.fromEntries(Object.entries(ai.entries).filter(([k]) => k !== 'name')) : {};
  if (Object.keys(aiExtra).length) kept.push({ kind: 'table', name: 'ai', entries: aiExtra });
  const previous = doc.filter((s) => s.kind === 'array' && s.name === 'sparklers');
  for (const s of sparklers) {
    const extra = previous.find((p) => p.entries.name === s.name)?.entries ?? {};
    kept.push({ kind: 'array', name: 'sparklers', entries: { ...extra, name: s.name, default: s.default } });
  }
  return kept;
}

/** Renames the one sparkler of a single-sparkler config. */
export function withSingleName(doc: TomlDoc, name: string): TomlDoc {
  const copy = cloneDoc(doc);
  const ai = table(copy, 'ai');
  if (ai) ai.entries.name = name;
  else copy.push({ kind: 'table', name: 'ai', entries: { name } });
  return copy;
}

function cloneDoc(doc: TomlDoc): TomlDoc {
  return doc.map((s) => ({ ...s, entries: { ...s.entries } }));
}
