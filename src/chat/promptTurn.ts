// One prompt from a tab, from its turn in the tab's queue to the agent and back. The chat controller
// queues prompts (one at a time per tab) and owns the session; this module runs a prompt when its
// turn comes: refused in a past conversation nobody continued and in a tab without a session; the
// content sent (the typed text, the @-mentions resolved as the agent's prompt capabilities allow, a
// continued past conversation's transcript); the turn marked running for the session directory and
// the permission broker; how it ended told to the tab. vscode-free.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentPool } from '../agents/agentPool';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { ContextRef, MessageId, TabId, TabPayload } from '../protocol/webview';
import type { ChatControllerDeps } from './chatControllerDeps';
import { newActiveTurn, type ChatTab } from './chatTab';
import { pastPromptRefusal, takePastTranscript } from './pastConversationTabs';
import type { SessionDirectory } from './sessionDirectory';
import { isAuthRequired, noSignInMethodText, type SignInFlow } from './signIn';
import { AGENT_NOT_RUNNING, promptFailureText, SIGN_IN_FIRST } from './tabFailures';
import type { TabMessages } from './tabMessages';
import type { RejectFeedback } from './rejectFeedback';

/** A prompt as the user sent it: what they typed and what they attached with `@`. */
export interface UserPrompt {
  messageId: MessageId;
  text: string;
  context: ContextRef[];
}

export interface PromptTurnDeps {
  log: Log;
  messages: Pick<TabMessages, 'send'>;
  sessions: Pick<SessionDirectory, 'sessionFor' | 'startTurn' | 'endTurn'>;
  pool: Pick<AgentPool, 'get'>;
  permissions: Pick<PermissionBroker, 'endTurn'>;
  resolveContext?: ChatControllerDeps['resolveContext'];
  /** A prompt the agent refused until the user signs in turns into a sign-in card. */
  signIn: Pick<SignInFlow, 'offer' | 'waitingFor'>;
  /** Words given with a rejection that wait for the session's next prompt. */
  feedback?: Pick<RejectFeedback, 'take'>;
  /** A checkpoint of the session's folders as each prompt starts, the changes card when it ends. */
  checkpoints?: TurnCheckpointHooks;
}

export interface TurnCheckpointHooks {
  /** Resolves once the tab's last turn is recorded: its card lists none of the next turn's changes. */
  lastTurnRecorded?(tabId: TabId): Promise<void>;
  /** Must not wait for the snapshot: the prompt goes to the agent at once. */
  turnStarted(tabId: TabId, messageId: MessageId): void;
  turnEnded(tabId: TabId, messageId: MessageId): unknown;
}

/**
 * The prompt-started echo: the one place a prompt appears in the tab (the webview does not draw it
 * itself). Pure.
 */
export function promptStarted(tabId: TabId, p: UserPrompt): TabPayload {
  return {
    type: 'prompt-started',
    tabId,
    messageId: p.messageId,
    text: p.text,
    ...(p.context.length ? { attachments: p.context.map((c) => c.name) } : {}),
  };
}

/**
 * What the agent is sent: a continued conversation's transcript, the notes left by rejections with
 * feedback, the typed text (if any), then the attachments. Pure.
 */
export function promptContent(
  transcript: ContentBlock[],
  text: string,
  attached: ContentBlock[],
  notes: ContentBlock[] = [],
): ContentBlock[] {
  return [...transcript, ...notes, ...(text.trim() ? [{ type: 'text' as const, text }] : []), ...attached];
}

/**
 * Runs one prompt in the tab's session, once the prompts before it are done. `echoed`: the echo
 * was sent when the prompt arrived (the tab was idle); otherwise it is sent now, so the webview
 * shows it below the previous answer.
 */
export async function runPromptTurn(deps: PromptTurnDeps, tab: ChatTab, p: UserPrompt, echoed: boolean): Promise<void> {
  if (tab.closed) return;
  const send = (payload: TabPayload): void => deps.messages.send(payload);
  const { tabId } = tab;
  const { messageId, text, context } = p;
  if (!echoed) send(promptStarted(tabId, p));
  const refusal = pastPromptRefusal(tab);
  if (refusal) {
    send({ type: 'prompt-failed', tabId, messageId, error: refusal });
    return;
  }
  const ref = deps.sessions.sessionFor(tabId);
  const actor = ref && deps.pool.get(ref.actorKey);
  if (!ref || !actor) {
    // No session because the agent waits for a sign-in: say that, not "not running".
    const error = deps.signIn.waitingFor(tabId) ? SIGN_IN_FIRST : AGENT_NOT_RUNNING;
    send({ type: 'prompt-failed', tabId, messageId, error });
    return;
  }
  tab.active = newActiveTurn(messageId, actor, ref.sessionId);
  deps.sessions.startTurn(tabId, messageId);
  deps.checkpoints?.turnStarted(tabId, messageId);
  try {
    const attached =
      context.length && deps.resolveContext && tab.config
        ? await deps.resolveContext(context, actor.promptCapabilities, tab.config.workspaceFolder, text)
        : [];
    // A past conversation continued in a new session: its transcript goes with the first prompt.
    const transcript = takePastTranscript(tab, !!actor.promptCapabilities.embeddedContext);
    const notes = deps.feedback?.take(ref.actorKey, ref.sessionId) ?? [];
    const stopReason = await actor.prompt(ref.sessionId, promptContent(transcript, text, attached, notes));
    deps.log.info('prompt', 'ended', { tabId, messageId, stopReason });
    send({ type: 'prompt-ended', tabId, messageId, stopReason });
  } catch (e) {
    const authNeeded = isAuthRequired(e, actor) && tab.config !== undefined;
    const offered = authNeeded && deps.signIn.offer(tabId, actor, tab.config!.agent, e);
    const error = authNeeded && !offered ? `${promptFailureText(e)}. ${noSignInMethodText(actor.agentName)}` : promptFailureText(e);
    deps.log.warn('prompt', 'failed', { tabId, messageId, error });
    send({ type: 'prompt-failed', tabId, messageId, error });
  } finally {
    tab.active?.hear();
    tab.active = undefined;
    deps.sessions.endTurn(tabId);
    void deps.checkpoints?.turnEnded(tabId, messageId);
    // Approved commands the agent did not run in this turn do not carry over to the next.
    deps.permissions.endTurn(ref.actorKey, ref.sessionId);
  }
}
