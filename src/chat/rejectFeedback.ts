// The few words a user gives with a rejection ("use the test database instead"). The agent gets
// the reject option it offered (the approval is never widened) and the words as the user's next
// input of the same turn when it takes input into a running turn (steering: sent while the request
// is still open, which such an agent holds until the request is answered); otherwise the words go
// before the text of the session's next prompt. Which of the two happened is what the approval
// card then says. vscode-free.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentPool } from '../agents/agentPool';
import { sessionKey } from '../protocol/sessionKey';
import type { FeedbackDelivery } from '../protocol/webview';

/** How a note waiting for the next prompt reads to the agent: what was rejected, then the user's words. */
export const feedbackNote = (toolTitle: string, text: string): string => `About the tool call I rejected ("${toolTitle}"): ${text}`;

/** How long the rejection waits for the agent to take the words (it answers at once when it can). */
const STEER_ANSWER_MS = 5_000;

export class RejectFeedback {
  /** Per session, the notes the next prompt carries. */
  private readonly waiting = new Map<string, string[]>();

  constructor(private readonly deps: { log: Log; pool: Pick<AgentPool, 'get'> }) {}

  /**
   * Called before the request is answered with the reject option. Steers the words into the running
   * turn when the agent offers that; otherwise (or if it refuses, or does not answer in time) keeps
   * them for the session's next prompt.
   */
  async deliver(actorKey: string, sessionId: string, toolTitle: string, text: string): Promise<FeedbackDelivery> {
    const actor = this.deps.pool.get(actorKey);
    if (actor?.canSteer) {
      let timer: NodeJS.Timeout | undefined;
      // The rejection waits for this answer: an agent that never gives one must not hold it.
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), STEER_ANSWER_MS)));
      try {
        const outcome = await Promise.race([actor.steer(sessionId, text), late]);
        this.deps.log.info('permission', 'rejection feedback steered', { sessionId, outcome });
        if (outcome === 'injected' || outcome === 'startedNewTurn') return 'steered';
      } catch (e) {
        this.deps.log.warn('permission', 'the agent refused the steered feedback; it goes with the next prompt', e);
      } finally {
        clearTimeout(timer);
      }
    }
    const key = sessionKey(actorKey, sessionId);
    this.waiting.set(key, [...(this.waiting.get(key) ?? []), feedbackNote(toolTitle, text)]);
    return 'next-prompt';
  }

  /** The notes for the session's next prompt (emptied), as blocks that go before its text. */
  take(actorKey: string, sessionId: string): ContentBlock[] {
    const key = sessionKey(actorKey, sessionId);
    const notes = this.waiting.get(key) ?? [];
    this.waiting.delete(key);
    return notes.map((text) => ({ type: 'text', text }));
  }

  /** The session ended: its notes go nowhere. */
  forget(actorKey: string, sessionId: string): void {
    this.waiting.delete(sessionKey(actorKey, sessionId));
  }
}
