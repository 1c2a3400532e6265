// The Rust crate sources component. Injects the
// user-facing MCP server `rust-crate-sources` (tool rust_crate_query) into every user session.
// A query opens a research session on the same agent (see research.ts). This component keeps
// research traffic out of the user's chat: updates from research sessions are not forwarded,
// their permission requests are answered here by a read-only rule (researchPolicy.ts: reads
// inside the located crate sources are approved, everything else refused), and their file reads
// are served here, read-only and confined to the crate sources they located. Everything else
// passes through untouched.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { loadServerKit } from '../../mcp/serverKit';
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { asCancel, asPrompt, asReadTextFile, asRequestPermission, paramsProblem, sessionIdOf } from '../../chain/acpGuards';
import type {
  Component,
  ComponentContext,
  ComponentFactory,
  Direction,
  IncomingNotification,
  IncomingRequest,
  McpSessionInfo,
} from '../../chain/component';
import { CONDUCTOR_VERSION } from '../../version';
import { readLines } from '../../../src/node/textFiles';
import { confine } from '../../../src/node/confinement';
import { SessionMcpServers } from '../sessionMcp';
import { ToolProgress } from '../toolProgress';
import { defaultLocatorConfig, type LocatorConfig } from './locate';
import { DEFAULT_REGISTRY } from './registry';
import { ResearchSession, runResearch } from './research';
import { decideResearchPermission } from './researchPolicy';
import { EndedSessions } from './endedSessions';
import { errorText } from '../../../src/protocol/errorText';

export interface CrateSourcesOptions {
  locator: LocatorConfig;
  researchTimeoutMs: number;
}

export function defaultCrateSourcesOptions(): CrateSourcesOptions {
  return {
    locator: defaultLocatorConfig(DEFAULT_REGISTRY),
    researchTimeoutMs: Number(process.env.SYMPOSIUM_RESEARCH_TIMEOUT_MS ?? 300_000),
  };
}

export class CrateSources implements Component {
  readonly name = 'crate-sources';
  private cx: ComponentContext | undefined;
  private readonly research = new Map<string, ResearchSession>();
  /** Research sessions that ended; their late messages are still kept from the user's chat, for a while. */
  private readonly ended = new EndedSessions();
  /** Per user session: aborted when that session's turn is cancelled. */
  private readonly turnAborts = new Map<string, AbortController>();
  private readonly mcp = new SessionMcpServers([{ name: 'rust-crate-sources', create: (s) => this.createUserServer(s) }]);

  constructor(private readonly options: CrateSourcesOptions = defaultCrateSourcesOptions()) {}

