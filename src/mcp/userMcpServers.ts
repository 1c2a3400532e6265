// The user's MCP servers for a new session, as VS Code users configure them (docs/extension.md,
// "Your MCP servers"): the user's `mcp.json` (beside settings.json in the User folder), the older
// `mcp` user setting, and the `.vscode/mcp.json` of each folder the session is given (its working
// folder, and the others with symposium.allFoldersInSession, as VS Code's own chat reads every
// workspace folder's file; the working folder's server wins a name they share). A stdio server
// runs in its `cwd`, else in the folder whose file named it, as in VS Code. A workspace's file
// names programs to run, written by whoever wrote the repository: it counts only in a trusted
// workspace, and only after the user has seen everything it would run and said yes (remembered per
// folder and content: a changed file asks again). `${input:…}` values are asked once in an input
// box and kept in VS Code's secret storage, never in settings, logs or the workspace. "Forget MCP
// Server Approvals and Inputs" takes both back: the next chat asks again.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import { readContainedFile, readRegularFileText } from '../node/containedFile';
import { POSIX } from '../node/processGroup';
import { errorText } from '../protocol/errorText';
import {
  inputIdsOf,
  parseEnvFile,
  parseMcpJson,
  parseMcpSection,
  entryFolder,
  resolveEntry,
  resolvePath,
  runInFolder,
  type McpConfig,
  type McpEntry,
  type McpInput,
} from './mcpConfig';
import { UNTRUSTED, type McpServerReport, type SessionMcpServers } from './mcpSummary';

/** The largest mcp.json or env file read. */
const FILE_BYTES = 1024 * 1024;
/** workspaceState key: `<folder>\0<sha256 of its mcp.json>` the user allowed. */
const CONSENT_KEY = 'symposium.mcpWorkspaceConsent';
/** globalState key: the secret-storage keys of the inputs answered (secret storage cannot list its keys). */
const INPUT_KEYS_KEY = 'symposium.mcpInputKeys';

interface Source {
  kind: 'user' | 'workspace';
  /** Where it was read (shown in the confirmation and problems). */
  label: string;
  /** Input answers are kept per source. */
  inputScope: string;
  config: McpConfig;
  /** For a workspace file: the folder it belongs to, and the hash its consent is kept under. */
  folder?: string;
  consentKey?: string;
}

export interface UserMcpDeps {
  log: Log;
  secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>;
  /** This workspace's memory, which a repository cannot write. */
  workspaceState: Pick<vscode.Memento, 'get' | 'update'>;
  /** The extension's memory in every workspace (where the answered inputs' keys are listed). */
  globalState: Pick<vscode.Memento, 'get' | 'update'>;
  /** `<user data>/User/globalStorage/<extension>`: the User folder is two levels up. */
  globalStorageUri: vscode.Uri;
  /** `symposium.mcpServers.enabled`. */
  enabled: () => boolean;
  /** Whether VS Code trusts the workspace (default: vscode.workspace.isTrusted, read per session). */
  trusted?: () => boolean;
}

export class UserMcpServers {
  /** Workspace files the user said no to in this window (asked again after a reload or an edit). */
  private readonly declined = new Set<string>();
  /** One session set up at a time: two tabs starting together ask for an input once. */
  private queue: Promise<unknown> = Promise.resolve();
  /** What the last workspace confirmation showed (the test commands read it). */
  lastConfirmation: string[] = [];

  constructor(private readonly deps: UserMcpDeps) {}

  /** What is kept: this workspace's approved mcp.json files, and the inputs answered (in every workspace). */
  kept(): { approvals: number; inputs: number } {
    return {
      approvals: (this.deps.workspaceState.get<string[]>(CONSENT_KEY) ?? []).length,
      inputs: (this.deps.globalState.get<string[]>(INPUT_KEYS_KEY) ?? []).length,
    };
  }

