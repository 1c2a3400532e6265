// The language servers the conductor's ide-lsp adapter may start, by language, and the JSON map
// that overrides or adds them (the conductor's `--language-servers`, the extension's
// `symposium.languageServers`). Shared, pure: the extension checks the setting with the same rules
// the conductor applies (conductor/components/ide-lsp/servers.ts finds and runs the programs).
import { isObject } from './guards';

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

export class LanguageServersMapError extends Error {}

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
  if (!isObject(overrides)) throw new LanguageServersMapError(`${source} must be a JSON object {"<language>": {"command": …}}`);
  for (const [language, raw] of Object.entries(overrides)) {
    const where = `${source}, "${language}"`;
    if (!isObject(raw)) throw new LanguageServersMapError(`${where} must be an object {"command", "args"?, "extensions"?}`);
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      throw new LanguageServersMapError(`${where}: "command" must be a non-empty string`);
    if (raw.args !== undefined && !isStringArray(raw.args)) throw new LanguageServersMapError(`${where}: "args" must be a list of strings`);
    if (raw.extensions !== undefined && (!isStringArray(raw.extensions) || raw.extensions.length === 0))
      throw new LanguageServersMapError(`${where}: "extensions" must be a non-empty list like [".lua"]`);
    if (raw.initializationOptions !== undefined && !isObject(raw.initializationOptions))
      throw new LanguageServersMapError(`${where}: "initializationOptions" must be an object`);
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
    if (entry.extensions.length === 0) throw new LanguageServersMapError(`${where}: a new language needs "extensions", e.g. [".lua"]`);
    if (known) servers.splice(servers.indexOf(known), 1, entry);
    else servers.push(entry);
  }
  return servers;
}
