// Tool-use authorization: every ACP session/request_permission becomes a promise the
// agent waits on while the user decides; the extension host never blocks. The broker applies the
// user's rules first (bypass for the agent, auto-approval by tool kind), otherwise shows an approval
// card in the session's tab and waits for the answer, a cancel, the tab closing, or the agent
// withdrawing the request. Every decision is recorded. vscode-free: settings, the tab lookup and
// the webview come in through `PermissionBrokerDeps`.
import { randomUUID } from 'node:crypto';
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import { sessionKey } from '../protocol/sessionKey';
import type { FeedbackDelivery, MessageId, PermissionDecision, PermissionRequested, PermissionResolved, TabId } from '../protocol/webview';
import type { PermissionPolicy } from '../settings/agentSettings';
import { CommandApprovals } from './commandApprovals';
import { KnownToolCalls } from './knownToolCalls';
import { preferredOption } from '../protocol/permissionOptions';

/** One line of the decision log the user can open. */
export interface DecisionRecord {
  time: string;
  agent: string;
  sessionId: string;
  tool: string;
  kind: string;
  decision: PermissionDecision;
}

export interface PermissionBrokerDeps {
  log: Log;
  /** The agent's current permission settings (read per request, so edits apply at once). */
  policyFor(agentName: string): PermissionPolicy;
  /** The tab showing this session, and the prompt turn running there. */
  tabFor(actorKey: string, sessionId: string): { tabId: TabId; messageId?: MessageId } | undefined;
  post(payload: PermissionRequested | PermissionResolved): void;
  /** "Bypass Permissions": persist `bypassPermissions: true` for the agent in user settings. */
  enableBypass(agentName: string): Promise<void>;
  record(entry: DecisionRecord): void;
  /**
   * Delivers the words the user gave with a rejection, once the agent has its answer (see
   * src/chat/rejectFeedback.ts); resolves with where they went. Without it, feedback is refused.
   */
  deliverFeedback?(actorKey: string, sessionId: string, toolTitle: string, text: string): Promise<FeedbackDelivery>;
  /** The clock approvals expire by (tests pass a fake one). */
  now?: () => number;
}

/** A command the editor is about to run for the agent (terminal/create). */
export interface CommandDescription {
  /** What the user sees when asked, e.g. "Run: ls -la". */
  title: string;
  rawInput: unknown;
  /** Exactly what is executed (no shell): the command, then its args. */
  argv: string[];
  /**
   * Names of the environment variables the command sets that an approval must have shown: all of
   * them but an agent's own marker (isAgentMarker). Names only: values may be secrets.
   */
  envNames: string[];
}

export interface PermissionRequestContext {
  actorKey: string;
  agentName: string;
  params: RequestPermissionRequest;
  /** Aborted when the agent withdraws the request ($/cancel_request) or the connection ends. */
  signal: AbortSignal;
  /** The editor asks (before running a command), not the agent. */
  fromEditor?: true;
}

interface Pending {
  requestId: string;
  tabId: TabId;
  messageId?: MessageId;
  ctx: PermissionRequestContext;
  finish: (decision: PermissionDecision) => void;
  /** Answered with feedback that is on its way: no second answer. */
  answered?: true;
}

/** What a test or the UI can see of an open request. */
export interface PendingPermission {
  requestId: string;
  tabId: TabId;
  title: string;
  kind: string;
  options: PermissionOption[];
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/** The options offered when the editor itself asks (e.g. before running a command). */
const EDITOR_OPTIONS: PermissionOption[] = [
  { optionId: 'allow-once', name: 'Run', kind: 'allow_once' },
  { optionId: 'reject-once', name: 'Do not run', kind: 'reject_once' },
];

export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();
  /**
   * Per session, the command lines of the `execute` tool calls the user (or a rule) allowed and no
   * terminal used yet: a terminal running one of them, once, within the turn, is not asked again.
   */
  private readonly approvedCommands: CommandApprovals;
  private readonly knownToolCalls = new KnownToolCalls();

  constructor(private readonly deps: PermissionBrokerDeps) {
    this.approvedCommands = new CommandApprovals(deps.now);
  }

  /** A session's tool_call / tool_call_update: what a later permission request for the call leaves out. */
  noteToolCall(actorKey: string, sessionId: string, update: SessionUpdate): void {
    this.knownToolCalls.record(sessionKey(actorKey, sessionId), update);
  }

