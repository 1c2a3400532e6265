// The host's chat logic in plain Node, wired as src/extension.ts wires it minus VS Code: the chat
// controller with its session directory, tab messages (outbox, transcript), permission broker and
// agent pool, and a fake webview that is the real one minus mynah-ui (its model, webview/model.ts,
// applies what the host sends). Optionally the editor's hands too: files read and written on disk
// (confined like src/editor/files.ts) and the real terminal registry, each request recorded, so a
// test can tell what an agent did through the editor and what it did itself.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ReadTextFileRequest, WriteTextFileRequest } from '@agentclientprotocol/sdk';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { Runtime } from '../settings/agentDefinition';
import { acpRequestError } from '../agents/acpSdk';
import { AgentPool } from '../agents/agentPool';
import type { ClientHandlers } from '../agents/clientHandlers';
import { TurnCheckpoints, type CheckpointEditor } from '../checkpoints/turnCheckpoints';
import { TerminalRegistry } from '../editor/terminalRegistry';
import { DEFAULT_LIMITS } from '../node/checkpointRepo';
import { silentLog } from '../log/logEvent';
import { confine } from '../node/confinement';
import { readLines, writeTextNoFollow } from '../node/textFiles';
import { PermissionBroker } from '../permissions/permissionBroker';
import { RejectFeedback } from '../chat/rejectFeedback';
import { Elicitations } from '../chat/elicitations';
import type { FeedbackDelivery } from '../protocol/webview';
import type { HostToWebview, TabId, WebviewToHost } from '../protocol/webview';
import { ChatInspector } from '../testing/chatInspector';
import { ChatController } from '../chat/chatController';
import { NO_FEATURES, routeWebviewMessage, type WebviewInbox } from '../chat/webviewInbox';
import type { OutboxLimits } from '../chat/outbox';
import { SessionDirectory } from '../chat/sessionDirectory';
import { TabMessages } from '../chat/tabMessages';
import type { Conversation, Turn } from '../protocol/conversation';
import { WebviewModel } from '../../webview/model';
import type { ModelState } from '../../webview/state';

/** The webview's model fed what the host posts; it can "save" and be re-created from that. */
export class FakeWebview {
  readonly model: WebviewModel;
  received: HostToWebview[] = [];
  constructor(saved?: ModelState) {
    this.model = new WebviewModel(structuredClone(saved));
  }
  receive(m: HostToWebview): void {
    this.received.push(m);
    this.model.receive(m);
  }
  /** A tab the user opened (the webview makes its ID). */
  newTab(): TabId {
    const tabId = randomUUID();
    this.model.addTab(tabId);
    return tabId;
  }
  ready(): WebviewToHost {
    return { type: 'webview-ready', lastSeenIndex: this.model.lastSeenIndex(), openTabs: this.model.tabIds() };
  }
  save(): ModelState {
    return structuredClone(this.model.toState());
  }
  conversation(tabId: TabId): Conversation {
    return this.model.conversation(tabId);
  }
  turns(tabId: TabId): Turn[] {
    return this.model.conversation(tabId).blocks.filter((b): b is Turn => b.kind === 'turn');
  }
  answer(tabId: TabId, messageId: string): string {
    const t = this.turns(tabId).find((b) => b.messageId === messageId);
    return (t?.updates ?? [])
      .map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : ''))
      .join('');
  }
  /** The per-tab index of each received message of this type (and message ID). */
  indicesOf(tabId: TabId, type: HostToWebview['type'], messageId?: string): number[] {
    return this.received.flatMap((m) =>
      'index' in m && m.tabId === tabId && m.type === type && (messageId === undefined || ('messageId' in m && m.messageId === messageId))
        ? [m.index]
        : [],
    );
  }
}

/** The editor's requests an agent made, in order: `fs/read_text_file <path>`, `terminal/create <command>`… */
export type EditorRequestLog = string[];