  /**
   * Toward the agent: prompts (a turn's abort) and sessions set up and closed; toward the editor,
   * only while research sessions exist (their requests are answered here).
   */
  wantsRequest(method: string, direction: Direction): boolean {
    if (direction === 'toClient') return this.research.size > 0 || this.ended.size > 0;
    return method === 'session/prompt' || SessionMcpServers.wants(method, direction);
  }

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    this.cx = cx;
    if (request.direction === 'toAgent') {
      const prompt = request.method === 'session/prompt' ? asPrompt(request.params) : undefined;
      if (prompt) this.turnAborts.set(prompt.sessionId, new AbortController());
      if (!this.mcp.handle(request, cx)) request.forward();
      return;
    }
    const sessionId = sessionIdOf(request.params);
    const research = sessionId !== undefined ? this.research.get(sessionId) : undefined;
    if (!research) {
      if (sessionId !== undefined && this.ended.has(sessionId))
        return request.fail({ code: ErrorCodes.invalidRequest, message: 'this research session has ended' });
      return request.forward();
    }
    void this.answerResearchRequest(request, research);
  }

  /** A cancel toward the agent; toward the editor, only while research sessions exist (their traffic is dropped). */
  wantsNotification(method: string, direction: Direction): boolean {
    return direction === 'toAgent' ? method === 'session/cancel' : this.research.size > 0 || this.ended.size > 0;
  }

  onNotification(notification: IncomingNotification, cx: ComponentContext): void {
    this.cx = cx;
    const sessionId = sessionIdOf(notification.params);
    if (notification.direction === 'toClient' && sessionId !== undefined && (this.research.has(sessionId) || this.ended.has(sessionId))) {
      return; // research traffic never reaches the user's chat
    }
    const cancelled =
      notification.direction === 'toAgent' && notification.method === 'session/cancel' ? asCancel(notification.params) : undefined;
    if (cancelled) this.turnAborts.get(cancelled.sessionId)?.abort();
    notification.forward();
  }

  async dispose(): Promise<void> {
    for (const r of this.research.values()) r.abort.abort();
    this.ended.clear();
    await this.mcp.dispose();
  }

  private async answerResearchRequest(request: IncomingRequest, research: ResearchSession): Promise<void> {
    const crate = research.request.crateName;
    switch (request.method) {
      case 'session/request_permission': {
        const p = asRequestPermission(request.params);
        if (!p) {
          this.cx?.log.info(
            `research of crate ${crate}: refused a malformed permission request: ${String(paramsProblem(request.method, request.params))}`,
          );
          return request.respond({ outcome: { outcome: 'cancelled' } });
        }
        // Nobody watches a research session: a fixed read-only rule answers (researchPolicy.ts).
        const decision = await decideResearchPermission(p, (path) =>
          this.confineToSources(research, path).then(
            () => true,
            () => false,
          ),
        );
        this.cx?.log.info(
          `research of crate ${crate}: ${decision.approved ? 'approved' : 'refused'} "${String(p.toolCall.title)}": ${decision.reason}`,
        );
        return request.respond({
          outcome: decision.outcome === 'selected' ? { outcome: 'selected', optionId: decision.optionId } : { outcome: 'cancelled' },
        });
      }
      case 'fs/read_text_file': {
        try {
          const p = asReadTextFile(request.params);
          if (!p) throw new Error(paramsProblem(request.method, request.params));
          const file = await this.confineToSources(research, p.path);
          return request.respond({ content: await readLines(file, p.line, p.limit) });
        } catch (err) {
          return request.fail({ code: ErrorCodes.invalidParams, message: errorText(err) });
        }
      }
      default:
        return request.fail({
          code: ErrorCodes.methodNotFound,
          message: `research sessions are read-only: ${request.method} is not available`,
        });
    }
  }

  private async confineToSources(research: ResearchSession, path: string): Promise<string> {
    return confine(path, [...research.readableRoots], { scope: 'the crate sources this research session located' });
  }

  private async createUserServer(session: McpSessionInfo): Promise<McpServer> {
    const { McpServer, z } = await loadServerKit();
    const server = new McpServer({ name: 'rust-crate-sources', version: CONDUCTOR_VERSION });
    server.registerTool(
      'rust_crate_query',
      {
        title: 'Research a Rust crate',
        description:
          'Answers a question about a published Rust crate by having a researcher read its actual source code (examples, tests, implementation). Use it before guessing at a crate API.',
        inputSchema: {
          crate_name: z.string().describe('Name of the crate, e.g. "serde"'),
          crate_version: z
            .string()
            .optional()
            .describe('Cargo version requirement, e.g. "1.0"; defaults to the workspace\'s locked version or the newest'),
          prompt: z.string().describe('What to find out about the crate'),
        },
      },
      async ({ crate_name, crate_version, prompt }, extra) => {
        const cx = this.cx;
        if (!cx) return { isError: true, content: [{ type: 'text', text: 'crate sources component is not ready' }] };
        const callerSessionId = await session.sessionId;
        const turn = this.turnAborts.get(callerSessionId)?.signal;
        const callerSignal = turn ? AbortSignal.any([extra.signal, turn]) : extra.signal;
        const research = new ResearchSession(
          { crateName: crate_name, crateVersion: crate_version, prompt, cwd: session.cwd, callerSessionId },
          this.options.locator,
        );
        // Live progress on the caller's tool card: download, extraction, the research session.
        const progress = new ToolProgress({
          cx,
          sessionId: callerSessionId,
          server: 'rust-crate-sources',
          tool: 'rust_crate_query',
          mcp: { progressToken: extra._meta?.progressToken, sendNotification: (n) => extra.sendNotification(n) },
        });
        research.onLocateProgress = (message, done, total) => progress.report(message, done, total);
        try {
          const findings = await runResearch(research, cx, {
            timeoutMs: this.options.researchTimeoutMs,
            callerSignal,
            register: (r) => void this.research.set(r.sessionId!, r),
            unregister: (r) => {
              this.research.delete(r.sessionId!);
              this.ended.add(r.sessionId!);
            },
            onProgress: (message) => {
              cx.log.info(`rust_crate_query ${crate_name}: ${message}`);
              progress.report(message);
            },
          });
          progress.done();
          return { content: [{ type: 'text', text: findings }] };
        } catch (err) {
          progress.done();
          return {
            isError: true,
            content: [{ type: 'text', text: `rust_crate_query for ${crate_name} failed: ${errorText(err)}` }],
          };
        }
      },
    );
    return server;
  }
}

export const crateSourcesFactory: ComponentFactory = {
  name: 'crate-sources',
  description: 'Injects rust_crate_query: research a published Rust crate through a read-only sub-agent session.',
  kind: 'component',
  create: () => new CrateSources(),
};
