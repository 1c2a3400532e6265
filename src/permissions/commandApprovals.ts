// Which terminal an approved `execute` tool call covers. Approving "Run: ls" must let the agent run
// `ls` once without a second question, and nothing else: not an unrelated `sh -c …`, not `ls` again
// later. So each approval remembers the one command its card showed in its header (the title), and
// a terminal/create is covered only when its exact argv is that command. A command field of rawInput
// counts only when it is the same command as the title shows: a card headed "npm test" whose
// parameters hold `cmdline: "rm -rf ~"` covers neither (the user read one and would approve the other).
// Unused approvals expire when the prompt turn ends, or APPROVAL_TTL_MS after the decision. The
// terminal's environment variables must have been shown on the card too, except an agent's own
// marker (isAgentMarker). Pure.
import { isObject } from '../protocol/guards';

/** How long an unused approval stays valid at most (the prompt turn ending clears it sooner). */
const APPROVAL_TTL_MS = 2 * 60_000;

/** One way the approved call described its command: a shell line the user read, or exact argv. */
export type ApprovedCommand = { line: string } | { argv: string[] };

interface Token {
  word: string;
  raw: string;
}

/**
 * POSIX-shell-like word splitting: quotes, backslashes, whitespace. `word` is what the program
 * gets, `raw` the text as typed (quotes kept). undefined for an unterminated quote.
 */
function tokenize(line: string): Token[] | undefined {
  const out: Token[] = [];
  let word = '';
  let raw = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += line.slice(i + 1, end);
      raw += line.slice(i, end + 1);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        // Inside double quotes a backslash escapes only these characters; otherwise it stays.
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      if (j >= line.length) return undefined;
      raw += line.slice(i, j + 1);
      i = j;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[i + 1];
      raw += line.slice(i, i + 2);
      i++;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push({ word, raw });
      word = raw = '';
      inWord = false;
    } else {
      word += ch;
      raw += ch;
      inWord = true;
    }
  }
  if (inWord) out.push({ word, raw });
  return out;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
const base = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** `sh -c LINE` (also `bash -lc`, `/bin/zsh -c`): the line the shell will interpret. */
function shellLine(argv: readonly string[]): string | undefined {
  if (argv.length !== 3 || !SHELLS.has(base(argv[0]!)) || !['-c', '-lc', '-cl'].includes(argv[1]!)) return undefined;
  return argv[2];
}

/** A shell line with whitespace normalized and quoting kept: `echo '$x'` and `echo "$x"` differ. */
const normalizedLine = (line: string): string | undefined =>
  tokenize(line)
    ?.map((t) => t.raw)
    .join(' ');
const wordsOf = (line: string): string[] | undefined => tokenize(line)?.map((t) => t.word);
const sameWords = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((w, i) => w === b[i]);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string');

