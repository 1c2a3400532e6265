// "Edit and resend" on an earlier prompt: the files go back as they were before that prompt (the
// user confirms the restore), then the edited prompt runs in another session of the same agent,
// and the tab says which and what the agent remembers. An agent that offers `session/fork` gets
// a fork of the tab's session: it remembers the whole conversation, the turns after that prompt
// included (a fork copies the session as it is now; no agent forks at a past turn). Any other
// agent gets a new session, which remembers nothing. Either way the tab never claims the agent
// forgot what it did not forget.
import type { Log } from '../log/logEvent';
import type { MessageId, SessionControls, TabPayload } from '../protocol/webview';
import type { AgentActor } from '../agents/agentActor';
import { sessionSetup, type AgentConfiguration } from '../agents/agentConfiguration';
import type { AgentPool } from '../agents/agentPool';
import { modeToKeep, type ChatTab } from './chatTab';
import type { ChatControllerDeps } from './chatControllerDeps';
import type { SessionDirectory } from './sessionDirectory';
import { keepMode } from '../agents/sessionMode';

/** What the tab says when the edited prompt runs in a new session (the agent offers no fork). */
export const RESEND_NOTICE =
  'A new session: the agent does not remember the turns after this point (nor, being new, the ones before; the files are as they were before that prompt).';

/** What the tab says when the edited prompt runs in a fork of the tab's session. */
export const RESEND_FORK_NOTICE =
  'A fork of this session: the agent still remembers the turns after this point (a fork copies the whole conversation); the files are as they were before that prompt.';

export interface EditAndResendContext {
  log: Log;
  sessions: SessionDirectory;
  pool: AgentPool;
  checkpoints: ChatControllerDeps['checkpoints'];
  decorateSession: ChatControllerDeps['decorateSession'];
  send(payload: TabPayload): void;
  startSession(tab: ChatTab): Promise<void>;
  bindSession(tab: ChatTab, actor: AgentActor, sessionId: string, controls: SessionControls, config: AgentConfiguration): void;
  /** The tab was closed or the controller disposed meanwhile. */
  gone(tab: ChatTab): boolean;
}

/** Restores the files, then binds the tab to a fork or a new session; false: not sent (the restore was declined). */
export async function prepareResend(cx: EditAndResendContext, tab: ChatTab, resendOf: MessageId, messageId: MessageId): Promise<boolean> {
  const restored = (await cx.checkpoints?.restoreForResend?.(tab.tabId, resendOf)) ?? false;
  if (!restored) {
    cx.send({ type: 'prompt-failed', tabId: tab.tabId, messageId, error: 'Not sent: the files were not restored to before that prompt.' });
    return false;
  }
  const old = cx.sessions.sessionFor(tab.tabId);
  const forked = await forkTabSession(cx, tab);
  if (!forked) await cx.startSession(tab);
  if (old && old.sessionId !== cx.sessions.sessionFor(tab.tabId)?.sessionId) void cx.pool.get(old.actorKey)?.closeSession(old.sessionId);
  cx.send({ type: 'tab-notice', tabId: tab.tabId, level: 'info', text: forked ? RESEND_FORK_NOTICE : RESEND_NOTICE });
  return true;
}

/** Binds the tab to a fork of its session when its agent offers one; false: no fork (a new session follows). */
async function forkTabSession(cx: EditAndResendContext, tab: ChatTab): Promise<boolean> {
  const ref = cx.sessions.sessionFor(tab.tabId);
  const actor = ref && cx.pool.get(ref.actorKey);
  const config = tab.config;
  if (!ref || !actor || !config || actor.currentState !== 'running') return false;
  try {
    if (!(await actor.canForkSession())) return false;
    const wanted = modeToKeep(tab, config.agent.name);
    const fork = await actor.forkSession(ref.sessionId, sessionSetup(config, cx.decorateSession));
    if (cx.gone(tab)) {
      void actor.closeSession(fork.sessionId);
      return true;
    }
    // A fork begins in the agent's default mode (claude-agent-acp's "auto"), not in the tab's.
    const modeWarning = wanted
      ? await keepMode({ actor, sessionId: fork.sessionId, controls: fork.controls, wanted, log: cx.log })
      : undefined;
    cx.bindSession(tab, actor, fork.sessionId, fork.controls, config);
    if (modeWarning) cx.send({ type: 'tab-notice', tabId: tab.tabId, level: 'warning', text: modeWarning });
    return true;
  } catch (e) {
    // A fork the agent refused is no reason to drop the prompt: it runs in a new session, and says so.
    cx.log.warn('session', 'session/fork failed; resending in a new session', e);
    return false;
  }
}
