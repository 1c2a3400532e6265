// Starts the agent new chats will talk to as soon as the chat view is resolved, while the webview
// is still loading (a second or more; the first time in a browser, VS Code's webview also waits for
// its service worker). The webview's first tab then finds the conductor and agent started and
// initialized, and waits only for session/new. For an agent like Claude Code that is most of a
// second the user no longer sees.
//
// Only for the view's first tabs and when nothing has to be asked first: no agent running yet (a
// view shown again restores its tabs, which have theirs) and one workspace folder (several would
// need the folder pick). The started actor is handed to the pool
// already released, so it stops after the pool's idle time if no tab takes it (a conversation
// restored with another agent, a view closed at once). Nothing here asks the user anything or runs
// anything a tab would not run at once anyway.
import * as vscode from 'vscode';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import { configurationKey } from '../agents/agentConfiguration';
import type { AgentPool } from '../agents/agentPool';
import type { Log } from '../log/logEvent';

export async function startAgentEarly(
  pool: AgentPool,
  /** The configuration a new tab in `folder` would get (resolveConfiguration, without the user's MCP servers). */
  configure: (folder: string) => Promise<AgentConfiguration | undefined>,
  log: Log,
): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (pool.all().length > 0 || folders.length !== 1 || folders[0]!.uri.scheme !== 'file') return;
  const config = await configure(folders[0]!.uri.fsPath);
  // A tab may have started its agent meanwhile.
  if (!config || pool.all().length > 0) return;
  const key = configurationKey(config);
  const actor = pool.acquire(config);
  pool.release(key);
  log.info('agent', 'starting early, while the chat loads', { agent: config.agent.name });
  // A failure is the actor's to report (status bar, the tab that acquires it next starts anew).
  await actor.start().catch(() => undefined);
}
