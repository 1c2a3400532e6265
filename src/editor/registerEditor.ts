// The editor as the agent's hands (docs/extension.md): files with optional review, terminals, the
// IDE operations (definitions, references, symbols), and the commands and code actions around them.
// Owns their disposables; a session that ends takes its terminals with it.
import * as vscode from 'vscode';
import type { ClientHandlers, SessionInfo } from '../agents/clientHandlers';
import type { ExtensionCore } from '../activation/core';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { TabPayload } from '../protocol/webview';
import type { Event } from '../util/emitter';
import { EditorIde } from '../ide/editorIde';
import { DiffView } from './diffView';
import { DiscussCodeActions } from './discussSelection';
import { EditReview } from './editReview';
import { EditorFiles } from './files';
import { createEditorTerminals } from './terminals';

export interface EditorSideDeps {
  /** Which tab and folder a request's session belongs to, and when a session ends. */
  sessions: {
    lookupSession(actorKey: string, sessionId: string): SessionInfo | undefined;
    onDidEndSession: Event<{ actorKey: string; sessionId: string }>;
  };
  permissions: PermissionBroker;
  send: (payload: TabPayload) => void;
  /** Before the agent writes a file: the turn's checkpoint keeps what it was. */
  beforeWrite: (file: string) => Promise<void>;
}

export interface EditorSide {
  diffView: DiffView;
  review: EditReview;
  /** What the agent pool serves the agents' fs/*, terminal/* and IDE requests with. */
  handlers: Required<Pick<ClientHandlers, 'files' | 'terminals' | 'ide'>>;
}

export function registerEditor(core: ExtensionCore, deps: EditorSideDeps): EditorSide {
  const { log, settings, allowedFolders } = core;
  const lookupSession = (actorKey: string, sessionId: string) => deps.sessions.lookupSession(actorKey, sessionId);
  const diffView = new DiffView();
  const review = new EditReview(diffView, log);
  const files = new EditorFiles({
    log,
    lookupSession,
    allowedFolders,
    reviewEnabled: () => settings.reviewAgentEdits(),
    review,
    beforeWrite: deps.beforeWrite,
  });
  const terminals = createEditorTerminals({
    log,
    lookupSession,
    allowedFolders,
    authorize: (ctx, sessionId, description) => deps.permissions.authorizeCommand(ctx, sessionId, description),
    onOutput: deps.send,
  });
  const ide = new EditorIde({ log, lookupSession, allowedFolders });
  core.context.subscriptions.push(
    diffView,
    review,
    terminals,
    // No terminal outlives its session.
    deps.sessions.onDidEndSession(({ actorKey, sessionId }) => terminals.releaseSession(actorKey, sessionId)),
    vscode.commands.registerCommand('symposium.acceptAgentEdit', (uri?: vscode.Uri) => review.answer(true, uri)),
    vscode.commands.registerCommand('symposium.rejectAgentEdit', (uri?: vscode.Uri) => review.answer(false, uri)),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new DiscussCodeActions(), {
      providedCodeActionKinds: [DiscussCodeActions.kind],
    }),
  );
  return { diffView, review, handlers: { files, terminals, ide } };
}
