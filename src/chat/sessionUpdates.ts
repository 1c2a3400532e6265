// Where one `session/update` of an agent goes: to the tab bound to its session, or held until a tab
// is (an agent may speak before session/new has answered). On the way it is recorded for what
// depends on it: the turn has been heard from (steering), the diffs a card can open, the tool
// calls an approval names, the session's pickers; a usage figure the meter cannot show goes no
// further, so neither the chat nor the export sees it.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentActor } from '../agents/agentActor';
import type { Log } from '../log/logEvent';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { readUsage } from '../protocol/usage';
import type { TabId, TabPayload } from '../protocol/webview';
import type { ChatTab } from './chatTab';
import type { DiffStore } from './diffStore';
import type { EarlyUpdates } from './earlyUpdates';
import type { SessionDirectory } from './sessionDirectory';
import { applyControlUpdate } from './sessionControls';

export interface SessionUpdateRoute {
  log: Log;
  sessions: SessionDirectory;
  early: EarlyUpdates;
  diffs: DiffStore;
  permissions: PermissionBroker;
  tab(tabId: TabId): ChatTab | undefined;
  send(payload: TabPayload): void;
}

export function routeSessionUpdate(route: SessionUpdateRoute, actor: AgentActor, sessionId: string, update: SessionUpdate): void {
  const tabId = route.sessions.tabFor({ actorKey: actor.key, sessionId });
  const tab = tabId && route.tab(tabId);
  if (!tab) {
    route.log.debug('session', 'update for a session without a tab (yet)', { sessionId, kind: update.sessionUpdate });
    route.early.hold(actor.key, sessionId, update);
    return;
  }
  if (update.sessionUpdate === 'usage_update') {
    const read = readUsage(update);
    if ('invalid' in read) {
      route.log.warn('session', 'usage_update ignored', { sessionId, reason: read.invalid });
      return;
    }
  }
  tab.active?.hear();
  route.diffs.record(tab.tabId, update);
  route.permissions.noteToolCall(actor.key, sessionId, update);
  applyControlUpdate(tab.controls, update as Parameters<typeof applyControlUpdate>[1]);
  route.send({ type: 'agent-update', tabId: tab.tabId, messageId: tab.active?.messageId, update });
}
