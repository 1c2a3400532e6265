// `--steering`: ElizACP takes extra user input into the turn it is running (`_session/steering`,
// see src/protocol/steering.ts), as Claude's adapter does. What arrives while a turn runs is kept
// in the session's inbox and answered at the end of that turn; with no turn running the agent
// answers `promptRequired` and leaves the text to the client. A rejected permission waits a moment
// for such input, as an agent reading the rejection would, so a client's "reject with feedback"
// reaches the same turn deterministically.
import * as acp from '@agentclientprotocol/sdk';
import { promptText } from './hooks';

/** How long a turn whose permission was rejected waits for the user's feedback (bounded: a client may send none). */
export const FEEDBACK_WAIT_MS = 3_000;

export class SteeringInbox {
  private running = 0;
  private readonly messages: string[] = [];
  private wake: (() => void) | undefined;

  /** Marks a turn running for the duration of `fn`. */
  async during<T>(fn: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
    }
  }

  /** Takes the text into the running turn; false when no turn runs. */
  accept(text: string): boolean {
    if (this.running === 0) return false;
    this.messages.push(text);
    this.wake?.();
    return true;
  }

  /** Resolves once some input arrived, after `ms`, or on cancel (never rejects). */
  waitForInput(ms: number, signal: AbortSignal): Promise<void> {
    if (this.messages.length > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  /** The input taken in so far, emptied. */
  drain(): string[] {
    return this.messages.splice(0);
  }
}

/** Checks the request's params as Claude's adapter does (a session id and a non-empty prompt). */
export function parseSteering(params: unknown): { sessionId: string; text: string } {
  const p = params as { sessionId?: unknown; prompt?: unknown } | null;
  if (!p || typeof p.sessionId !== 'string' || p.sessionId === '' || !Array.isArray(p.prompt) || p.prompt.length === 0)
    throw acp.RequestError.invalidParams(undefined, 'steering needs a sessionId and a non-empty prompt');
  return { sessionId: p.sessionId, text: promptText(p.prompt as acp.ContentBlock[]) };
}

/** What a turn says about the input it took in, after its own reply. */
export function steeredReply(messages: readonly string[]): string {
  return messages.map((m) => `\n\nYou said while I was working: "${m}".`).join('');
}
