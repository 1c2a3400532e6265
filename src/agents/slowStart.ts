// A tab whose agent has not started a session after a while is told so, with what runs and what it
// last printed. Otherwise a program that is not an ACP agent (a CLI run without its ACP option),
// one waiting for input or a sign-in in a terminal nobody sees, and a first run still downloading
// all look the same: the prompt, and nothing. The wait goes on (a first `npx` download can take
// minutes); the user decides. Pure, but for the timer.
import { commandLine } from './registry/resolveAgent';
import { parseLogLine } from '../protocol/logLine';
import type { TabId, TabPayload } from '../protocol/webview';

/** How long a new session may take before the tab says so. A real agent starts in 0.1–3 s here. */
export const SLOW_START_NOTICE_MS = 20_000;

/** Runs `notify` if `work` has not settled after `ms`; `work`'s own outcome is returned unchanged. */
export async function noticeIfSlow<T>(work: Promise<T>, ms: number, notify: () => void): Promise<T> {
  const timer = setTimeout(notify, ms);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
  }
}

/** A tab waiting for its agent: where the notice goes, and whether anyone still looks. */
export interface WaitingTab {
  tabId: TabId;
  agent: { name: string; command: string; args: readonly string[] };
  /** How long before the notice (SLOW_START_NOTICE_MS unless given). */
  noticeMs?: number;
  gone(): boolean;
  send(notice: TabPayload): void;
}

/** `work` (a session's start, by `actor`), with the slow-start notice sent to the tab if it takes long. */
export function startWithNotice<T>(work: Promise<T>, actor: StartingAgent, tab: WaitingTab): Promise<T> {
  const ms = tab.noticeMs ?? SLOW_START_NOTICE_MS;
  return noticeIfSlow(work, ms, () => {
    if (!tab.gone()) tab.send(slowStartNotice(tab.tabId, actor, tab.agent, ms));
  });
}

/**
 * The agent's own last lines of stderr, from the conductor's stderr, which relays each as a log line
 * of category `…/agent/stderr`; the conductor's own lines are left out.
 */
export function agentStderrLines(conductorStderr: string, max = 3): string[] {
  return conductorStderr
    .split('\n')
    .flatMap((line) => {
      const parsed = parseLogLine(line);
      return parsed?.category.endsWith('agent/stderr') && parsed.message.trim() ? [parsed.message.trim()] : [];
    })
    .slice(-max);
}

/** What the notice needs of the starting agent process. */
export interface StartingAgent {
  /** `starting` until ACP's initialize is answered. */
  readonly currentState: string;
  /** The conductor's stderr so far (it relays the agent's). */
  stderrText(): string;
}

/** The tab's notice, `waitedMs` into a session that has not started. */
export function slowStartNotice(
  tabId: TabId,
  actor: StartingAgent,
  agent: { name: string; command: string; args: readonly string[] },
  waitedMs: number,
): TabPayload {
  // initialize unanswered: it never spoke ACP; otherwise it did, but session/new is pending.
  const what =
    actor.currentState === 'starting'
      ? 'its process runs but has not answered ACP’s initialize'
      : 'it started but has not answered session/new';
  const output = agentStderrLines(actor.stderrText())
    .map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l))
    .join(' / ');
  const text = [
    `${agent.name} has not started a session after ${Math.round(waitedMs / 1000)} s: ${what}. ` +
      'A first start may still be downloading it, or it may wait for a sign-in; a program that is not an ACP agent ' +
      '(a CLI run without its ACP option) never answers.',
    `It runs: ${commandLine(agent.command, agent.args)}`,
    output ? `It last printed: ${output}` : 'It has printed nothing.',
    'Close this tab to stop it, or fix the agent in symposium.agents.',
  ].join('\n\n');
  return { type: 'tab-notice', tabId, level: 'warning', text, settings: 'user' };
}
