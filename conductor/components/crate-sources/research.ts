// One research session, run by a sub-agent: a fresh ACP session on the same agent, carrying the
// research MCP server (get_rust_crate_source, return_response_to_user), prompted with the user's question wrapped in instructions for a
// read-only researcher. It ends when the researcher returns findings, the prompt ends without
// them, the time limit passes, or the caller is cancelled — and is always cleaned up. The session
// is marked as research in `session/new` `_meta` (so no other component serves it the user's
// files) and put in the agent's read-only mode where the agent has one. The crate is located
// first, and the session starts in its folder: an agent's own tools act where its session is, so
// a session in the user's workspace would search the workspace with any path-less request.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { loadServerKit } from '../../mcp/serverKit';
import { sessionIdOf } from '../../chain/acpGuards';
import type { ComponentContext, McpInjection } from '../../chain/component';
import { isObject } from '../../../src/protocol/guards';
import { CONDUCTOR_VERSION } from '../../version';
import { withResearchSessionMeta } from '../../../src/protocol/symposium-ext';
import { locateCrate, type CrateSource, type LocateProgress, type LocatorConfig } from './locate';
import { readOnlySwitch } from './researchPolicy';
import { errorText } from '../../../src/protocol/errorText';

export interface ResearchRequest {
  crateName: string;
  crateVersion?: string;
  prompt: string;
  cwd: string;
  callerSessionId: string;
}

export class ResearchError extends Error {}

export function researchPrompt(r: ResearchRequest): string {
  return [
    '<agent_instructions>',
    'You are a researcher answering a question about a published Rust crate for another agent.',
    `1. Call the tool get_rust_crate_source with crate_name "${r.crateName}"${r.crateVersion ? ` and version "${r.crateVersion}"` : ''} to get the path of its source code.`,
    '2. Read the files under that path (examples, tests, and the implementation) to answer the question precisely, with signatures and short code excerpts.',
    '3. Call return_response_to_user exactly once with your complete answer. Nobody sees anything else you write.',
    'You are read-only: do NOT edit, create or delete files and do NOT run commands.',
    '</agent_instructions>',
    `<research_prompt crate_name="${r.crateName}"${r.crateVersion ? ` crate_version="${r.crateVersion}"` : ''}>`,
    r.prompt,
    '</research_prompt>',
  ].join('\n');
}

/** State shared between the component's routing, the research MCP tools, and the waiting call. */
export class ResearchSession {
  sessionId: string | undefined;
  /** Source trees the researcher may read (added by get_rust_crate_source). */
  readonly readableRoots = new Set<string>();
  readonly abort = new AbortController();
  private resolveFindings!: (text: string) => void;
  readonly findings: Promise<string>;
  /** Download and extraction progress of the crate sources the researcher asks for (the caller's card shows it). */
  onLocateProgress: LocateProgress | undefined;

  constructor(
    readonly request: ResearchRequest,
    private readonly locator: LocatorConfig,
  ) {
    this.findings = new Promise((resolve) => (this.resolveFindings = resolve));
  }

  /**
   * Finds (or fetches) a crate's sources, the version the user's workspace locks if none is
   * asked for, and lets the researcher read them.
   */
  async locate(crateName: string, version: string | undefined, signal: AbortSignal): Promise<CrateSource> {
    const found = await locateCrate(crateName, version, this.request.cwd, this.locator, signal, this.onLocateProgress);
    this.readableRoots.add(found.checkout_path);
    return found;
  }

  /** The MCP server only this research session sees. */
  async createServer(): Promise<McpServer> {
    const { McpServer, z } = await loadServerKit();
    const server = new McpServer({ name: 'rust-crate-research', version: CONDUCTOR_VERSION });
    server.registerTool(
      'get_rust_crate_source',
      {
        title: 'Get Rust crate source',
        description:
          'Locates (and if needed downloads and extracts) the source of a published Rust crate. Returns {crate_name, version, checkout_path, message}; read files under checkout_path.',
        inputSchema: {
          crate_name: z.string().describe('Crate name, e.g. serde'),
          version: z.string().optional().describe('Cargo version requirement, e.g. "1.0" or "=1.0.152"'),
        },
      },
      async ({ crate_name, version }, extra) => {
        try {
          const found = await this.locate(crate_name, version ?? this.request.crateVersion, extra.signal);
          return { content: [{ type: 'text', text: JSON.stringify(found, null, 2) }], structuredContent: { ...found } };
        } catch (err) {
          return { isError: true, content: [{ type: 'text', text: `get_rust_crate_source failed: ${errorText(err)}` }] };
        }
      },
    );
    server.registerTool(
      'return_response_to_user',
      {
        title: 'Return research findings',
        description: 'Returns your research findings to the agent that asked; this ends the research.',
        inputSchema: { response: z.string().describe('The complete answer') },
      },
      ({ response }) => {
        this.resolveFindings(response);
        return { content: [{ type: 'text', text: 'Response recorded.' }] };
      },
    );
    return server;
  }
}

