// Which language server answers which file, and where its program is. Built-in: TypeScript /
// JavaScript → typescript-language-server, Python → pyright-langserver, Rust → rust-analyzer,
// Go → gopls, routed by file extension. A JSON map (the conductor's `--language-servers FILE`,
// the extension's `symposium.languageServers`) overrides a language's command or adds a language.
// A bare command name is looked up in the workspace's node_modules/.bin (and its parents', as
// Node resolves packages), then on PATH. A JavaScript program (every npm server's bin is one) is
// run with this very runtime, so no `node` needs to be on PATH (VS Code's conductor runs on
// Electron's). typescript-language-server also needs a TypeScript: the workspace's own, else one
// installed beside the server.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { isObject } from '../../../src/protocol/guards';

export interface LanguageServerSpec {
  /** The language's name, also the key of the override map: "typescript", "python", … */
  language: string;
  /** File extensions (with the dot, lower case) this server answers for. */
  extensions: string[];
  command: string;
  args: string[];
  /** How to get the server when it is missing (shown in the error). */
  install: string;
  /** Extra `initializationOptions` to send (from the override map). */
  initializationOptions?: Record<string, unknown>;
}

export const BUILTIN_SERVERS: readonly LanguageServerSpec[] = [
  {
    language: 'typescript',
    extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
    command: 'typescript-language-server',
    args: ['--stdio'],
    install: 'npm install --save-dev typescript-language-server typescript',
  },
  {
    language: 'python',
    extensions: ['.py', '.pyi'],
    command: 'pyright-langserver',
    args: ['--stdio'],
    install: 'npm install --save-dev pyright (or pip install pyright)',
  },
  { language: 'rust', extensions: ['.rs'], command: 'rust-analyzer', args: [], install: 'rustup component add rust-analyzer' },
  { language: 'go', extensions: ['.go'], command: 'gopls', args: [], install: 'go install golang.org/x/tools/gopls@latest' },
];

/** The LSP `languageId` of a file, by extension. */
const LANGUAGE_IDS: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.pyi': 'python',
  '.rs': 'rust',
  '.go': 'go',
};

export function languageIdOf(file: string, spec: LanguageServerSpec): string {
  return LANGUAGE_IDS[path.extname(file).toLowerCase()] ?? spec.language;
}

export class LanguageServersFileError extends Error {}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * The server table with the overrides of a JSON map applied:
 * `{"python": {"command": "/opt/pyright/bin/pyright-langserver", "args": ["--stdio"]},
 *   "lua": {"command": "lua-language-server", "extensions": [".lua"]}}`.
 * A new language needs `extensions`; a known one keeps its own unless given.
 */
export function serversWithOverrides(overrides: unknown, source = 'the language-server map'): LanguageServerSpec[] {
  const servers = BUILTIN_SERVERS.map((s) => ({ ...s }));
  if (overrides === undefined || overrides === null) return servers;
  if (!isObject(overrides)) throw new LanguageServersFileError(`${source} must be a JSON object {"<language>": {"command": …}}`);
  for (const [language, raw] of Object.entries(overrides)) {
    const where = `${source}, "${language}"`;
    if (!isObject(raw)) throw new LanguageServersFileError(`${where} must be an object {"command", "args"?, "extensions"?}`);
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      throw new LanguageServersFileError(`${where}: "command" must be a non-empty string`);
    if (raw.args !== undefined && !isStringArray(raw.args))
      throw new LanguageServersFileError(`${where}: "args" must be a list of strings`);
    if (raw.extensions !== undefined && (!isStringArray(raw.extensions) || raw.extensions.length === 0))
      throw new LanguageServersFileError(`${where}: "extensions" must be a non-empty list like [".lua"]`);
    if (raw.initializationOptions !== undefined && !isObject(raw.initializationOptions))
      throw new LanguageServersFileError(`${where}: "initializationOptions" must be an object`);
    const extensions = (raw.extensions as string[] | undefined)?.map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase());
    const known = servers.find((s) => s.language === language);
    const entry: LanguageServerSpec = {
      language,
      extensions: extensions ?? known?.extensions ?? [],
      command: raw.command,
      args: (raw.args as string[] | undefined) ?? (known && raw.command === known.command ? known.args : []),
      install: `the command "${raw.command}" named in ${source}`,
      ...(raw.initializationOptions ? { initializationOptions: raw.initializationOptions } : {}),
    };
    if (entry.extensions.length === 0) throw new LanguageServersFileError(`${where}: a new language needs "extensions", e.g. [".lua"]`);
    if (known) servers.splice(servers.indexOf(known), 1, entry);
    else servers.push(entry);
  }
  return servers;
}

