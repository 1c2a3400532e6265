// What an external proxy is before it runs: a name (its place in `--components` and in the trace),
// a command, its args and its own environment. `--proxy` takes either a command line, split
// shell-style (quotes and backslashes; no variables, globs or pipes: nothing runs a shell), or a
// JSON object `{"name", "command", "args"?, "env"?}` (what the extension passes, so that no quoting
// is involved). Pure.
import { isObject } from '../../../src/protocol/guards';
import { errorText } from '../../../src/protocol/errorText';

export interface ProxySpec {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Splits a command line like a POSIX shell would split words: '…' literal, "…" with \\ escapes, \\x outside. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i]!;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i]!;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in "${line}"`);
  if (inWord) words.push(word);
  return words;
}

const INTERPRETERS = /^(node|nodejs|python\d*(\.\d+)?|deno|bun|npx|uvx|pipx|ruby|perl|sh|bash)(\.exe)?$/;
/** Interpreter options whose value is the next argument (`node --import tsx x.ts`). */
const OPTIONS_WITH_VALUE = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '-m', '--from', '-p', '--package']);
const baseName = (path: string): string => path.split(/[\\/]/).pop() ?? path;

/**
 * A name for a proxy given as a bare command line: the program's file name, or for an interpreter
 * (`node x.js`, `npx -y pkg@1`) the first argument that is not an option, without extension or
 * version. Names are letters, digits, `.`, `_` and `-`.
 */
export function proxyNameFor(command: string, args: readonly string[]): string {
  let name = baseName(command);
  if (INTERPRETERS.test(name)) {
    const script = args.find((a, i) => !a.startsWith('-') && !OPTIONS_WITH_VALUE.has(args[i - 1] ?? ''));
    if (script) name = baseName(script).replace(/@[^@/]*$/, '');
  }
  name = name.replace(/\.(c|m)?(js|ts)$|\.py$|\.exe$/, '');
  return name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'proxy';
}

/** Parses one `--proxy` value. */
export function parseProxyOption(value: string): ProxySpec {
  const text = value.trim();
  if (text.startsWith('{')) return parseProxyJson(text);
  const words = splitCommandLine(text);
  const [command, ...args] = words;
  if (!command) throw new Error('--proxy needs a command line');
  return { name: proxyNameFor(command, args), command, args, env: {} };
}

function parseProxyJson(text: string): ProxySpec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`--proxy JSON is not valid: ${errorText(err)}`);
  }
  if (!isObject(parsed) || typeof parsed.command !== 'string' || parsed.command.trim() === '')
    throw new Error('--proxy JSON needs a non-empty "command"');
  const args = parsed.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new Error('--proxy JSON "args" must be a list of strings');
  const env = parsed.env ?? {};
  if (!isObject(env) || !Object.values(env).every((v) => typeof v === 'string'))
    throw new Error('--proxy JSON "env" must map names to strings');
  const name = parsed.name ?? proxyNameFor(parsed.command, args as string[]);
  if (typeof name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(name))
    throw new Error('--proxy JSON "name" must be letters, digits, ".", "_" or "-"');
  return { name, command: parsed.command, args: args as string[], env: env as Record<string, string> };
}

/** Gives repeated names a suffix (`x`, `x-2`, …) so every proxy has its own place in the chain. */
export function uniqueNames(specs: readonly ProxySpec[], taken: ReadonlySet<string>): ProxySpec[] {
  const used = new Set(taken);
  return specs.map((spec) => {
    let name = spec.name;
    for (let n = 2; used.has(name); n++) name = `${spec.name}-${n}`;
    used.add(name);
    return { ...spec, name };
  });
}
