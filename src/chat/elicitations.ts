// The agent asks the user for input (ACP elicitation/create): a promise the agent waits on while
// its card waits in the session's tab, like an approval. A form is answered `accept` with content
// checked against its schema (values that do not fit are refused with a notice and the card stays),
// or `decline` / `cancel`. A URL card opens its URL only when the user clicks (the URL the agent
// sent, never one from the webview) and answers `accept`; the agent's elicitation/complete then
// closes it. What cannot be shown (a malformed schema, a URL that is not http(s)) is refused with
// an error the agent reads and a notice in the tab; a request for no tab is cancelled: never a hang.
// Stop, closing the tab, a restart or the agent withdrawing answer `cancel`. vscode-free.
import { randomUUID } from 'node:crypto';
import type { CreateElicitationRequest, CreateElicitationResponse } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import { contentFromValues, readElicitation, type ElicitationPrompt } from '../protocol/elicitation';
import { sessionKey } from '../protocol/sessionKey';
import type { ElicitationOutcome, MessageId, TabId, TabPayload } from '../protocol/webview';
import type { ClientRequestContext, ElicitationHandlers } from '../agents/clientHandlers';
import { acpRequestError } from '../agents/acpSdk';

export interface ElicitationDeps {
  log: Log;
  /** The tab showing this session, and the prompt turn running there. */
  tabFor(actorKey: string, sessionId: string): { tabId: TabId; messageId?: MessageId } | undefined;
  post(payload: TabPayload): void;
  /** Opens a web address outside the editor (VS Code asks before sites the user has not trusted). */
  openExternal(url: string): Promise<void>;
}

interface Pending {
  requestId: string;
  tabId: TabId;
  messageId?: MessageId;
  actorKey: string;
  prompt: ElicitationPrompt;
  finish(response: CreateElicitationResponse, shown: ElicitationOutcome): void;
}

export class Elicitations implements ElicitationHandlers {
  private readonly pending = new Map<string, Pending>();
  /** URL cards the user opened, by session and elicitationId, until the agent says it is complete. */
  private readonly opened = new Map<string, { tabId: TabId; messageId?: MessageId; requestId: string }>();

  constructor(private readonly deps: ElicitationDeps) {}

  create(params: CreateElicitationRequest, ctx: ClientRequestContext): Promise<CreateElicitationResponse> {
    const read = readElicitation(params);
    const scope = read.scope && 'sessionId' in read.scope ? read.scope : undefined;
    const target = scope && this.deps.tabFor(ctx.actorKey, scope.sessionId);
    if (!read.ok) {
      this.deps.log.warn('elicitation', 'refused a request the chat cannot show', { agent: ctx.agentName, error: read.error });
      if (target)
        this.deps.post({
          type: 'tab-notice',
          tabId: target.tabId,
          level: 'warning',
          text: `The agent asked for input the chat cannot show: ${read.error}.`,
        });
      return Promise.reject(acpRequestError().invalidParams(undefined, `Symposium cannot show this elicitation: ${read.error}`));
    }
    if (!target || ctx.signal.aborted) {
      this.deps.log.warn('elicitation', 'no chat tab shows the request; cancelled', { agent: ctx.agentName, scope: read.scope });
      return Promise.resolve({ action: 'cancel' });
    }
    return new Promise((resolve) => {
      const requestId = randomUUID();
      const onAbort = (): void =>
        this.settle(requestId, { action: 'cancel' }, { action: 'cancel', reason: 'the agent withdrew the request' });
      const pending: Pending = {
        requestId,
        ...target,
        actorKey: ctx.actorKey,
        prompt: read.prompt,
        finish: (response, shown) => {
          ctx.signal.removeEventListener('abort', onAbort);
          this.deps.post({ type: 'elicitation-resolved', ...target, requestId, outcome: shown });
          resolve(response);
        },
      };
      this.pending.set(requestId, pending);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      this.deps.log.info('elicitation', 'asking the user', { requestId, tabId: target.tabId, mode: read.prompt.mode });
      this.deps.post({
        type: 'elicitation-requested',
        ...target,
        requestId,
        prompt: read.prompt,
        ...(scope?.toolCallId ? { toolCallId: scope.toolCallId } : {}),
      });
    });
  }

