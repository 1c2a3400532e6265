// Which language server answers which file, and where its program is. Built-in: TypeScript /
// JavaScript → typescript-language-server, Python → pyright-langserver, Rust → rust-analyzer,
// Go → gopls, routed by file extension. A JSON map (the conductor's `--language-servers FILE|JSON`,
// the extension's `symposium.languageServers`) overrides a language's command or adds a language.
// A bare command name is looked up on PATH (absolute entries only). A workspace is somebody
// else's code: its own node_modules/.bin and its own TypeScript are programs a cloned repository
// chose, so they run only when the user opted in (`--allow-workspace-language-servers`, the
// extension's `symposium.languageServers.allowWorkspaceBinaries`), as VS Code asks before it uses
// a workspace's TypeScript; and never anything above the session folder (a parent such as /tmp
// may be writable by anyone). A JavaScript program (every npm server's bin is one) is run with
// this very runtime, so no `node` needs to be on PATH (VS Code's conductor runs on Electron's).
// typescript-language-server also needs a TypeScript: the workspace's own (opted in), else the
// one installed with the server.
import { closeSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import {
  BUILTIN_SERVERS,
  LanguageServersMapError,
  serversWithOverrides,
  type LanguageServerSpec,
} from '../../../src/protocol/languageServers';
import { errorText } from '../../../src/protocol/errorText';

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
    throw new LanguageServersMapError(`${source} is not JSON: ${errorText(err)}`);
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

/** Where programs may come from, besides what the user named. */
export interface ServerSearch {
  /** The session folder's own node_modules/.bin and node_modules/typescript may run (the user opted in). */
  allowWorkspaceBinaries: boolean;
  /** The PATH to search (the conductor's own by default). */
  envPath?: string | undefined;
}

export const WORKSPACE_OPT_IN =
  "the conductor's --allow-workspace-language-servers (in VS Code: the user setting symposium.languageServers.allowWorkspaceBinaries)";

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

const PROGRAM_EXTENSIONS = process.platform === 'win32' ? ['.cmd', '.exe', ''] : [''];

/** The first `dir/command(.ext)` that is a file. */
function firstIn(dirs: readonly string[], command: string): string | undefined {
  for (const dir of dirs) {
    for (const ext of PROGRAM_EXTENSIONS) {
      const candidate = path.join(dir, command + ext);
      if (isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

const workspaceBin = (root: string): string => path.join(root, 'node_modules', '.bin');

function findProgram(command: string, root: string, search: ServerSearch): string | undefined {
  // A path the user wrote (settings, --language-servers) is what they chose to run.
  if (command.includes('/') || command.includes('\\')) {
    const abs = path.resolve(root, command);
    return isFile(abs) ? abs : undefined;
  }
  // Relative PATH entries ("." or "node_modules/.bin") would mean the workspace again.
  const onPath = (search.envPath ?? '').split(path.delimiter).filter((d) => d !== '' && path.isAbsolute(d));
  return firstIn([...(search.allowWorkspaceBinaries ? [workspaceBin(root)] : []), ...onPath], command);
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

const tsserverIn = (dir: string): string => path.join(dir, 'node_modules', 'typescript', 'lib', 'tsserver.js');

/**
 * The folders whose node_modules may hold the TypeScript installed with a server: from the
 * program's folder up to the folder that holds the node_modules it was installed in (how npm
 * places a package's dependencies, nested or beside it), never further; a program outside any
 * node_modules looks in its own folder and the one above (a `bin/` beside its package's modules).
 */
function besideServer(program: string): string[] {
  const dirs: string[] = [];
  let d = path.dirname(program);
  const segments = d.split(path.sep);
  const installed = segments.lastIndexOf('node_modules');
  const last = installed > 0 ? segments.slice(0, installed).join(path.sep) || path.sep : path.dirname(d);
  for (;;) {
    dirs.push(d);
    if (d === last || path.dirname(d) === d) return dirs;
    d = path.dirname(d);
  }
}

/**
 * Whether typescript-language-server accepts `tsserver` as given: it reads the version from the
 * package.json two folders up, and when that fails it goes looking for a TypeScript itself, in
 * the workspace and the folders above it. So a TypeScript is passed only when it will be used.
 */
function isUsableTypeScript(tsserver: string): boolean {
  if (!isFile(tsserver)) return false;
  try {
    const manifest: unknown = JSON.parse(readFileSync(path.join(path.dirname(path.dirname(tsserver)), 'package.json'), 'utf8'));
    return typeof (manifest as { version?: unknown } | null)?.version === 'string';
  } catch {
    return false;
  }
}

/** TypeScript's tsserver.js: the workspace's own (only when opted in, the session folder itself), else the server's. */
export function findTsserver(
  root: string,
  serverProgram: string,
  search: Pick<ServerSearch, 'allowWorkspaceBinaries'>,
): string | undefined {
  const dirs = [...(search.allowWorkspaceBinaries ? [root] : []), ...besideServer(serverProgram)];
  return dirs.map(tsserverIn).find(isUsableTypeScript);
}

/** What the workspace holds that was not used, for an error that says why. */
function unusedInWorkspace(file: string, search: ServerSearch): string {
  return !search.allowWorkspaceBinaries && isFile(file) ? ` The workspace has ${file}, which runs only with ${WORKSPACE_OPT_IN}.` : '';
}

/** Finds `spec`'s program for the workspace `root`; throws ServerUnavailableError naming what to install. */
export function resolveServer(spec: LanguageServerSpec, root: string, search: ServerSearch): ServerLaunch {
  const found = findProgram(spec.command, root, search);
  if (!found)
    throw new ServerUnavailableError(
      `no language server for ${spec.language} files: ${spec.command} was not found ` +
        `${search.allowWorkspaceBinaries ? "in the workspace's node_modules/.bin nor " : ''}on PATH. ` +
        `Install it (${spec.install}) or name one in symposium.languageServers / the conductor's --language-servers file.` +
        unusedInWorkspace(path.join(workspaceBin(root), spec.command), search),
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
    const tsserver = findTsserver(root, program, search);
    if (!tsserver)
      throw new ServerUnavailableError(
        `typescript-language-server needs TypeScript, and there is none installed with the server (${program})` +
          `${search.allowWorkspaceBinaries ? " nor in the workspace's node_modules" : ''}. ` +
          'Install it beside the server (npm install -g typescript).' +
          unusedInWorkspace(tsserverIn(root), search),
      );
    launch.tsserver = tsserver;
  }
  return launch;
}