export interface RunOptions {
  timeoutMs: number;
  register(session: ResearchSession): void;
  unregister(session: ResearchSession): void;
  onProgress(message: string): void;
  /** Aborted when the MCP call is cancelled or the caller's turn is cancelled. */
  callerSignal: AbortSignal;
}

/** Runs one research session to its end and returns the findings (or throws ResearchError). */
export async function runResearch(session: ResearchSession, cx: ComponentContext, options: RunOptions): Promise<string> {
  const { request } = session;
  const onCallerAbort = (): void =>
    session.abort.abort(new ResearchError('the research was cancelled because the calling turn was cancelled'));
  if (options.callerSignal.aborted) onCallerAbort();
  options.callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(
    () =>
      session.abort.abort(
        new ResearchError(`the research did not answer within ${Math.round(options.timeoutMs / 1000)} s and was cancelled`),
      ),
    options.timeoutMs,
  );
  let injection: McpInjection | undefined;
  try {
    let crate: CrateSource;
    try {
      crate = await session.locate(request.crateName, request.crateVersion, session.abort.signal);
    } catch (err) {
      const reason: unknown = session.abort.signal.reason;
      if (session.abort.signal.aborted) throw reason instanceof Error ? reason : err;
      throw new ResearchError(`cannot get the sources of ${request.crateName}: ${errorText(err)}`);
    }
    // The researcher's session works in the crate's folder, never in the user's workspace.
    injection = await cx.injectMcpServers({ cwd: crate.checkout_path, mcpServers: [] }, [
      { name: 'rust-crate-research', create: () => session.createServer() },
    ]);
    const sessionParams = withResearchSessionMeta(injection.params, { crate: request.crateName });
    const created = await cx.request('toAgent', 'session/new', sessionParams, {
      signal: session.abort.signal,
      // Synchronously, so the agent's very next message about this session is already recognised.
      onResponse: (o) => {
        const id = 'result' in o ? sessionIdOf(o.result) : undefined;
        if (id !== undefined) {
          session.sessionId = id;
          options.register(session);
        }
      },
    });
    const sessionId = session.sessionId;
    if (sessionId === undefined) throw new ResearchError('the agent answered session/new without a "sessionId"');
    injection.bind(sessionId);
    await enterReadOnlyMode(cx, sessionId, created, session);
    options.onProgress(`Research session started for crate ${request.crateName}`);
    const prompt = cx.request(
      'toAgent',
      'session/prompt',
      { sessionId, prompt: [{ type: 'text', text: researchPrompt(request) }] },
      { signal: session.abort.signal },
    );
    const aborted = new Promise<never>((_, reject) => {
      const fail = (): void =>
        reject(session.abort.signal.reason instanceof Error ? session.abort.signal.reason : new ResearchError('research cancelled'));
      if (session.abort.signal.aborted) fail();
      session.abort.signal.addEventListener('abort', fail, { once: true });
    });
    const endedWithoutAnswer = prompt.then(
      (r) =>
        Promise.reject(
          new ResearchError(
            `the research session ended (${String(isObject(r) ? r.stopReason : undefined)}) without calling return_response_to_user`,
          ),
        ),
      (err: Error) => Promise.reject(new ResearchError(`the research session failed: ${err.message}`)),
    );
    endedWithoutAnswer.catch(() => undefined);
    aborted.catch(() => undefined);
    const findings = await Promise.race([session.findings, aborted, endedWithoutAnswer]);
    options.onProgress('Research finished');
    return findings;
  } catch (err) {
    if (session.sessionId) cx.notify('toAgent', 'session/cancel', { sessionId: session.sessionId });
    throw err instanceof ResearchError ? err : new ResearchError(errorText(err));
  } finally {
    clearTimeout(timer);
    options.callerSignal.removeEventListener('abort', onCallerAbort);
    if (!session.abort.signal.aborted) session.abort.abort(new ResearchError('research finished'));
    if (session.sessionId) {
      const sessionCapabilities = cx.info.agentCapabilities?.sessionCapabilities;
      if (isObject(sessionCapabilities) && sessionCapabilities.close !== undefined)
        void cx.request('toAgent', 'session/close', { sessionId: session.sessionId }).catch(() => undefined);
      options.unregister(session);
    }
    void injection?.close();
  }
}

/**
 * Where the agent offers a read-only session mode (or a plan mode), the research session runs in
 * it: a second line of defence behind the permission rule. An agent that refuses the switch still
 * gets its research, under the permission rule alone.
 */
async function enterReadOnlyMode(
  cx: ComponentContext,
  sessionId: string,
  sessionNewResult: unknown,
  session: ResearchSession,
): Promise<void> {
  const change = readOnlySwitch(sessionNewResult);
  if (!change) return;
  try {
    await cx.request('toAgent', change.method, { sessionId, ...change.params }, { signal: session.abort.signal });
    cx.log.info(`research session ${sessionId} runs in read-only mode (${change.method} ${JSON.stringify(change.params)})`);
  } catch (err) {
    if (session.abort.signal.aborted) throw err;
    cx.log.warn(`research session ${sessionId}: the agent refused its read-only mode; the permission rule alone applies`, err);
  }
}
