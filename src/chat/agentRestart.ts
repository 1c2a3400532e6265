// Restarting agents. A restart is about processes, not tabs: tabs with the same configuration share
// one agent process, so restarting one tab's agent restarts it for all of them. This module picks
// those tabs and stops their processes (running prompts and open approval cards are cancelled, the
// tabs lose their sessions); the chat controller, which owns the session lifecycle, then starts a
// new session in each tab that is still open. vscode-free.
import type { Log } from '../log/logEvent';
import { configurationKey } from '../agents/agentConfiguration';
import type { AgentPool } from '../agents/agentPool';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { ChatTab } from './chatTab';
import type { SessionDirectory } from './sessionDirectory';

/** This tab and every other tab its agent process serves (the same configuration). Pure. */
export function tabsSharingProcess(tabs: Iterable<ChatTab>, tab: ChatTab): ChatTab[] {
  const key = tab.config ? configurationKey(tab.config) : undefined;
  return [...tabs].filter((t) => t === tab || (key !== undefined && t.config !== undefined && configurationKey(t.config) === key));
}

/** Whether a tab is configured for the process of `actorKey` (then that process is still needed). */
export function anyTabUses(tabs: Iterable<ChatTab>, actorKey: string): boolean {
  return [...tabs].some((t) => t.config !== undefined && configurationKey(t.config) === actorKey);
}

/**
 * A closed tab's process, to be stopped after the pool's idle time when no open tab uses it. Keyed
 * by the tab's configuration, not its session: a tab closed while its session was still starting
 * (or resuming) has none yet, and its process must not run on until the window closes.
 */
export function releaseClosedTabProcess(pool: Pick<AgentPool, 'release'>, openTabs: Iterable<ChatTab>, closed: ChatTab): void {
  const key = closed.config && configurationKey(closed.config);
  if (key !== undefined && !anyTabUses(openTabs, key)) pool.release(key);
}

export interface ProcessStopDeps {
  log: Log;
  pool: Pick<AgentPool, 'get' | 'remove'>;
  permissions: Pick<PermissionBroker, 'cancelActor'>;
  sessions: Pick<SessionDirectory, 'unbindTab'>;
}

/**
 * Takes the processes behind these tabs out of the pool and unbinds the tabs, then waits until
 * each process has stopped (or failed to). Nothing new is started here.
 */
export async function stopProcessesOf(tabs: readonly ChatTab[], deps: ProcessStopDeps): Promise<void> {
  const keys = new Set(tabs.flatMap((t) => (t.config ? [configurationKey(t.config)] : [])));
  const actors = [...keys].flatMap((k) => {
    const a = deps.pool.get(k);
    return a ? [a] : [];
  });
  deps.log.info('agent', 'restart', { tabs: tabs.map((t) => t.tabId), processes: actors.length });
  for (const a of actors) {
    deps.pool.remove(a);
    deps.permissions.cancelActor(a.key, 'the agent is restarting');
  }
  for (const t of tabs) deps.sessions.unbindTab(t.tabId);
  // Stopping cancels running prompts, which frees each tab's queue for the new session.
  await Promise.allSettled(actors.map((a) => a.stop('restart')));
}

/**
 * Restarts the processes behind these tabs. Each open tab's new session (`queueSession`, which waits
 * for `stopped`) goes on its queue now, not once the old process has stopped: a prompt sent
 * meanwhile (say, right after signing in from a terminal) then waits for the new session, as it
 * waits behind a running turn, instead of finding no agent and failing.
 */
export async function restartTabs(
  tabs: readonly ChatTab[],
  deps: ProcessStopDeps,
  queueSession: (tab: ChatTab, stopped: Promise<void>) => void,
): Promise<void> {
  const stopped = stopProcessesOf(tabs, deps);
  for (const t of tabs) if (!t.closed) queueSession(t, stopped);
  await stopped;
}
