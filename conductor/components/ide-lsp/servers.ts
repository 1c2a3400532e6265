// Which language server answers which file, and where its program is. Built-in: TypeScript /
// JavaScript → typescript-language-server, Python → pyright-langserver, Rust → rust-analyzer,
// Go → gopls, routed by file extension. A JSON map (the conductor's `--language-servers FILE|JSON`,
// the extension's `symposium.languageServers`) overrides a language's command or adds a language.
// A bare command name is looked up in the workspace's node_modules/.bin (and its parents', as
// Node resolves packages), then on PATH. A JavaScript program (every npm server's bin is one) is
// run with this very runtime, so no `node` needs to be on PATH (VS Code's conductor runs on
// Electron's). typescript-language-server also needs a TypeScript: the workspace's own, else one
// installed beside the server.
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import {
  BUILTIN_SERVERS,
  LanguageServersMapError,
  serversWithOverrides,
  type LanguageServerSpec,
} from '../../../src/protocol/languageServers';

export { BUILTIN_SERVERS, LanguageServersMapError, serversWithOverrides, type LanguageServerSpec };

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

/**
 * The table with a `--language-servers` value applied: a JSON object written inline (how the
 * extension passes `symposium.languageServers`) or the path of a file holding one. Throws
 * LanguageServersMapError naming the problem.
 */
export function readLanguageServersOption(value: string): LanguageServerSpec[] {
  const inline = value.trimStart().startsWith('{');
  const source = inline ? 'the --language-servers map' : `the language-server map ${value}`;
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(value, 'utf8');
    } catch (err) {
      throw new LanguageServersMapError(`cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new LanguageServersMapError(`${source} is not JSON: ${(err as Error).message}`);
  }
  return serversWithOverrides(parsed, inline ? source : value);
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
  // Only the first line matters: a native server (gopls, rust-analyzer) is tens of megabytes.
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(128);
    const n = readSync(fd, head, 0, head.length, 0);
    return /^#!.*\bnode\b/.test(head.toString('utf8', 0, n));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
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
