// "Send now (steer)" on the queued prompts' card: where the agent takes input into the turn it is
// running (`_session/steering`), the prompts waiting behind that turn go into it instead of after
// it. They leave the queue first (so the queue cannot also start them); each one the agent took is
// shown in the running turn as the user's message, and one it did not take (the turn ended
// meanwhile, or it refused) goes back to the queue as an ordinary prompt: nothing is lost or sent
// twice. vscode-free.
import type { Log } from '../log/logEvent';
import type { TabPayload } from '../protocol/webview';
import type { ChatTab } from './chatTab';
import type { UserPrompt } from './promptTurn';

export interface SteerDeps {
  log: Log;
  send(payload: TabPayload): void;
  /** Shows the tab's queue again after it changed. */
  sendQueue(tab: ChatTab): void;
  /** Queues a prompt again, as if just sent. */
  requeue(tab: ChatTab, p: UserPrompt): void;
}

/** The tab's waiting prompts for the webview; steerable when the tab's agent takes input into a running turn. Pure. */
export function promptQueue(tab: ChatTab, canSteer: boolean): TabPayload {
  const steerable = canSteer ? { steerable: true as const } : {};
  return { type: 'prompt-queue', tabId: tab.tabId, waiting: tab.waiting.map(({ messageId, text }) => ({ messageId, text, ...steerable })) };
}

export async function steerQueued(deps: SteerDeps, tab: ChatTab): Promise<void> {
  const active = tab.active;
  if (!active?.actor.canSteer || tab.waiting.length === 0) return;
  const prompts = tab.waiting;
  tab.waiting = [];
  deps.sendQueue(tab);
  const steer = async (p: UserPrompt): Promise<string> => {
    try {
      return await active.actor.steer(active.sessionId, p.text);
    } catch (e) {
      deps.log.warn('prompt', 'the agent refused the steered prompt; queued again', e);
      return 'refused';
    }
  };
  for (const p of prompts) {
    // Attachments are not steered: a prompt that has some keeps its place in the queue.
    let outcome = p.context.length > 0 ? 'has-attachments' : await steer(p);
    // "No turn running" before the agent was heard from in this turn: the prompt may still be on
    // its way through the chain, so once the agent speaks (or the turn ends) it is asked again.
    if (outcome === 'promptRequired' && !active.wasHeard) {
      await active.heard;
      if (tab.active === active) outcome = await steer(p);
    }
    deps.log.info('prompt', 'steer', { tabId: tab.tabId, messageId: p.messageId, outcome });
    if (outcome === 'injected' || outcome === 'startedNewTurn')
      deps.send({
        type: 'agent-update',
        tabId: tab.tabId,
        messageId: active.messageId,
        update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: p.text } },
      });
    else deps.requeue(tab, p);
  }
}
