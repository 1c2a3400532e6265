// The `ide-lsp` adapter: IDE operations without an editor. The ide-operations component sends
// `_symposium/ide/*` upstream; an editor that answers them says so in
// `clientCapabilities._meta.symposium.ide` (Symposium for VS Code does). When the editor does not
// (acpx, Zed, the conductor on its own), capability-driven assembly places this adapter between
// it and ide-operations, and it answers those requests itself from real language servers
// (answers.ts), with the same result shapes. It learns each session's folder from `session/new`
// (and load/resume/fork) on the way to the agent; servers are shared by every session of a folder and
// shut down (shutdown, exit, then the process group is killed) when the chain ends.
import { isAbsolute } from 'node:path';
import { isInside, OutsideWorkspaceError } from '../../../src/node/confinement';
import { DEFAULT_SEARCH_BUDGET_MS, SearchError } from '../../../src/node/textSearch';
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import {
  IDE_PROGRESS_METHOD,
  ideCapabilityOf,
  ideOperationOf,
  IdeParamsError,
  ideProgressTokenOf,
  type IdeOperation,
  type IdeProgressParams,
} from '../../../src/protocol/ideOperations';
import { isObject } from '../../../src/protocol/guards';
import { asSessionSetup, createsSession, isSessionSetup, sessionIdOf, sessionRoots } from '../../chain/acpGuards';
import type { Component, ComponentContext, ComponentFactory, Direction, IncomingRequest } from '../../chain/component';
import { LspIde } from './answers';
import { DocumentError } from './documents';
import { DEFAULT_TIMEOUTS } from './lspErrors';
import { BUILTIN_SERVERS, type LanguageServerSpec } from './servers';
import { DEFAULT_SUPERVISOR_OPTIONS, ServerPool, type SupervisorOptions } from './supervisor';
import { errorText } from '../../../src/protocol/errorText';

export interface IdeLspOptions {
  servers: readonly LanguageServerSpec[];
  supervisor: SupervisorOptions;
  diagnosticsWaitMs: number;
  diagnosticsQuietMs: number;
  projectLoadWaitMs: number;
  /** The time a text search's regex may take to match, in all (src/node/textSearch.ts). */
  searchBudgetMs: number;
}

const positive = (raw: string | undefined): number | undefined => {
  const n = Number(raw);
  return raw !== undefined && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
};

/**
 * Defaults, with `SYMPOSIUM_LSP_TIMEOUT_MS` (every request but `initialize`),
 * `SYMPOSIUM_LSP_BACKOFF_MS` (the first restart delay) and `SYMPOSIUM_SEARCH_BUDGET_MS` (a text
 * search's matching time) from the environment; `allowWorkspaceBinaries` from
 * `--allow-workspace-language-servers`.
 */
export function defaultIdeLspOptions(
  servers: readonly LanguageServerSpec[] = BUILTIN_SERVERS,
  env = process.env,
  allowWorkspaceBinaries = false,
): IdeLspOptions {
  const timeout = positive(env.SYMPOSIUM_LSP_TIMEOUT_MS);
  const backoff = positive(env.SYMPOSIUM_LSP_BACKOFF_MS);
  return {
    servers,
    supervisor: {
      ...DEFAULT_SUPERVISOR_OPTIONS,
      allowWorkspaceBinaries,
      ...(backoff ? { backoffBaseMs: backoff } : {}),
      timeouts: timeout ? { ...DEFAULT_TIMEOUTS, request: timeout, workspaceWide: timeout } : DEFAULT_TIMEOUTS,
    },
    diagnosticsWaitMs: 5000,
    diagnosticsQuietMs: 500,
    projectLoadWaitMs: 10_000,
    searchBudgetMs: positive(env.SYMPOSIUM_SEARCH_BUDGET_MS) ?? DEFAULT_SEARCH_BUDGET_MS,
  };
}

/** Errors that are the request's fault (a path outside the folder, a line past the end…). */
const isRequestProblem = (err: unknown): boolean =>
  err instanceof IdeParamsError ||
  err instanceof OutsideWorkspaceError ||
  err instanceof DocumentError ||
  err instanceof SearchError ||
  err instanceof RangeError;

export class IdeLspAdapter implements Component {
  readonly name = 'ide-lsp';
  /** Each session's folders: its cwd first, then the additional directories the agent was given. */
  private readonly rootsBySession = new Map<string, string[]>();
  /** Made at the first request, with the component's logger. */
  private state: { pool: ServerPool; ide: LspIde } | undefined;

  constructor(private readonly options: IdeLspOptions) {}

