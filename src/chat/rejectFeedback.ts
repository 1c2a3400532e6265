// The few words a user gives with a rejection ("use the test database instead"). The agent first
// gets the reject option it offered (the approval is never widened); then the words follow as the
// user's next input of the same turn when the agent takes input into a running turn (steering),
// or else go before the text of the session's next prompt. Which of the two happened is what the
// approval card then says. vscode-free.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentPool } from '../agents/agentPool';
import { sessionKey } from '../protocol/sessionKey';
import type { FeedbackDelivery } from '../protocol/webview';

/** How a note waiting for the next prompt reads to the agent: what was rejected, then the user's words. */
export const feedbackNote = (toolTitle: string, text: string): string => `About the tool call I rejected ("${toolTitle}"): ${text}`;

export class RejectFeedback {
  /** Per session, the notes the next prompt carries. */
  private readonly waiting = new Map<string, string[]>();

  constructor(private readonly deps: { log: Log; pool: Pick<AgentPool, 'get'> }) {}

  /**
   * Called once the agent has been answered with the reject option. Steers the words into the
   * running turn when the agent offers that; otherwise (or if it refuses, or no turn runs any more)
   * keeps them for the session's next prompt.
   */
  async deliver(actorKey: string, sessionId: string, toolTitle: string, text: string): Promise<FeedbackDelivery> {
    const actor = this.deps.pool.get(actorKey);
    if (actor?.canSteer) {
      // The SDK writes the permission answer on a later tick: the words must come after it.
      await new Promise((r) => setImmediate(r));
      try {
        const outcome = await actor.steer(sessionId, text);
        this.deps.log.info('permission', 'rejection feedback steered', { sessionId, outcome });
        if (outcome !== 'promptRequired') return 'steered';
      } catch (e) {
        this.deps.log.warn('permission', 'the agent refused the steered feedback; it goes with the next prompt', e);
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
