// Steering a running prompt turn: extra user input the agent takes into the turn it is working on
// instead of a new `session/prompt` queued behind it. Not in ACP's schema: the Claude and Codex
// adapters agreed on the extension request `_session/steering {sessionId, prompt, _meta}`,
// advertised as `_meta.steering.supported` at the top of the initialize answer. With
// `_meta.steering.idleBehavior: "promptRequired"` an agent with no turn running answers
// `promptRequired` and leaves the text to the client (without it, it would start a turn of its
// own the client does not wait on). Pure.

export const STEERING_METHOD = '_session/steering';

/** What the agent did with the text: took it into the running turn, or left it to a prompt. */
export type SteeringOutcome = 'injected' | 'startedNewTurn' | 'promptRequired';

/** The initialize answer advertises steering (`_meta.steering.supported: true`). */
export function advertisesSteering(initializeResult: unknown): boolean {
  const meta = isObject(initializeResult) ? initializeResult._meta : undefined;
  const steering = isObject(meta) ? meta.steering : undefined;
  return isObject(steering) && steering.supported === true;
}

/** The params of one steering request; the text is the user's, as one text block. */
export function steeringParams(sessionId: string, text: string): Record<string, unknown> {
  return { sessionId, prompt: [{ type: 'text', text }], _meta: { steering: { idleBehavior: 'promptRequired' } } };
}

/** The outcome an agent answered, or undefined when the answer is not one we know. */
export function steeringOutcome(result: unknown): SteeringOutcome | undefined {
  const outcome = isObject(result) ? result.outcome : undefined;
  return outcome === 'injected' || outcome === 'startedNewTurn' || outcome === 'promptRequired' ? outcome : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
