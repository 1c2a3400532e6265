// Wires the traffic viewer into the extension: its commands (Show Protocol Traffic, Save Protocol
// Trace) and, in test mode, `symposium.test.*` commands that read what the viewer shows. The
// viewer's code is out/trafficViewer.js (trafficViewerBundle.ts), required on first use.
import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { SessionDirectory } from '../chat/sessionDirectory';
import type { Log } from '../log/logEvent';
import type { TrafficTab, TrafficViewer } from './trafficPanel';
import type { TrafficStore } from './trafficStore';
import { requireBundle } from '../node/lazyBundle';

type TrafficViewerBundle = typeof import('./trafficViewerBundle');

export const SHOW_TRAFFIC_COMMAND = 'symposium.showProtocolTraffic';
export const SAVE_TRACE_COMMAND = 'symposium.saveProtocolTrace';

export interface TrafficDeps {
  extensionUri: vscode.Uri;
  store: TrafficStore;
  log: Log;
  chat: Pick<ChatController, 'openTabs'>;
  sessions: Pick<SessionDirectory, 'sessionFor'>;
  testMode: boolean;
}

export function registerTraffic(deps: TrafficDeps): vscode.Disposable[] {
  const tabs = (): TrafficTab[] =>
    deps.chat.openTabs().flatMap((t) => {
      const ref = deps.sessions.sessionFor(t.tabId);
      return ref
        ? [{ tabId: t.tabId, title: t.title, agentName: t.config?.agent.name ?? '', key: ref.actorKey, sessionId: ref.sessionId }]
        : [];
    });
  let loaded: TrafficViewer | undefined;
  const viewer = (): TrafficViewer => {
    if (!loaded) {
      const bundle = requireBundle<TrafficViewerBundle>(deps.extensionUri.fsPath, 'trafficViewer');
      loaded = new bundle.TrafficViewer({
        extensionUri: deps.extensionUri,
        store: deps.store,
        log: deps.log,
        tabs,
        testMode: deps.testMode,
      });
    }
    return loaded;
  };
  const disposables: vscode.Disposable[] = [
    { dispose: () => loaded?.dispose() },
    vscode.commands.registerCommand(SHOW_TRAFFIC_COMMAND, (tabId?: string) => viewer().show(typeof tabId === 'string' ? tabId : undefined)),
    vscode.commands.registerCommand(SAVE_TRACE_COMMAND, (tabId?: string, target?: vscode.Uri) =>
      viewer().save(typeof tabId === 'string' ? tabId : undefined, target instanceof vscode.Uri ? target : undefined),
    ),
  ];
  if (deps.testMode) {
    disposables.push(
      /** What the viewer shows, once it has rendered something matching `until` (a method name), or after `timeoutMs`. */
      vscode.commands.registerCommand('symposium.test.getTrafficRendered', async (until?: string, timeoutMs = 10_000) => {
        const matches = (): boolean => until === undefined || (viewer().lastRendered?.rows.some((r) => r.method === until) ?? false);
        if (!matches() || !viewer().lastRendered)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => done(), timeoutMs);
            const sub = viewer().onDidRender(() => matches() && done());
            function done(): void {
              clearTimeout(timer);
              sub.dispose();
              resolve();
            }
          });
        return viewer().lastRendered;
      }),
      vscode.commands.registerCommand('symposium.test.setTrafficFilter', (filter: string) => viewer().setFilter(filter)),
    );
  }
  return disposables;
}