  /** Sessions set up (their folders), and the IDE requests it answers. */
  wantsRequest(method: string, direction: Direction): boolean {
    return direction === 'toAgent' ? isSessionSetup(method) : ideOperationOf(method) !== undefined;
  }

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    if (request.direction === 'toAgent') return this.learnSession(request, cx);
    const operation = ideOperationOf(request.method);
    if (!operation) return request.forward();
    if (!this.state) {
      const pool = new ServerPool(cx.log, this.options.supervisor);
      this.state = { pool, ide: new LspIde({ ...this.options, pool, log: cx.log }) };
    }
    void this.serve(this.state, operation, request, cx);
  }

  async dispose(): Promise<void> {
    await this.state?.pool.dispose();
  }

  private learnSession(request: IncomingRequest, cx: ComponentContext): void {
    const setup = asSessionSetup(request.method, request.params);
    if (!setup) return request.forward();
    const roots = sessionRoots(setup, cx.info.agentCapabilities);
    if (createsSession(request.method)) {
      // new and fork: the session's id comes with the answer.
      return request.forwardThen(undefined, (outcome) => {
        const id = 'result' in outcome ? sessionIdOf(outcome.result) : undefined;
        if (id !== undefined) this.rootsBySession.set(id, roots);
        return outcome;
      });
    }
    const reopened = sessionIdOf(setup);
    if (reopened !== undefined) this.rootsBySession.set(reopened, roots);
    request.forward();
  }

  private async serve(
    { ide, pool }: { pool: ServerPool; ide: LspIde },
    operation: IdeOperation,
    request: IncomingRequest,
    cx: ComponentContext,
  ): Promise<void> {
    const sessionId = isObject(request.params) ? request.params.sessionId : undefined;
    const roots = typeof sessionId === 'string' ? this.rootsBySession.get(sessionId) : undefined;
    const cwd = roots && folderFor(request.params, roots);
    if (!cwd) return request.fail({ code: ErrorCodes.invalidParams, message: `${request.method}: unknown session ${String(sessionId)}` });
    const started = Date.now();
    const root = ide.realRoot(cwd); // once per request: the progress subscription and the answer both need it
    // While the request waits, what its folder's servers are doing (starting, loading or
    // indexing the project: their `$/progress`) goes back to the tool call's card.
    const token = ideProgressTokenOf(request.params);
    const stopReporting = token
      ? pool.onActivity(root, (a) =>
          cx.notify('toAgent', IDE_PROGRESS_METHOD, {
            token,
            message: `${a.server}: ${a.message}`,
            ...(a.percentage !== undefined ? { percentage: a.percentage } : {}),
            ...(a.finished ? { finished: true as const } : {}),
          } satisfies IdeProgressParams),
        )
      : undefined;
    try {
      const result: unknown = await ide.answer(operation, request.params, cwd, request.signal, root);
      const total = isObject(result) && typeof result.total === 'number' ? result.total : undefined;
      cx.log.debug(`${operation} answered in ${Date.now() - started} ms`, total !== undefined ? { results: total } : undefined);
      request.respond(result);
    } catch (err) {
      const message = errorText(err);
      cx.log.warn(`${operation} failed: ${message}`);
      request.fail({ code: isRequestProblem(err) ? ErrorCodes.invalidParams : ErrorCodes.internalError, message });
    } finally {
      stopReporting?.();
    }
  }
}

/**
 * The session folder a request is answered in: the additional directory that holds the file or
 * folder it names by an absolute path, else the session's cwd. Each folder has its own servers and
 * is the one root its answers are confined to (after following links), as for a session with one.
 */
function folderFor(params: unknown, roots: readonly string[]): string | undefined {
  // A position's file, a file, or a folder to search (src/protocol/ideOperations.ts).
  const named = isObject(params) ? (isObject(params.position) ? params.position.file : (params.file ?? params.path)) : undefined;
  if (typeof named === 'string' && isAbsolute(named)) {
    const holder = roots.slice(1).find((r) => isInside(named, r));
    if (holder) return holder;
  }
  return roots[0];
}

/** Placed only when the editor does not answer IDE operations itself. */
export function ideLspFactory(options: IdeLspOptions = defaultIdeLspOptions()): ComponentFactory {
  return {
    name: 'ide-lsp',
    description:
      'Answers the ide tools (_symposium/ide/*) from language servers it starts, when the editor does not advertise _meta.symposium.ide.',
    kind: 'adapter',
    providedUpstream: (caps) => ideCapabilityOf(caps) !== undefined,
    create: () => new IdeLspAdapter(options),
  };
}