  /**
   * Forgets this workspace's approvals (and the refusals of this window) and every input's answer:
   * the next session asks again. Sessions already running keep the servers they were given.
   */
  forget(): Promise<{ approvals: number; inputs: number }> {
    const run = this.queue.then(async () => {
      const kept = this.kept();
      for (const key of this.deps.globalState.get<string[]>(INPUT_KEYS_KEY) ?? []) await this.deps.secrets.delete(key);
      await this.deps.globalState.update(INPUT_KEYS_KEY, undefined);
      await this.deps.workspaceState.update(CONSENT_KEY, undefined);
      this.declined.clear();
      this.deps.log.info('mcp', 'MCP server approvals and inputs forgotten', kept);
      return kept;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The servers for a new session in `folder` (and the `others` folders it is given), with what
   * became of each (for the chat's notice).
   */
  forSession(folder: string, others: readonly string[] = []): Promise<SessionMcpServers> {
    const run = this.queue.then(() => this.gather(folder, others));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async gather(folder: string, others: readonly string[]): Promise<SessionMcpServers> {
    if (!this.deps.enabled()) return { servers: [], report: [], disabled: true };
    const report: McpServerReport[] = [];
    const sources = await this.sources([...others.filter((o) => o !== folder), folder], report);
    // A workspace server replaces the user's of the same name, as a workspace setting would; the
    // working folder's replaces another folder's (it comes last).
    const chosen = new Map<string, { entry: McpEntry; source: Source }>();
    for (const source of sources) for (const entry of source.config.servers) chosen.set(entry.name, { entry, source });
    const servers: McpServer[] = [];
    for (const { entry, source } of chosen.values()) {
      const resolved = await this.resolve(entry, source, source.folder ?? folder, folder);
      if ('server' in resolved) servers.push(resolved.server);
      report.push({
        name: entry.name,
        type: entry.type,
        source: source.kind,
        ...('skipped' in resolved ? { skipped: resolved.skipped } : {}),
        ...('note' in resolved && resolved.note ? { note: resolved.note } : {}),
      });
    }
    this.deps.log.info('mcp', 'user MCP servers for the session', { folder, others, servers: report });
    return { servers, report };
  }

  /** The user's sources, then each folder's file in `folders`' order (the working folder last). */
  private async sources(folders: readonly string[], report: McpServerReport[]): Promise<Source[]> {
    const sources: Source[] = [];
    const problems: string[] = [];
    const inspect = (key: string): unknown => vscode.workspace.getConfiguration('mcp').inspect(key)?.globalValue;
    const fromSetting = parseMcpSection(inspect('servers'), inspect('inputs'), 'the "mcp" user setting');
    if (fromSetting.servers.length || fromSetting.problems.length)
      sources.push({ kind: 'user', label: 'the "mcp" user setting', inputScope: 'user-setting', config: fromSetting });
    const userFile = path.join(path.dirname(path.dirname(this.deps.globalStorageUri.fsPath)), 'mcp.json');
    const userText = await readOrNothing(
      () => readRegularFileText(userFile, { maxBytes: FILE_BYTES, followFinalLink: true }),
      userFile,
      problems,
    );
    if (userText !== undefined)
      sources.push({ kind: 'user', label: userFile, inputScope: 'user', config: parseMcpJson(userText, userFile) });

    for (const folder of folders) {
      const wsFile = path.join(folder, '.vscode', 'mcp.json');
      const wsText = await readOrNothing(() => readContainedFile(wsFile, [folder], { maxBytes: FILE_BYTES }), wsFile, problems);
      if (wsText === undefined) continue;
      const config = parseMcpJson(wsText, wsFile);
      const consentKey = `${folder}\0${createHash('sha256').update(wsText).digest('hex')}`;
      const source: Source = { kind: 'workspace', label: wsFile, inputScope: wsFile, config, folder, consentKey };
      const refusal = await this.workspaceRefusal(source);
      if (refusal === undefined) sources.push(source);
      else for (const e of config.servers) report.push({ name: e.name, type: e.type, source: 'workspace', skipped: refusal });
    }
    for (const s of sources) problems.push(...s.config.problems);
    for (const p of problems) this.deps.log.warn('mcp', p);
    return sources;
  }

  /** Why a workspace's servers are not used (undefined: they are). */
  private async workspaceRefusal(source: Source): Promise<string | undefined> {
    const servers = source.config.servers;
    if (!servers.length) return undefined;
    if (!(this.deps.trusted?.() ?? vscode.workspace.isTrusted)) return UNTRUSTED;
    const key = source.consentKey!;
    if ((this.deps.workspaceState.get<string[]>(CONSENT_KEY) ?? []).includes(key)) return undefined;
    if (this.declined.has(key)) return 'you did not allow this workspace’s MCP servers';
    const allow = { label: '$(check) Allow and start them', description: `for agents in ${path.basename(source.folder!)}` };
    const lines = servers.map(describeEntry);
    this.lastConfirmation = lines;
    this.deps.log.info('mcp', 'asking to allow the workspace MCP servers', { file: source.label, servers: lines });
    const answer = await vscode.window.showQuickPick(
      [
        allow,
        { label: 'Do not use them' },
        { label: 'It would run', kind: vscode.QuickPickItemKind.Separator },
        ...lines.map((label) => ({ label })),
      ],
      { title: `${source.label} names MCP servers for the agent. Allow them?`, ignoreFocusOut: true },
    );
    if (answer !== allow) {
      this.declined.add(key);
      this.deps.log.info('mcp', 'workspace MCP servers not allowed', { file: source.label });
      return 'you did not allow this workspace’s MCP servers';
    }
    const list = this.deps.workspaceState.get<string[]>(CONSENT_KEY) ?? [];
    await this.deps.workspaceState.update(CONSENT_KEY, [...new Set([...list, key])]);
    this.deps.log.info('mcp', 'workspace MCP servers allowed', { file: source.label });
    return undefined;
  }

  /**
   * `entry` as the session in `sessionFolder` gets it; `folder` is the folder whose file named it
   * (the session's for the user's servers), where `${workspaceFolder}` points and a stdio server runs.
   */
  private async resolve(
    entry: McpEntry,
    source: Source,
    folder: string,
    sessionFolder: string,
  ): Promise<{ server: McpServer; note?: string } | { skipped: string }> {
    const inputs = new Map<string, string>();
    for (const id of inputIdsOf(entry)) {
      const input = source.config.inputs.find((i) => i.id === id) ?? { id, description: id, password: true };
      const value = await this.inputValue(input, source, entry.name);
      if (value !== undefined) inputs.set(id, value);
    }
    const cx = { workspaceFolder: folder, userHome: os.homedir(), pathSeparator: path.sep, env: process.env, inputs };
    let envFile: Record<string, string> = {};
    if (entry.type === 'stdio' && entry.envFile !== undefined) {
      const file = resolvePath(entry.envFile, cx);
      if (file === undefined) return { skipped: `its envFile "${entry.envFile}" uses a variable that cannot be resolved` };
      const absolute = path.resolve(folder, file);
      try {
        // A workspace's env file must be the workspace's; the user's may be anywhere they keep one.
        const read =
          source.kind === 'workspace'
            ? await readContainedFile(absolute, [source.folder!], { maxBytes: FILE_BYTES })
            : await readRegularFileText(absolute, { maxBytes: FILE_BYTES, followFinalLink: true });
        envFile = parseEnvFile(read.text);
      } catch (err) {
        return { skipped: `its envFile could not be read (${errorText(err)})` };
      }
    }
    if (entry.type !== 'stdio') return resolveEntry(entry, cx);
    const resolved = resolveEntry(entry, cx, envFile);
    if (!('server' in resolved)) return resolved;
    const runIn = entryFolder(entry, cx);
    if (runIn === undefined) return { skipped: `its cwd "${entry.cwd}" uses a variable that cannot be resolved` };
    if (runIn === path.resolve(sessionFolder)) return resolved;
    if (!(await isFolder(runIn))) return { skipped: `its cwd ${runIn} is not a folder` };
    if (!POSIX) {
      const note = `runs in the session's folder, not ${runIn}: on Windows its folder is not passed`;
      this.deps.log.warn('mcp', `MCP server "${entry.name}" ${note}`);
      return { ...resolved, note };
    }
    return { server: runInFolder(resolved.server, runIn) };
  }

  /** An input's answer: kept from before, else asked now (undefined: the user cancelled). */
  private async inputValue(input: McpInput, source: Source, serverName: string): Promise<string | undefined> {
    const key = `symposium.mcpInput:${source.inputScope}:${input.id}`;
    const kept = await this.deps.secrets.get(key);
    if (kept !== undefined) return kept;
    this.deps.log.info('mcp', 'asking for an MCP input', { server: serverName, input: input.id, password: input.password });
    const value = await vscode.window.showInputBox({
      title: `MCP server "${serverName}": ${input.description}`,
      prompt: `${input.id} (from ${source.label}; kept in VS Code's secret storage)`,
      password: input.password,
      ignoreFocusOut: true,
      ...(input.default !== undefined ? { value: input.default } : {}),
    });
    if (value === undefined) {
      this.deps.log.info('mcp', 'MCP input not given', { server: serverName, input: input.id });
      return undefined;
    }
    await this.deps.secrets.store(key, value);
    const keys = this.deps.globalState.get<string[]>(INPUT_KEYS_KEY) ?? [];
    if (!keys.includes(key)) await this.deps.globalState.update(INPUT_KEYS_KEY, [...keys, key]);
    return value;
  }
}

/** One line of the confirmation: what runs, with the names (never the values) of its variables. */
function describeEntry(e: McpEntry): string {
  if (e.type !== 'stdio')
    return `${e.name}: ${e.type} ${e.url}${Object.keys(e.headers).length ? ` (headers: ${Object.keys(e.headers).join(', ')})` : ''}`;
  const env = [...Object.keys(e.env), ...(e.envFile ? [`variables from ${e.envFile}`] : [])];
  const where = e.cwd !== undefined ? ` in ${e.cwd}` : '';
  return `${e.name}: ${[e.command, ...e.args].map(shellWord).join(' ')}${where}${env.length ? ` (env: ${env.join(', ')})` : ''}`;
}

const shellWord = (w: string): string => (/^[\w@%+=:,./${}-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

const isFolder = (p: string): Promise<boolean> =>
  fs.stat(p).then(
    (st) => st.isDirectory(),
    () => false,
  );

/** A file's text, or undefined when there is none; any other failure becomes a problem. */
async function readOrNothing(read: () => Promise<{ text: string }>, label: string, problems: string[]): Promise<string | undefined> {
  try {
    return (await read()).text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${label} was not read: ${errorText(err)}`);
    return undefined;
  }
}
