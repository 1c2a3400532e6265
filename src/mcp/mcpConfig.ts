// The user's own MCP servers as VS Code configures them: an `mcp.json` file (the user's, or a
// workspace folder's `.vscode/mcp.json`; JSON with comments and trailing commas) or the older
// `mcp` user setting, both `{servers: {<name>: …}, inputs: [...]}`. This module reads such a
// configuration into checked entries and resolves an entry's variables (`${input:…}`,
// `${env:…}`, `${workspaceFolder}`, `${userHome}`, `${pathSeparator}`) into an ACP `McpServer`
// declaration for `session/new`. Every problem is a sentence naming the file and the server;
// nothing here throws on bad input. Pure.
import * as path from 'node:path';
import type { McpServer, McpServerStdio } from '@agentclientprotocol/sdk';
import { isObject } from '../protocol/guards';
import { stripJsonc } from '../settings/settingsScope';

/** A `promptString` input: asked once, kept in the extension's secret storage. */
export interface McpInput {
  id: string;
  description: string;
  password: boolean;
  /** Pre-filled in the input box. */
  default?: string;
}

interface EntryBase {
  name: string;
}
export interface StdioEntry extends EntryBase {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  envFile?: string;
  cwd?: string;
}
export interface RemoteEntry extends EntryBase {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}
export type McpEntry = StdioEntry | RemoteEntry;

export interface McpConfig {
  servers: McpEntry[];
  inputs: McpInput[];
  /** One sentence per entry or field that was left out, naming where it was. */
  problems: string[];
}

/** Reads the text of an `mcp.json`; `label` names it in problems (a path). */
export function parseMcpJson(text: string, label: string): McpConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(text));
  } catch (err) {
    return {
      servers: [],
      inputs: [],
      problems: [`${label} is not valid JSON (${(err as Error).message}); none of its MCP servers were used`],
    };
  }
  if (!isObject(parsed)) return { servers: [], inputs: [], problems: [`${label} must hold an object with "servers"; nothing was used`] };
  return parseMcpSection(parsed.servers, parsed.inputs, label);
}

/** `servers` and `inputs` as found in a file or the `mcp` setting. */
export function parseMcpSection(servers: unknown, inputs: unknown, label: string): McpConfig {
  const out: McpConfig = { servers: [], inputs: [], problems: [] };
  if (servers !== undefined && !isObject(servers)) out.problems.push(`${label}: "servers" must be an object of named servers`);
  for (const [name, raw] of Object.entries(isObject(servers) ? servers : {})) {
    const entry = parseEntry(name, raw);
    if (typeof entry === 'string') out.problems.push(`${label}: MCP server "${name}" ${entry}; it was left out`);
    else out.servers.push(entry);
  }
  if (inputs !== undefined && !Array.isArray(inputs)) out.problems.push(`${label}: "inputs" must be a list`);
  for (const raw of Array.isArray(inputs) ? inputs : []) {
    if (!isObject(raw) || typeof raw.id !== 'string' || raw.id === '') {
      out.problems.push(`${label}: an input without an "id" was left out`);
      continue;
    }
    if (raw.type !== undefined && raw.type !== 'promptString') {
      out.problems.push(`${label}: input "${raw.id}" has type ${JSON.stringify(raw.type)}; only promptString is supported`);
      continue;
    }
    out.inputs.push({
      id: raw.id,
      description: typeof raw.description === 'string' ? raw.description : raw.id,
      password: raw.password === true,
      ...(typeof raw.default === 'string' ? { default: raw.default } : {}),
    });
  }
  return out;
}

function stringRecord(raw: unknown, field: string): Record<string, string> | string {
  if (raw === undefined) return {};
  if (!isObject(raw)) return `has "${field}" that is not an object`;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    // VS Code lets `null` unset an inherited variable; there is nothing inherited to unset here.
    if (v === null) continue;
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else return `has "${field}.${k}" that is not a string`;
  }
  return out;
}

function parseEntry(name: string, raw: unknown): McpEntry | string {
  if (name.trim() === '') return 'has an empty name';
  if (!isObject(raw)) return 'is not an object';
  // VS Code infers the type when it is left out: a command is stdio, a URL is http.
  const type = raw.type ?? (typeof raw.command === 'string' ? 'stdio' : typeof raw.url === 'string' ? 'http' : undefined);
  if (type === 'stdio') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '') return 'has no "command"';
    if (raw.args !== undefined && (!Array.isArray(raw.args) || raw.args.some((a) => typeof a !== 'string')))
      return 'has "args" that is not a list of strings';
    const env = stringRecord(raw.env, 'env');
    if (typeof env === 'string') return env;
    if (raw.envFile !== undefined && typeof raw.envFile !== 'string') return 'has "envFile" that is not a path';
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') return 'has "cwd" that is not a path';
    return {
      name,
      type,
      command: raw.command,
      args: (raw.args as string[] | undefined) ?? [],
      env,
      ...(typeof raw.envFile === 'string' ? { envFile: raw.envFile } : {}),
      ...(typeof raw.cwd === 'string' ? { cwd: raw.cwd } : {}),
    };
  }
  if (type === 'http' || type === 'sse') {
    if (typeof raw.url !== 'string' || raw.url.trim() === '') return 'has no "url"';
    const headers = stringRecord(raw.headers, 'headers');
    if (typeof headers === 'string') return headers;
    return { name, type, url: raw.url, headers };
  }
  return `has type ${JSON.stringify(type)}; stdio, http and sse are supported`;
}

