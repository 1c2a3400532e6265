// ElizACP meets the Sparkle component (conductor/components/sparkle/). Sparkle sends its own
// embodiment prompt at the start of every session, marked `_meta.symposium.sparkle = 'embodiment'`;
// ElizACP answers it with one fixed line, so tests (and anyone reading a trace) can tell that turn
// from the user's. Sparkle also appends a marked "please checkpoint" block to every N-th user
// prompt; ElizACP leaves such blocks out of the text it chats about, so a reply never depends on
// how many prompts a session has seen. ELIZACP_EMBODIMENT_DELAY_MS makes the embodiment reply wait
// (cancellably), so tests can catch a user's prompt while Sparkle holds it.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';
import { sleep, type Turn } from './turn-context';

export const EMBODIMENT_REPLY = 'Embodiment received.';

export async function embodimentReply(turn: Turn): Promise<string> {
  const delay = Number(process.env.ELIZACP_EMBODIMENT_DELAY_MS);
  if (Number.isFinite(delay) && delay > 0) await sleep(delay, turn.signal);
  return EMBODIMENT_REPLY;
}

export function isEmbodimentPrompt(request: { _meta?: unknown }): boolean {
  return sparkleMarkOf(request) === 'embodiment';
}

export function withoutSparkleNudges(prompt: readonly ContentBlock[]): ContentBlock[] {
  return prompt.filter((block) => sparkleMarkOf(block) !== 'checkpoint-nudge');
}