  /** Answers one request; the returned promise settles when a decision is made. */
  request(asked: PermissionRequestContext): Promise<RequestPermissionResponse> {
    // The call as its card shows it: what the request leaves out (often the kind) is what the session said before.
    const toolCall = this.knownToolCalls.complete(sessionKey(asked.actorKey, asked.params.sessionId), asked.params.toolCall);
    const ctx = { ...asked, params: { ...asked.params, toolCall } };
    const { params, agentName } = ctx;
    const policy = this.deps.policyFor(agentName);
    for (const p of policy.problems) this.deps.log.warn('permission', p);
    const allow = preferredOption(params.options, 'allow');
    const kind = params.toolCall.kind ?? 'other';
    if (allow && (policy.bypassPermissions || policy.autoApprove.includes(kind))) {
      return Promise.resolve(this.decide(ctx, undefined, selected(allow, policy.bypassPermissions ? 'bypass' : 'auto-approve')));
    }
    const target = this.deps.tabFor(ctx.actorKey, params.sessionId);
    if (!target) {
      // Nobody can answer: refuse rather than leave the agent waiting forever.
      const reject = pickOption(params.options, 'reject_once');
      this.deps.log.warn('permission', 'request for a session without a tab; rejected', {
        agentName,
        sessionId: params.sessionId,
        title: params.toolCall.title,
      });
      return Promise.resolve(
        this.decide(
          ctx,
          undefined,
          reject ? selected(reject, 'user') : { outcome: 'cancelled', reason: 'no chat tab shows this session' },
          reject ? 'no chat tab shows this session' : undefined,
        ),
      );
    }
    if (ctx.signal.aborted)
      return Promise.resolve(this.decide(ctx, undefined, { outcome: 'cancelled', reason: 'the agent withdrew the request' }));
    return new Promise((resolve) => {
      const requestId = randomUUID();
      const onAbort = (): void => this.settle(requestId, { outcome: 'cancelled', reason: 'the agent withdrew the request' });
      const pending: Pending = {
        requestId,
        tabId: target.tabId,
        messageId: target.messageId,
        ctx,
        finish: (decision) => {
          ctx.signal.removeEventListener('abort', onAbort);
          resolve(this.decide(ctx, pending, decision));
        },
      };
      this.pending.set(requestId, pending);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      this.deps.log.info('permission', 'asking the user', {
        requestId,
        tabId: target.tabId,
        agentName,
        title: params.toolCall.title,
        kind,
      });
      this.postRequested(target, requestId, params);
    });
  }

  /**
   * Before a command runs in a terminal: allowed without asking when an `execute` tool call the
   * user approved in this prompt turn showed exactly this command (each approval covers one
   * terminal; see commandApprovals.ts), or when the agent's rules allow it; otherwise the user
   * sees the command line, cwd and env names.
   */
  async authorizeCommand(
    ctx: Omit<PermissionRequestContext, 'params'>,
    sessionId: string,
    description: CommandDescription,
  ): Promise<boolean> {
    const covering = this.approvedCommands.take(sessionKey(ctx.actorKey, sessionId), description.argv, description.envNames);
    if (covering !== undefined) {
      this.deps.log.info('permission', 'command covered by an approved execute tool call', {
        sessionId,
        title: description.title,
        approved: covering,
      });
      return true;
    }
    const toolCallId = `symposium-command-${randomUUID()}`;
    const res = await this.request({
      ...ctx,
      fromEditor: true,
      params: {
        sessionId,
        toolCall: { toolCallId, title: description.title, kind: 'execute', rawInput: description.rawInput },
        options: EDITOR_OPTIONS,
      },
    });
    return res.outcome.outcome === 'selected' && res.outcome.optionId === 'allow-once';
  }

  /**
   * The user clicked on a card. Returns an error text when the answer cannot be applied. Feedback
   * goes only with a reject option: words never turn a rejection into anything else, nor ride on
   * an approval.
   */
  answer(tabId: TabId, requestId: string, choice: { optionId: string; feedback?: string } | { bypass: true }): string | undefined {
    const p = this.pending.get(requestId);
    if (!p || p.tabId !== tabId || p.answered) return 'This permission request is no longer pending.';
    if ('bypass' in choice) {
      const allow = preferredOption(p.ctx.params.options, 'allow');
      if (!allow) return 'The agent offered no option that allows this tool call.';
      this.settle(requestId, selected(allow, 'bypass'));
      void this.deps
        .enableBypass(p.ctx.agentName)
        .catch((e: unknown) => this.deps.log.error('permission', 'could not save bypassPermissions', e));
      return undefined;
    }
    const option = p.ctx.params.options.find((o) => o.optionId === choice.optionId);
    if (!option) return `The agent did not offer the option "${choice.optionId}".`;
    const feedback = choice.feedback?.trim();
    if (feedback && (!option.kind.startsWith('reject') || !this.deps.deliverFeedback || p.ctx.fromEditor))
      return 'Feedback goes only with a rejection the agent asked for.';
    if (feedback) this.rejectWithFeedback(p, option, feedback);
    else this.settle(requestId, selected(option, 'user'));
    return undefined;
  }

  /**
   * The words go while the request is still open, then the rejection settles it: an agent that
   * steers holds input given during a pending request until that request is answered (Claude's
   * adapter delivers it "later" for exactly this case), so it reads the rejection, then the words,
   * in the same turn. The card then says where they went.
   */
  private rejectWithFeedback(p: Pending, option: PermissionOption, text: string): void {
    p.answered = true;
    const { actorKey, params } = p.ctx;
    void this.deps.deliverFeedback!(actorKey, params.sessionId, params.toolCall.title ?? 'a tool call', text)
      .catch((e: unknown): FeedbackDelivery => {
        this.deps.log.error('permission', 'could not deliver the rejection feedback', e);
        return 'next-prompt';
      })
      .then((delivery) => this.settle(p.requestId, { ...selected(option, 'user'), feedback: { text, delivery } }));
  }