/** Files and terminals as the editor serves them, on disk, without VS Code; every request logged. */
export function editorHands(sessions: SessionDirectory, permissions: PermissionBroker, log: EditorRequestLog, post: (m: never) => void) {
  const lookupSession = (actorKey: string, sessionId: string) => sessions.lookupSession(actorKey, sessionId);
  const rootsOf = (actorKey: string, sessionId: string): string[] => {
    const s = lookupSession(actorKey, sessionId);
    if (!s) throw new Error(`No chat tab has session ${sessionId}.`);
    return [s.cwd];
  };
  const files: ClientHandlers['files'] = {
    readTextFile: async (p: ReadTextFileRequest, ctx) => {
      log.push(`fs/read_text_file ${p.path}`);
      const real = confine(p.path, rootsOf(ctx.actorKey, p.sessionId));
      try {
        return { content: await readLines(real, p.line, p.limit) };
      } catch (e) {
        // As src/editor/files.ts answers a missing file.
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw acpRequestError().resourceNotFound(real);
        throw e;
      }
    },
    writeTextFile: async (p: WriteTextFileRequest, ctx) => {
      log.push(`fs/write_text_file ${p.path}`);
      const real = confine(p.path, rootsOf(ctx.actorKey, p.sessionId));
      fs.mkdirSync(path.dirname(real), { recursive: true });
      await writeTextNoFollow(real, p.content);
      return {};
    },
  };
  const registry = new TerminalRegistry(
    {
      log: silentLog,
      lookupSession,
      authorize: (ctx, sessionId, description) => permissions.authorizeCommand(ctx, sessionId, description),
      onOutput: (payload) => post(payload as never),
      allowedFolders: () => [],
    },
    () => ({ write: () => {}, exited: () => {}, dispose: () => {} }),
  );
  const terminals: ClientHandlers['terminals'] = {
    create: (p, ctx) => {
      log.push(`terminal/create ${[p.command, ...(p.args ?? [])].join(' ')}`);
      return registry.create(p, ctx);
    },
    output: (p, ctx) => registry.output(p, ctx),
    waitForExit: (p, ctx) => registry.waitForExit(p, ctx),
    kill: (p, ctx) => registry.kill(p, ctx),
    release: (p, ctx) => registry.release(p, ctx),
  };
  sessions.onDidEndSession(({ actorKey, sessionId }) => registry.releaseSession(actorKey, sessionId));
  return { files, terminals, registry };
}

/** Real checkpoints for a harness chat (storage in a temp folder); `editor` answers the restore confirmation. */
/** An editor for checkpoints in node tests: no unsaved files, and every restore confirmed. */
export const confirmingEditor: CheckpointEditor = {
  unsavedFiles: () => [],
  openDiff: async () => {},
  review: async () => {},
  confirmRestore: async () => 'restore',
};

export function testCheckpoints(
  { controller, messages }: { controller: ChatController; messages: TabMessages },
  editor?: CheckpointEditor,
): TurnCheckpoints {
  return new TurnCheckpoints({
    log: silentLog,
    storageRoot: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-checkpoint-store-')),
    enabled: () => true,
    limits: () => DEFAULT_LIMITS,
    maxBytes: () => 500 * 1024 * 1024,
    foldersOf: (tabId) => [controller.tab(tabId)?.config?.workspaceFolder ?? ''].filter(Boolean),
    conversationOf: () => undefined,
    send: (p) => messages.send(p),
    ...(editor ? { editor } : {}),
  });
}

export interface ChatSetup {
  runtime: Runtime;
  configure: () => Promise<AgentConfiguration>;
  limits?: OutboxLimits;
  /** Serve fs/* and terminal/* as the editor does (else the conductor's fs adapter serves files). */
  editor?: boolean;
  /** How long an agent no tab uses keeps running (AgentPool's default otherwise). */
  idleStopMs?: number;
  /** How long a new session may take before its tab says what runs (the controller's default otherwise). */
  slowStartNoticeMs?: number;
  /** Checkpoints per turn (src/checkpoints/), made once the controller and the channel exist. */
  checkpoints?: (parts: { controller: ChatController; messages: TabMessages }) => TurnCheckpoints;
}

