// The `@` menu of every tab (docs/extension.md): the workspace's files, open editors, symbols and
// selection; pasted and dropped images (asked first: they claim only their own URIs); and the
// OpenCtx providers' mentions, whose annotations also show in editors (docs/openctx.md).
import type { ExtensionCore } from '../activation/core';
import type { AgentPool } from '../agents/agentPool';
import type { AttachImage, ContextRef, TabPayload } from '../protocol/webview';
import { ContextMenu } from './contextMenu';
import { registerOpenCtx, type OpenCtxRegistration } from './openctx';
import { PastedImages } from './pastedImages';
import { WorkspaceSource } from './workspaceSource';

export interface ContextFeature {
  menu: ContextMenu;
  openctx: OpenCtxRegistration;
  /** An image pasted or dropped onto a tab's prompt: attached if the tab's agent takes images. */
  attachImage(m: AttachImage): void;
}

export interface ContextFeatureDeps {
  /** Which agent process shows a tab's session (whether it takes images). */
  sessions: { sessionFor(tabId: string): { actorKey: string } | undefined };
  pool: AgentPool;
  messages: { broadcastContext(items: ContextRef[]): void; send(payload: TabPayload): void };
}

export function registerContext(core: ExtensionCore, deps: ContextFeatureDeps): ContextFeature {
  const { log, settings } = core;
  const pasted = new PastedImages();
  const openctx = registerOpenCtx(log);
  const menu = new ContextMenu(
    [pasted, new WorkspaceSource(core.allowedFolders), openctx.source],
    (items) => deps.messages.broadcastContext(items),
    log,
  );
  core.context.subscriptions.push(openctx, menu);
  return {
    menu,
    openctx,
    attachImage: (m) => {
      const ref = deps.sessions.sessionFor(m.tabId);
      const outcome = pasted.attach(m, ref && deps.pool.get(ref.actorKey)?.promptCapabilities, settings.maxImageBytes());
      log.info('context', outcome.ok ? 'image attached' : 'image refused', {
        tabId: m.tabId,
        name: m.name,
        size: m.size,
        ...(outcome.ok ? { uri: outcome.item.uri } : {}),
      });
      deps.messages.send(
        outcome.ok
          ? { type: 'attach-context', tabId: m.tabId, item: outcome.item }
          : { type: 'tab-notice', tabId: m.tabId, level: 'warning', text: outcome.notice },
      );
    },
  };
}
