// What the chat is told when an agent configuration stops working: one AgentFailure, built from
// the conductor's report (an agent or a proxy of its chain exited) or, when the conductor itself
// died, from how its process ended. Pure; split from agentActor.ts, which decides when to report.
import type { AgentFailure } from '../protocol/webview';
import type { AgentExitedParams, ComponentExitedParams } from '../protocol/symposium-ext';
import type { ExitInfo } from './conductorProcess';

/** Lines of stderr a failure carries (the chat shows them under the message). */
const STDERR_LINES = 12;

/** The conductor's message, without the "Last stderr:" it may end with: the tail is shown apart. */
function reportedMessage(message: string): string | undefined {
  return message
    .split('\n')[0]
    ?.replace(/\s*Last stderr:\s*$/i, '')
    .trim();
}

const lastLines = (text: string): string => text.trim().split('\n').slice(-STDERR_LINES).join('\n');

/** A proxy of the chain exited; the conductor keeps running and refuses everything with this. */
export function chainBrokenFailure(agentName: string, p: ComponentExitedParams): AgentFailure {
  return {
    agentName,
    message: reportedMessage(p.message) || `proxy "${p.component}" exited`,
    exitCode: p.exitCode,
    signal: p.signal,
    stderrTail: lastLines(p.stderrTail),
  };
}

/**
 * The process is gone (or was never started). When the agent died, the conductor reported the
 * agent's own stderr: the better clue. When the conductor itself died, its stderr (which also
 * relays the agent's) is what there is.
 */
export function exitFailure(
  agentName: string,
  exit: { info: ExitInfo | undefined; agentExit: AgentExitedParams | undefined; conductorStderr: string },
  override?: string,
): AgentFailure {
  const { info, agentExit } = exit;
  const how = info?.spawnError
    ? `could not be started: ${info.spawnError}`
    : info?.signal
      ? `was killed by ${info.signal}`
      : info
        ? `exited with code ${String(info.code)}`
        : 'is not running';
  const reported = agentExit ? reportedMessage(agentExit.message) : undefined;
  return {
    agentName,
    message: override ?? (reported || `${agentName} ${how}`),
    exitCode: agentExit ? agentExit.exitCode : (info?.code ?? null),
    signal: agentExit ? agentExit.signal : (info?.signal ?? null),
    stderrTail: lastLines(agentExit?.stderrTail.trim() || exit.conductorStderr),
  };
}