/** The `${input:id}` ids an entry uses, in order of first use. */
export function inputIdsOf(entry: McpEntry): string[] {
  const texts =
    entry.type === 'stdio'
      ? [entry.command, ...entry.args, ...Object.values(entry.env), entry.envFile ?? '', entry.cwd ?? '']
      : [entry.url, ...Object.values(entry.headers)];
  const ids = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(VARIABLE)) if (m[1]!.startsWith('input:')) ids.add(m[1]!.slice('input:'.length));
  return [...ids];
}

export interface VariableContext {
  /** The session's folder (`${workspaceFolder}`). */
  workspaceFolder: string;
  userHome: string;
  pathSeparator: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The answers to the inputs (by id); a missing one leaves its server out. */
  inputs: ReadonlyMap<string, string>;
}

const VARIABLE = /\$\{([^}]*)\}/g;

class UnresolvedVariable extends Error {}

function substitute(text: string, cx: VariableContext): string {
  return text.replace(VARIABLE, (_all, name: string) => {
    if (name === 'workspaceFolder') return cx.workspaceFolder;
    if (name === 'workspaceFolderBasename') return cx.workspaceFolder.split(/[\\/]/).filter(Boolean).pop() ?? '';
    if (name === 'userHome') return cx.userHome;
    if (name === 'pathSeparator' || name === '/') return cx.pathSeparator;
    // As in VS Code, an unset environment variable is the empty string.
    if (name.startsWith('env:')) return cx.env[name.slice(4)] ?? '';
    if (name.startsWith('input:')) {
      const value = cx.inputs.get(name.slice(6));
      if (value === undefined) throw new UnresolvedVariable(`the input "${name.slice(6)}" was not given`);
      return value;
    }
    throw new UnresolvedVariable(`the variable \${${name}} is not supported here`);
  });
}

/** Lines `NAME=value` (`export ` and quotes allowed, `#` comments) of a dotenv file. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    } else value = value.replace(/\s+#.*$/, '');
    out[m[1]!] = value;
  }
  return out;
}

export type Resolved = { server: McpServer } | { skipped: string };
export type ResolvedStdio = { server: McpServerStdio } | { skipped: string };

/**
 * The ACP declaration of an entry, its variables resolved. `envFile` holds the variables read from
 * the entry's env file (the caller reads it; `env` wins over it, as in VS Code).
 */
export function resolveEntry(entry: StdioEntry, cx: VariableContext, envFile?: Record<string, string>): ResolvedStdio;
export function resolveEntry(entry: McpEntry, cx: VariableContext, envFile?: Record<string, string>): Resolved;
export function resolveEntry(entry: McpEntry, cx: VariableContext, envFile: Record<string, string> = {}): Resolved {
  try {
    if (entry.type === 'stdio') {
      const env = { ...envFile, ...entry.env };
      return {
        server: {
          name: entry.name,
          command: substitute(entry.command, cx),
          args: entry.args.map((a) => substitute(a, cx)),
          env: Object.entries(env).map(([name, value]) => ({ name, value: substitute(value, cx) })),
        },
      };
    }
    const url = substitute(entry.url, cx);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { skipped: `its url "${url}" is not a URL` };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { skipped: `its url is ${parsed.protocol}, not http(s)` };
    const headers = Object.entries(entry.headers).map(([name, value]) => ({ name, value: substitute(value, cx) }));
    return { server: { type: entry.type, name: entry.name, url, headers } };
  } catch (err) {
    if (err instanceof UnresolvedVariable) return { skipped: err.message };
    throw err;
  }
}

/** The variable-resolved `envFile` or `cwd` path of an entry (undefined: none, or a variable it cannot resolve). */
export function resolvePath(text: string | undefined, cx: VariableContext): string | undefined {
  if (text === undefined) return undefined;
  try {
    return substitute(text, cx);
  } catch {
    return undefined;
  }
}

/**
 * The folder a stdio entry runs in: its `cwd` (variables resolved, relative to the folder whose
 * file named it), else that folder, as VS Code runs it. undefined: a variable it cannot resolve.
 */
export function entryFolder(entry: StdioEntry, cx: VariableContext): string | undefined {
  if (entry.cwd === undefined) return cx.workspaceFolder;
  const cwd = resolvePath(entry.cwd, cx);
  return cwd === undefined ? undefined : path.resolve(cx.workspaceFolder, cwd);
}

/**
 * A stdio server that starts in `folder` rather than in the session's folder. ACP gives an MCP
 * server no working folder (the agent starts it in the session's), so the declaration runs it
 * through `sh`, which changes folder and then replaces itself with the server: no process stays
 * between the agent and the server, and the command and arguments pass as they are, unquoted.
 */
export function runInFolder(server: McpServerStdio, folder: string): McpServerStdio {
  return {
    ...server,
    command: '/bin/sh',
    args: ['-c', 'cd -- "$1" && shift && exec "$@"', 'mcp-server', folder, server.command, ...server.args],
  };
}