  /** A session ended: nothing it was allowed carries over. */
  forgetSession(actorKey: string, sessionId: string): void {
    this.approvedCommands.clear(sessionKey(actorKey, sessionId));
    this.knownToolCalls.forget(sessionKey(actorKey, sessionId));
  }

  /** A prompt turn ended: approved commands the agent did not run in it expire. */
  endTurn(actorKey: string, sessionId: string): void {
    this.approvedCommands.clear(sessionKey(actorKey, sessionId));
  }

  /** Test support: approved commands not used (or expired) yet. */
  approvedCommandCount(actorKey: string, sessionId: string): number {
    return this.approvedCommands.count(sessionKey(actorKey, sessionId));
  }

  /** session/cancel or the tab closing: every pending request of the tab is answered `cancelled`. */
  cancelTab(tabId: TabId, reason: string): void {
    for (const p of [...this.pending.values()]) if (p.tabId === tabId) this.settle(p.requestId, { outcome: 'cancelled', reason });
  }

  /** The agent process went away or restarts: nobody waits for these answers any more. */
  cancelActor(actorKey: string, reason: string): void {
    for (const p of [...this.pending.values()]) if (p.ctx.actorKey === actorKey) this.settle(p.requestId, { outcome: 'cancelled', reason });
  }

  pendingFor(tabId?: TabId): PendingPermission[] {
    return [...this.pending.values()]
      .filter((p) => tabId === undefined || p.tabId === tabId)
      .map((p) => ({
        requestId: p.requestId,
        tabId: p.tabId,
        title: p.ctx.params.toolCall.title ?? '',
        kind: p.ctx.params.toolCall.kind ?? 'other',
        options: p.ctx.params.options,
      }));
  }

  dispose(): void {
    for (const p of [...this.pending.values()])
      this.settle(p.requestId, { outcome: 'cancelled', reason: 'the extension is shutting down' });
  }

  private settle(requestId: string, decision: PermissionDecision): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    p.finish(decision);
  }

  /** Shows the approval card for a request in its tab (answered later, or at once by a rule). */
  private postRequested(target: { tabId: TabId; messageId?: MessageId }, requestId: string, params: RequestPermissionRequest): void {
    this.deps.post({
      type: 'permission-requested',
      tabId: target.tabId,
      messageId: target.messageId,
      requestId,
      toolCall: params.toolCall,
      options: params.options,
    });
  }

  /** Records and announces a decision; returns the ACP response for it. */
  private decide(
    ctx: PermissionRequestContext,
    pending: Pending | undefined,
    decision: PermissionDecision,
    note?: string,
  ): RequestPermissionResponse {
    const { params, agentName } = ctx;
    const entry: DecisionRecord = {
      time: new Date().toISOString(),
      agent: agentName,
      sessionId: params.sessionId,
      tool: params.toolCall.title ?? params.toolCall.toolCallId,
      kind: params.toolCall.kind ?? 'other',
      decision,
    };
    this.deps.record(entry);
    // An `execute` call the agent got allowed covers the command it showed, once.
    if (!ctx.fromEditor && entry.kind === 'execute' && decision.outcome === 'selected' && decision.optionKind.startsWith('allow')) {
      if (!this.approvedCommands.add(sessionKey(ctx.actorKey, params.sessionId), params.toolCall)) {
        this.deps.log.info(
          'permission',
          'approved execute tool call shows no one command (title and parameters differ, or neither names one); its terminal will ask',
          {
            title: params.toolCall.title,
          },
        );
      }
    }
    this.deps.log.info('permission', 'decided', { ...entry, note });
    // Auto-decisions are shown too, so the user sees what ran without asking.
    const target = pending ?? this.deps.tabFor(ctx.actorKey, params.sessionId);
    if (target) {
      const requestId = pending?.requestId ?? randomUUID();
      if (!pending) this.postRequested(target, requestId, params);
      this.deps.post({ type: 'permission-resolved', tabId: target.tabId, messageId: target.messageId, requestId, decision });
    }
    return decision.outcome === 'selected' ? { outcome: { outcome: 'selected', optionId: decision.optionId } } : CANCELLED;
  }
}

function pickOption(options: PermissionOption[], kind: PermissionOption['kind']): PermissionOption | undefined {
  return options.find((o) => o.kind === kind);
}

function selected(o: PermissionOption, by: 'user' | 'bypass' | 'auto-approve'): Extract<PermissionDecision, { outcome: 'selected' }> {
  return { outcome: 'selected', optionId: o.optionId, optionName: o.name, optionKind: o.kind, by };
}