  complete(params: { elicitationId: string }, ctx: { actorKey: string }): void {
    const key = sessionKeyOf(ctx.actorKey, params.elicitationId);
    const card = this.opened.get(key);
    if (card) {
      this.opened.delete(key);
      this.deps.post({ type: 'elicitation-resolved', ...card, outcome: { action: 'completed' } });
      return;
    }
    // Completed before the user opened it: nothing is left to ask.
    for (const p of this.pending.values())
      if (p.actorKey === ctx.actorKey && p.prompt.mode === 'url' && p.prompt.elicitationId === params.elicitationId)
        this.settle(p.requestId, { action: 'cancel' }, { action: 'completed' });
  }

  /** The user clicked on a card. Returns an error text when the answer cannot be applied. */
  answer(
    tabId: TabId,
    requestId: string,
    action: 'accept' | 'decline' | 'cancel' | 'open',
    values: Record<string, string> = {},
  ): string | undefined {
    const p = this.pending.get(requestId);
    if (!p || p.tabId !== tabId) {
      // Cancel on an opened URL card: the agent has its answer; the card stops waiting.
      const opened = [...this.opened.entries()].find(([, c]) => c.requestId === requestId && c.tabId === tabId);
      if (opened && action === 'cancel') {
        this.opened.delete(opened[0]);
        this.deps.post({ type: 'elicitation-resolved', ...opened[1], outcome: { action: 'cancel' } });
        return undefined;
      }
      return 'This request for input is no longer pending.';
    }
    if (action === 'decline' || action === 'cancel') {
      this.settle(requestId, { action }, { action });
      return undefined;
    }
    if (p.prompt.mode === 'url') {
      if (action !== 'open') return 'This card opens a web page; it has no form to submit.';
      const { url, elicitationId } = p.prompt;
      this.opened.set(sessionKeyOf(p.actorKey, elicitationId), { tabId, ...(p.messageId ? { messageId: p.messageId } : {}), requestId });
      void this.deps.openExternal(url).catch((e: unknown) => this.deps.log.warn('elicitation', 'could not open the URL', e));
      this.settle(requestId, { action: 'accept' }, { action: 'opened' });
      return undefined;
    }
    if (action !== 'accept') return 'This card is a form; it opens nothing.';
    const checked = contentFromValues(p.prompt.form, values);
    if (!checked.ok) return `Not sent: ${checked.errors.join(' ')}`;
    this.settle(requestId, { action: 'accept', content: checked.content }, { action: 'accept' });
    return undefined;
  }

  /** Stop or closing the tab: every pending request of the tab is answered `cancel`. */
  cancelTab(tabId: TabId, reason: string): void {
    for (const p of [...this.pending.values()])
      if (p.tabId === tabId) this.settle(p.requestId, { action: 'cancel' }, { action: 'cancel', reason });
  }

  /** The agent process went away or restarts. */
  cancelActor(actorKey: string, reason: string): void {
    for (const p of [...this.pending.values()])
      if (p.actorKey === actorKey) this.settle(p.requestId, { action: 'cancel' }, { action: 'cancel', reason });
  }

  /** Test support: the open requests of a tab. */
  pendingFor(tabId: TabId): { requestId: string; mode: string }[] {
    return [...this.pending.values()].filter((p) => p.tabId === tabId).map((p) => ({ requestId: p.requestId, mode: p.prompt.mode }));
  }

  dispose(): void {
    for (const p of [...this.pending.values()])
      this.settle(p.requestId, { action: 'cancel' }, { action: 'cancel', reason: 'the extension is shutting down' });
  }

  private settle(requestId: string, response: CreateElicitationResponse, shown: ElicitationOutcome): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    this.deps.log.info('elicitation', 'answered', { requestId, action: response.action });
    p.finish(response, shown);
  }
}

const sessionKeyOf = (actorKey: string, elicitationId: string): string => sessionKey(actorKey, `elicitation:${elicitationId}`);