export function setupChat(opts: ChatSetup) {
  let webview = new FakeWebview();
  const sessions = new SessionDirectory();
  const messages = new TabMessages(silentLog, opts.limits);
  const permissions = new PermissionBroker({
    log: silentLog,
    policyFor: () => ({ bypassPermissions: false, autoApprove: [], problems: [] }),
    enableBypass: async () => {},
    record: () => {},
    tabFor: (actorKey, sessionId) => sessions.turnFor(actorKey, sessionId),
    post: (p) => messages.send(p),
    deliverFeedback: (actorKey, sessionId, title, text): Promise<FeedbackDelivery> => feedback.deliver(actorKey, sessionId, title, text),
  });
  const editorRequests: EditorRequestLog = [];
  const elicitations = new Elicitations({
    log: silentLog,
    tabFor: (actorKey, sessionId) => sessions.turnFor(actorKey, sessionId),
    post: (p) => messages.send(p),
    openExternal: async (url) => void opened.push(url),
  });
  const opened: string[] = [];
  const hands = opts.editor ? editorHands(sessions, permissions, editorRequests, (m) => messages.send(m)) : undefined;
  const pool = new AgentPool({
    runtime: opts.runtime,
    log: silentLog,
    clientInfo: { name: 'test', version: '0' },
    idleStopMs: opts.idleStopMs,
    onPermissionRequest: (actor, params, signal) =>
      permissions.request({ actorKey: actor.key, agentName: actor.agentName, params, signal }),
    client: { ...(hands ? { files: hands.files, terminals: hands.terminals } : {}), elicitation: elicitations },
  });
  const feedback: RejectFeedback = new RejectFeedback({ log: silentLog, pool });
  let checkpoints: TurnCheckpoints | undefined;
  const controller = new ChatController({
    log: silentLog,
    sessions,
    messages,
    permissions,
    feedback,
    elicitations,
    pool,
    configure: opts.configure,
    ...(opts.slowStartNoticeMs !== undefined ? { slowStartNoticeMs: opts.slowStartNoticeMs } : {}),
    ...(opts.checkpoints
      ? {
          checkpoints: {
            lastTurnRecorded: async (tabId) => checkpoints?.lastTurnRecorded(tabId),
            turnStarted: (tabId, messageId) => checkpoints?.turnStarted(tabId, messageId),
            turnEnded: (tabId, messageId) => checkpoints?.turnEnded(tabId, messageId),
            restoreForResend: async (tabId, messageId) => (await checkpoints?.restoreForResend?.(tabId, messageId)) ?? false,
          },
        }
      : {}),
  });
  checkpoints = opts.checkpoints?.({ controller, messages });
  // The webview inbox as activation builds it, with the features a harness chat has.
  const inbox: WebviewInbox = { ...controller.inbox(), ...NO_FEATURES, checkpointAction: (m) => void checkpoints?.action(m) };
  const inspector = new ChatInspector({ chat: controller, sessions, pool, messages, permissions });
  messages.setPost((m) => webview.receive(m));
  return {
    controller,
    /** A message from the webview, routed as in the extension. */
    handle: (m: WebviewToHost) => routeWebviewMessage(m, inbox),
    inspector,
    messages,
    pool,
    editorRequests,
    /** URLs an elicitation card opened. */
    opened,
    get webview() {
      return webview;
    },
    recreate(saved?: ModelState) {
      webview = new FakeWebview(saved);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export async function until(done: () => boolean, timeoutMs = 10_000, what = 'a condition'): Promise<void> {
  for (const end = Date.now() + timeoutMs; !done(); await sleep(20)) if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
}
