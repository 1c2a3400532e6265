// ACP terminal/* for the agents, without the VS Code part (terminals.ts adds the Pseudoterminal):
// which session owns which terminal, where a command may run (the session's folder or an allowed
// one), asking before it runs, and releasing everything a session left when it ends. Node-only,
// so unit tests drive it with real processes and a fake mirror.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { acpRequestError } from '../agents/acpSdk';
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  ReleaseTerminalRequest,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import type { ClientRequestContext, TerminalHandlers } from '../agents/clientHandlers';
import { sessionFolders, type SessionInfo } from '../agents/clientHandlers';
import type { Log } from '../log/logEvent';
import { sessionKey } from '../protocol/sessionKey';
import type { TerminalOutput } from '../protocol/webview';
import type { CommandDescription } from '../permissions/permissionBroker';
import { isAgentMarker } from '../permissions/commandApprovals';
import { confine, OutsideWorkspaceError } from '../node/confinement';
import {
  formatCommandLine,
  invocationOf,
  RunningCommand,
  type CommandOptions,
  type TerminalMirror,
  type MirrorInfo,
} from './terminalProcess';
import { errorText } from '../protocol/errorText';
import { DisposableBase } from '../node/disposable';

/** An absolute path to an existing regular file: a program path with spaces is still a program. */
const isProgramFile = (p: string): boolean => {
  try {
    return path.isAbsolute(p) && fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

export interface TerminalRegistryDeps {
  log: Log;
  /** Which tab and workspace folder a session belongs to (undefined: no such session). */
  lookupSession(actorKey: string, sessionId: string): SessionInfo | undefined;
  /** Resolves true when the command may run (an approval covers it, or the user said yes). */
  authorize(
    ctx: { actorKey: string; agentName: string; signal: AbortSignal },
    sessionId: string,
    description: CommandDescription,
  ): Promise<boolean>;
  /** Output snapshots for the chat's tool card (throttled by the manager). */
  onOutput(payload: TerminalOutput): void;
  /** Extra folders (besides the session's) the user allowed in settings. */
  allowedFolders(): string[];
}

export interface TerminalTuning {
  /** Output kept per terminal when the agent gives no outputByteLimit. */
  defaultOutputBytes?: number;
  killGraceMs?: number;
  throttleMs?: number;
  chatOutputBytes?: number;
}

const DEFAULT_OUTPUT_BYTES = 1024 * 1024;
/** An agent may ask for more, but not for unbounded memory. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** The rule stated when a cwd is refused (the same words as fs/*, src/editor/files.ts). */
const ALLOWED_FOLDERS = {
  hint: "Only the session's workspace folders (its folder and, with symposium.allFoldersInSession, the workspace's other folders the agent was given) and the folders in the symposium.allowedFolders setting are allowed.",
};

/** Rejects as soon as `signal` aborts (the agent withdrew the request). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(acpRequestError().requestCancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(acpRequestError().requestCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function envOf(env: CreateTerminalRequest['env']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of env ?? []) {
    if (typeof v?.name !== 'string' || !v.name || /[=\0]/.test(v.name) || typeof v.value !== 'string' || v.value.includes('\0')) {
      throw acpRequestError().invalidParams(undefined, `Invalid environment variable ${JSON.stringify(v?.name)}.`);
    }
    out[v.name] = v.value;
  }
  return out;
}

export class TerminalRegistry extends DisposableBase implements TerminalHandlers {
  private readonly terminals = new Map<string, RunningCommand>();
  private readonly commandOptions: CommandOptions;
  private readonly defaultOutputBytes: number;

  constructor(
    private readonly deps: TerminalRegistryDeps,
    makeMirror: (info: MirrorInfo) => TerminalMirror,
    tuning: TerminalTuning = {},
  ) {
    super();
    this.defaultOutputBytes = tuning.defaultOutputBytes ?? DEFAULT_OUTPUT_BYTES;
    this.commandOptions = {
      log: deps.log,
      onOutput: (p) => {
        if (!this.isDisposed) deps.onOutput(p);
      },
      makeMirror,
      killGraceMs: tuning.killGraceMs ?? 2_000,
      throttleMs: tuning.throttleMs ?? 200,
      chatOutputBytes: tuning.chatOutputBytes ?? 64 * 1024,
    };
  }

  async create(params: CreateTerminalRequest, ctx: ClientRequestContext): Promise<CreateTerminalResponse> {
    const { sessionId } = params;
    if (this.isDisposed) throw acpRequestError().internalError(undefined, 'The editor is shutting down.');
    const session = this.deps.lookupSession(ctx.actorKey, sessionId);
    if (!session) throw acpRequestError().invalidParams(undefined, `No chat tab has session ${sessionId}.`);
    if (typeof params.command !== 'string' || !params.command.trim())
      throw acpRequestError().invalidParams(undefined, 'No command to run.');
    const args = params.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
      throw acpRequestError().invalidParams(undefined, 'args must be a list of strings.');
    const run = invocationOf(params.command, args, process.env.SHELL, isProgramFile);
    // A shell line is shown as the agent wrote it; a program and its arguments, quoted as a shell would need.
    const commandLine = run.shellLine ?? formatCommandLine(params.command, args);
    const cwd = this.resolveCwd(params.cwd ?? session.cwd, sessionFolders(session), ctx, commandLine);
    const env = envOf(params.env);
    const limit = params.outputByteLimit ?? this.defaultOutputBytes;
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0)
      throw acpRequestError().invalidParams(undefined, 'outputByteLimit must be a non-negative number.');

    // Values may be secrets: the user sees (and the log keeps) only the names.
    const rawInput = { command: params.command, args, cwd, env: Object.keys(env) };
    const description = {
      title: `Run: ${commandLine}`,
      rawInput,
      argv: [run.program, ...run.args],
      envNames: Object.keys(env).filter((name) => !isAgentMarker(name, env[name]!)),
    };
    const allowed = await untilAborted(this.deps.authorize(ctx, sessionId, description), ctx.signal);
    if (ctx.signal.aborted) throw acpRequestError().requestCancelled();
    if (!allowed) {
      this.deps.log.info('terminal', 'the user declined a command', { sessionId, commandLine });
      throw acpRequestError().internalError(undefined, `The user declined to run "${commandLine}".`);
    }
    // The session may have ended (tab closed) while the user was deciding.
    if (this.isDisposed || this.deps.lookupSession(ctx.actorKey, sessionId)?.tabId !== session.tabId) {
      throw acpRequestError().invalidParams(undefined, `Session ${sessionId} ended before "${commandLine}" could run.`);
    }

    const terminalId = `term-${randomUUID()}`;
    let running: RunningCommand;
    try {
      running = await RunningCommand.start(
        {
          terminalId,
          actorKey: ctx.actorKey,
          sessionId,
          tabId: session.tabId,
          command: run.program,
          args: run.args,
          commandLine,
          cwd,
          env,
          outputByteLimit: Math.min(Math.floor(limit), MAX_OUTPUT_BYTES),
        },
        this.commandOptions,
      );
    } catch (e) {
      const message = errorText(e);
      this.deps.log.warn('terminal', 'could not start', { commandLine, cwd, error: message });
      throw acpRequestError().internalError(undefined, `Could not start "${commandLine}": ${message}`);
    }
    if (this.isDisposed || !this.deps.lookupSession(ctx.actorKey, sessionId)) {
      running.release();
      throw acpRequestError().invalidParams(undefined, `Session ${sessionId} ended before "${commandLine}" could run.`);
    }
    this.terminals.set(terminalId, running);
    return { terminalId };
  }

  async output(params: TerminalOutputRequest, ctx: ClientRequestContext): Promise<TerminalOutputResponse> {
    return this.get(params, ctx).snapshot();
  }

  async waitForExit(params: WaitForTerminalExitRequest, ctx: ClientRequestContext): Promise<WaitForTerminalExitResponse> {
    const t = this.get(params, ctx);
    return t.exitStatus ?? untilAborted(t.exited, ctx.signal);
  }

  async kill(params: KillTerminalRequest, ctx: ClientRequestContext): Promise<Record<string, never>> {
    this.get(params, ctx).kill();
    return {};
  }

  async release(params: ReleaseTerminalRequest, ctx: ClientRequestContext): Promise<Record<string, never>> {
    const t = this.get(params, ctx);
    this.terminals.delete(params.terminalId);
    t.release();
    return {};
  }

  /** The session ended (tab closed, restart, process died): kill and forget its terminals. */
  releaseSession(actorKey: string, sessionId: string): void {
    const key = sessionKey(actorKey, sessionId);
    for (const [id, t] of [...this.terminals]) {
      if (sessionKey(t.spec.actorKey, t.spec.sessionId) !== key) continue;
      this.deps.log.info('terminal', 'session ended; releasing', { terminalId: id, sessionId });
      this.terminals.delete(id);
      t.release();
    }
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    for (const t of this.terminals.values()) t.release();
    this.terminals.clear();
  }

  /** Test support: the terminals alive now. */
  list(): { terminalId: string; sessionId: string; commandLine: string; pid: number | undefined; exited: boolean }[] {
    return [...this.terminals.values()].map((t) => ({
      terminalId: t.spec.terminalId,
      sessionId: t.spec.sessionId,
      commandLine: t.spec.commandLine,
      pid: t.pid,
      exited: t.exitStatus !== undefined,
    }));
  }

  private get(params: { sessionId: string; terminalId: string }, ctx: ClientRequestContext): RunningCommand {
    const t = this.terminals.get(params.terminalId);
    if (!t) throw acpRequestError().invalidParams(undefined, `No terminal ${params.terminalId} (it was released, or never existed).`);
    if (t.spec.actorKey !== ctx.actorKey || t.spec.sessionId !== params.sessionId) {
      throw acpRequestError().invalidParams(undefined, `Terminal ${params.terminalId} does not belong to session ${params.sessionId}.`);
    }
    return t;
  }

  private resolveCwd(requested: string, folders: readonly string[], ctx: ClientRequestContext, commandLine: string): string {
    let cwd: string;
    try {
      cwd = confine(requested, [...folders, ...this.deps.allowedFolders()], ALLOWED_FOLDERS);
    } catch (e) {
      if (e instanceof OutsideWorkspaceError) {
        this.deps.log.warn('terminal', 'refused a cwd outside the workspace', {
          requested,
          resolved: e.resolved,
          agent: ctx.agentName,
          commandLine,
        });
        throw acpRequestError().invalidParams(undefined, e.message);
      }
      throw e;
    }
    let isDir = false;
    try {
      isDir = fs.statSync(cwd).isDirectory();
    } catch {
      /* missing */
    }
    if (!isDir) throw acpRequestError().invalidParams(undefined, `The working directory ${cwd} does not exist or is not a folder.`);
    return cwd;
  }
}
