// Hooks that report session state the way agents do outside a reply: the context window's use and
// the session's cost (`usage_update`), and a boolean config option (`offer a toggle`). The raw
// form writes a `usage_update` exactly as given, past the SDK (which would refuse a malformed one),
// so clients can be tested with what a faulty agent sends.
import type * as acp from '@agentclientprotocol/sdk';
import { sendUpdate } from './turn-context';
import type { Turn } from './turn-context';

export async function usageHook(
  turn: Turn,
  usage: { used: number; size: number; cost?: { amount: number; currency: string } },
): Promise<string> {
  await sendUpdate(turn, { sessionUpdate: 'usage_update', ...usage });
  return `Reported usage: ${JSON.stringify(usage)}.`;
}

export async function rawUsageHook(turn: Turn, json: string): Promise<string> {
  let fields: unknown;
  try {
    fields = JSON.parse(json);
  } catch (err) {
    return `Invalid JSON for the usage: ${err instanceof Error ? err.message : String(err)}`;
  }
  const update = { ...(fields as object), sessionUpdate: 'usage_update' };
  const line = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: turn.session.id, update } };
  // Straight onto the protocol stream: the SDK checks what it sends, and this is meant to be wrong.
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return `Reported raw usage: ${JSON.stringify(fields)}.`;
}

export async function offerToggleHook(turn: Turn): Promise<string> {
  // ACP: boolean options go only to clients that advertise `session.configOptions.boolean`.
  if (turn.clientCapabilities?.session?.configOptions?.boolean == null)
    return 'Your client does not take boolean config options (session.configOptions.boolean).';
  turn.session.brief ??= false;
  const update: acp.SessionUpdate = { sessionUpdate: 'config_option_update', configOptions: turn.session.configOptions() };
  await sendUpdate(turn, update);
  return 'I added the toggle "Brief replies" (off).';
}

/** What `what mode` adds once the session has the toggle. */
export const toggleState = (turn: Turn): string =>
  turn.session.brief === undefined ? '' : ` Brief replies: ${turn.session.brief ? 'on' : 'off'}.`;