/** Reads a `--language-servers FILE`; throws LanguageServersFileError naming the problem. */
export function readLanguageServersFile(file: string): LanguageServerSpec[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new LanguageServersFileError(
      `cannot read the language-server map ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new LanguageServersFileError(`the language-server map ${file} is not JSON: ${(err as Error).message}`);
  }
  return serversWithOverrides(parsed, file);
}

/** The server for `file`, by extension (first match wins). */
export function serverForFile(servers: readonly LanguageServerSpec[], file: string): LanguageServerSpec | undefined {
  const ext = path.extname(file).toLowerCase();
  return servers.find((s) => s.extensions.includes(ext));
}

/** How to run a server: the program and its arguments, ready for spawn. */
export interface ServerLaunch {
  spec: LanguageServerSpec;
  /** What was found (the real path of the program). */
  program: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** typescript-language-server's `tsserver.path`. */
  tsserver?: string;
}

export class ServerUnavailableError extends Error {}

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** `dir` and its ancestors, nearest first. */
function upwards(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

function findProgram(command: string, root: string, envPath: string | undefined): { found?: string; looked: string[] } {
  if (command.includes('/') || command.includes('\\')) {
    const abs = path.resolve(root, command);
    return { ...(isFile(abs) ? { found: abs } : {}), looked: [abs] };
  }
  const exts = process.platform === 'win32' ? ['.cmd', '.exe', ''] : [''];
  const dirs = [
    ...upwards(root).map((d) => path.join(d, 'node_modules', '.bin')),
    ...(envPath ?? '').split(path.delimiter).filter(Boolean),
  ];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, command + ext);
      if (isFile(candidate)) return { found: candidate, looked: dirs };
    }
  }
  return { looked: [path.join(root, 'node_modules', '.bin'), 'PATH'] };
}

/** Whether a program is JavaScript (run it with our own runtime rather than trust a `node` on PATH). */
function isJavaScript(file: string): boolean {
  if (/\.(c|m)?js$/.test(file)) return true;
  try {
    const head = readFileSync(file, { encoding: 'utf8', flag: 'r' }).slice(0, 100);
    return /^#!.*\bnode\b/.test(head);
  } catch {
    return false;
  }
}

/** TypeScript's tsserver.js: the workspace's own, else one beside the server. */
export function findTsserver(root: string, serverProgram: string): string | undefined {
  for (const start of [root, path.dirname(serverProgram)]) {
    for (const dir of upwards(start)) {
      const tsserver = path.join(dir, 'node_modules', 'typescript', 'lib', 'tsserver.js');
      if (existsSync(tsserver)) return tsserver;
    }
  }
  return undefined;
}

/** Finds `spec`'s program for the workspace `root`; throws ServerUnavailableError naming what to install. */
export function resolveServer(spec: LanguageServerSpec, root: string, envPath = process.env.PATH): ServerLaunch {
  const { found } = findProgram(spec.command, root, envPath);
  if (!found)
    throw new ServerUnavailableError(
      `no language server for ${spec.language} files: ${spec.command} was found neither in the workspace's node_modules/.bin nor on PATH. ` +
        `Install it (${spec.install}) or name one in symposium.languageServers / the conductor's --language-servers file`,
    );
  let program = found;
  try {
    program = realpathSync.native(found);
  } catch {
    // keep the path as found
  }
  const js = isJavaScript(program);
  const launch: ServerLaunch = {
    spec,
    program,
    command: js ? process.execPath : found,
    args: js ? [program, ...spec.args] : [...spec.args],
    // Electron's binary (VS Code's conductor runs on it) acts as plain Node with this.
    env: js ? { ELECTRON_RUN_AS_NODE: '1' } : {},
  };
  if (spec.language === 'typescript' && path.basename(spec.command).startsWith('typescript-language-server')) {
    const tsserver = findTsserver(root, program);
    if (!tsserver)
      throw new ServerUnavailableError(
        `typescript-language-server needs TypeScript, and there is none in the workspace's node_modules nor beside the server (${program}). ` +
          'Install it: npm install --save-dev typescript',
      );
    launch.tsserver = tsserver;
  }
  return launch;
}
