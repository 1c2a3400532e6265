// What a tab is told when its agent cannot serve it: the failure card when no session starts (no
// folder chosen, the agent process exited, or it refused session/new), the error line of a prompt
// that failed, and the settings its session could not honour. One place for the wording, so every
// path says the same thing. Pure.
import { AgentExitedError } from '../agents/agentEnd';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { AgentFailure, TabPayload } from '../protocol/webview';
import type { ChatTab } from './chatTab';
import { errorText } from '../protocol/errorText';
import { noSignInMethodText } from './signIn';
import { mcpNotice, type AgentMcpTransports } from '../mcp/mcpSummary';

/** The failure card of a tab whose session could not start because no workspace folder was chosen. */
export function noFolderFailure(): AgentFailure {
  return { agentName: 'agent', message: 'No workspace folder chosen for this chat.', exitCode: null, signal: null, stderrTail: '' };
}

/** The failure card of a tab whose session could not start: the process's own account when it exited. */
export function sessionStartFailure(e: unknown, agentName: string, authNeeded = false): AgentFailure {
  if (e instanceof AgentExitedError) return e.failure;
  const message = authNeeded ? `${errorText(e)}. ${noSignInMethodText(agentName)}` : errorText(e);
  return { agentName, message, exitCode: null, signal: null, stderrTail: '' };
}

/** A prompt in a tab whose session is gone (its process stopped and no new one started yet). */
export const AGENT_NOT_RUNNING = 'The agent is not running. Use Restart to start it again.';

/** A prompt in a tab whose session waits for the user to sign in (the tab shows the agent's methods). */
export const SIGN_IN_FIRST = 'The agent wants you to sign in before it starts a session: use the sign-in card above, then send again.';

/** The error line of a prompt that failed; a process that exited mid-turn interrupted it. */
export function promptFailureText(e: unknown): string {
  return e instanceof AgentExitedError ? `Interrupted: ${e.failure.message}` : errorText(e);
}

/** The notices of settings this configuration could not honour that the tab has not shown yet (each once per tab). */
export function newSettingNotices(tab: ChatTab, config: AgentConfiguration): TabPayload[] {
  const fresh = (config.settingProblems ?? []).filter((p) => !tab.settingNotices.has(p.text));
  for (const p of fresh) tab.settingNotices.add(p.text);
  return fresh.map((p) => ({ type: 'tab-notice', tabId: tab.tabId, level: 'warning', text: p.text, settings: p.target }));
}

/** Which of the user's MCP servers the session got (and which not, why): once per tab, until it changes. */
export function mcpServersNotice(tab: ChatTab, config: AgentConfiguration, agent: AgentMcpTransports | undefined): TabPayload[] {
  const notice = mcpNotice(config.userMcp?.report ?? [], agent);
  if (!notice || tab.settingNotices.has(notice.text)) return [];
  tab.settingNotices.add(notice.text);
  return [
    {
      type: 'tab-notice',
      tabId: tab.tabId,
      level: notice.level,
      text: notice.text,
      ...(notice.settings ? { settings: notice.settings } : {}),
    },
  ];
}