/** Title forms agents use: "Run: ls", "Running ls", "Execute `ls`", "`ls -la`". */
function linesInTitle(title: string): string[] {
  const out = [title.trim()];
  const prefixed = /^(?:run|running|execute|executing|exec|shell)\b\s*:?\s*(.+)$/is.exec(title.trim());
  if (prefixed) out.push(prefixed[1]!.trim());
  const ticked = /`([^`]+)`/.exec(title);
  if (ticked) out.push(ticked[1]!.trim());
  return out.filter(Boolean);
}

/**
 * The commands rawInput names: `command` / `cmd` (a line, or argv; with `args` appended),
 * `commandLine` / `command_line` / `cmdline`, `argv`, or rawInput itself as a string.
 */
function commandFieldsOf(raw: unknown): ApprovedCommand[] {
  const out: ApprovedCommand[] = [];
  if (isObject(raw)) {
    const r = raw;
    const args = isStrings(r.args) ? r.args : [];
    for (const c of [r.command, r.cmd]) {
      if (typeof c === 'string' && c.trim()) {
        if (args.length) out.push({ argv: [c, ...args] });
        else out.push({ line: c });
      } else if (isStrings(c)) out.push({ argv: [...c, ...args] });
    }
    for (const l of [r.commandLine, r.command_line, r.cmdline]) if (typeof l === 'string' && l.trim()) out.push({ line: l });
    if (isStrings(r.argv)) out.push({ argv: r.argv });
  } else if (typeof raw === 'string' && raw.trim()) out.push({ line: raw });
  return out;
}

/**
 * Whether two descriptions are one command: the same argv, an argv that is the line's words (or a
 * shell running that line), or two lines that read the same once whitespace is normalized.
 */
function sameCommand(a: ApprovedCommand, b: ApprovedCommand): boolean {
  if ('argv' in a && 'argv' in b) return sameWords(a.argv, b.argv);
  if ('argv' in a) return commandMatches(b, a.argv);
  if ('argv' in b) return commandMatches(a, b.argv);
  const [x, y] = [normalizedLine(a.line), normalizedLine(b.line)];
  return x !== undefined && x === y;
}

/**
 * The command the approval card showed: its title (or the title's `Run: …` / backticked part).
 * When rawInput names commands too, every one of them must be that same command, or the approval
 * covers nothing (the terminal then asks with its exact command line). An argv that wraps a shell
 * line (`bash -lc "ls"`) covers that line too.
 */
function approvedCommandsOf(toolCall: { title?: string | null; rawInput?: unknown }): ApprovedCommand[] {
  const fields = commandFieldsOf(toolCall.rawInput);
  const titled = toolCall.title ? linesInTitle(toolCall.title) : [];
  let out: ApprovedCommand[];
  if (!fields.length) out = titled.map((line) => ({ line }));
  else {
    const shown = titled.find((line) => fields.every((f) => sameCommand(f, { line })));
    out = shown === undefined ? [] : [...fields, { line: shown }];
  }
  for (const c of [...out])
    if ('argv' in c) {
      const l = shellLine(c.argv);
      if (l !== undefined) out.push({ line: l });
    }
  return out;
}

/**
 * Whether a terminal running exactly `argv` (no shell: the editor execs it) is what `approved`
 * described. Strict: the same words for an exec, the same normalized text for a shell line. A
 * shell line is never matched by words alone, since quoting changes what the shell expands.
 */
function commandMatches(approved: ApprovedCommand, argv: readonly string[]): boolean {
  if ('argv' in approved) return sameWords(approved.argv, argv);
  const words = wordsOf(approved.line);
  if (words && sameWords(words, argv)) return true;
  const line = shellLine(argv);
  if (line === undefined) return false;
  const a = normalizedLine(approved.line);
  return a !== undefined && a === normalizedLine(line);
}

/** Env variable names the approved call showed (rawInput.env as names, {name} items or a record). */
function approvedEnvNames(rawInput: unknown): Set<string> {
  const env = isObject(rawInput) ? rawInput.env : undefined;
  const names = new Set<string>();
  if (Array.isArray(env))
    for (const e of env) {
      if (typeof e === 'string') names.add(e);
      else if (typeof (e as { name?: unknown } | null)?.name === 'string') names.add((e as { name: string }).name);
    }
  else if (isObject(env)) for (const k of Object.keys(env)) names.add(k);
  return names;
}

interface Approval {
  commands: ApprovedCommand[];
  envNames: Set<string>;
  expiresAt: number;
  title: string;
}

/**
 * Variables an agent sets on every command it runs to mark the command as its own, each with the
 * one value it sets (Claude Code: `CLAUDECODE=1`, which its permission cards never show). A flag
 * value names no file, folder or program, so it changes nothing about what runs; without this,
 * every command of that agent the user approved would be asked a second time. The same name with
 * any other value, or any other variable, must still be on the approved card.
 */
const AGENT_MARKERS: ReadonlyMap<string, string> = new Map([['CLAUDECODE', '1']]);

/** Whether `name=value` is an agent's marker: a terminal may set it without the approved card showing it. */
export const isAgentMarker = (name: string, value: string): boolean => AGENT_MARKERS.get(name) === value;

/** Per session (any string key): the approvals not used yet. */
export class CommandApprovals {
  private readonly bySession = new Map<string, Approval[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = APPROVAL_TTL_MS,
  ) {}

  /** Remembers an approved execute tool call; false when its card showed no one command we could match. */
  add(key: string, toolCall: { title?: string | null; rawInput?: unknown }): boolean {
    const commands = approvedCommandsOf(toolCall);
    if (!commands.length) return false;
    const list = this.live(key);
    list.push({ commands, envNames: approvedEnvNames(toolCall.rawInput), expiresAt: this.now() + this.ttlMs, title: toolCall.title ?? '' });
    this.bySession.set(key, list);
    return true;
  }

  /**
   * Uses up the first live approval that covers `argv` (with env names it also showed, if any are
   * set; an agent's markers are left out of `envNames` beforehand); returns its title, or undefined
   * when none does.
   */
  take(key: string, argv: readonly string[], envNames: readonly string[]): string | undefined {
    const list = this.live(key);
    const i = list.findIndex((a) => envNames.every((n) => a.envNames.has(n)) && a.commands.some((c) => commandMatches(c, argv)));
    if (i < 0) return undefined;
    const [used] = list.splice(i, 1);
    return used!.title;
  }

  /** The prompt turn ended, or the session did: nothing approved carries over. */
  clear(key: string): void {
    this.bySession.delete(key);
  }

  /** Test support: approvals not used or expired yet. */
  count(key: string): number {
    return this.live(key).length;
  }

  private live(key: string): Approval[] {
    const now = this.now();
    const list = (this.bySession.get(key) ?? []).filter((a) => a.expiresAt > now);
    if (list.length) this.bySession.set(key, list);
    else this.bySession.delete(key);
    return list;
  }
}
