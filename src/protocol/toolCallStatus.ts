// What a tool call's status is shown as, in the chat's card and in the Markdown export: pure.
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { Turn } from './conversationModel';

/** ACP: a call without a status yet is under way. */
export function statusOf(t: Pick<ToolCallUpdate, 'status'>): 'pending' | 'in_progress' | 'completed' | 'failed' {
  return t.status ?? 'in_progress';
}

/** Where the call's turn is: running, ended by the agent (`end_turn`), or stopped (cancelled, failed, a limit). */
export type TurnPhase = 'running' | 'ended' | 'stopped';

/**
 * What a call's card shows: its status, except for a call still pending or under way when its
 * turn is over — not shown as running forever, with a shimmer the page would keep redrawing. If
 * the turn was stopped (by the user, a crash, a limit), the call was too; if the agent ended its
 * turn itself, the call most likely finished and the agent has not said so yet (Codex reports a
 * command's end after its turn), so the card says only that its turn ended, and a late update
 * still sets its real status.
 */
export function shownStatus(t: Pick<ToolCallUpdate, 'status'>, turn: TurnPhase): ShownStatus {
  const status = statusOf(t);
  if (turn === 'running' || (status !== 'pending' && status !== 'in_progress')) return status;
  return turn === 'ended' ? 'unreported' : 'stopped';
}

/** A call's status as shown: its own, or what became of it with its turn. */
export type ShownStatus = ReturnType<typeof statusOf> | 'stopped' | 'unreported';

/** The phase of `t` for its calls: the agent ending its turn itself is not a stop. */
export function turnPhase(t: Pick<Turn, 'status' | 'stopReason'>): TurnPhase {
  if (t.status === 'running') return 'running';
  return t.status === 'done' && t.stopReason === 'end_turn' ? 'ended' : 'stopped';
}
