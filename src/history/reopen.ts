// Reopening a past conversation in a tab, honestly. The tab shows the stored transcript at once,
// read-only; then, by what the agent says it can do:
//   sessionCapabilities.resume → session/resume (the agent keeps its context; nothing replayed),
//   else loadSession           → session/load (its replay replaces the tab's view: shown once),
//   else                        → a notice that this agent cannot continue old sessions, with the
//                                 offer to continue in a new session with the transcript as context.
// A failed resume or load says so and leaves the tab read-only: a fresh session is never passed off
// as the old one. An agent whose load would erase a session started this minute (Gemini CLI) is
// asked only once that minute has passed, and the tab says why it waits. vscode-free; the chat
// controller supplies the context.
import { randomUUID } from 'node:crypto';
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentActor } from '../agents/agentActor';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { ConversationEntry, SessionControls, TabId, TabPayload } from '../protocol/webview';
import { exportMarkdown } from './exporter';
import type { ConversationMeta } from './historyStore';
import { replayEntries } from './replay';
import { errorText } from '../protocol/errorText';
import { keepMode } from '../agents/sessionMode';
import { startWithNotice } from '../agents/slowStart';

/** A conversation from the history, as a tab reopens it. */
export interface PastConversation {
  meta: ConversationMeta;
  entries: ConversationEntry[];
}

/** A reopened tab's state: read-only until the agent continued it or a new session started. */
export interface PastState {
  conversation: PastConversation;
  readOnly: boolean;
  /** Open live in another window (it holds the conversation's lock): shown here read-only only. */
  elsewhere?: boolean;
  /** Continued in a new session: the next prompt carries the old transcript. */
  contextPending?: boolean;
}

export interface ReopenContext {
  log: Log;
  configure(folder: string, agentName: string): Promise<AgentConfiguration | undefined>;
  acquire(config: AgentConfiguration): AgentActor;
  send(payload: TabPayload): void;
  /** Replaces what the tab shows (and its record) with these entries. */
  restore(tabId: TabId, title: string, entries: ConversationEntry[]): void;
  /** The agent's replay replaced the stored conversation (the history writes it anew). */
  replaced?(tabId: TabId, entries: ConversationEntry[]): void;
  /** Collects the session/updates of a session no tab shows yet (a load's replay) until `take`. */
  captureUpdates(actorKey: string, sessionId: string): { take(): SessionUpdate[] };
  /** Binds the tab to the continued session (session-ready, routing). */
  bind(actor: AgentActor, sessionId: string, controls: SessionControls, config: AgentConfiguration): void;
  /** The tab was closed or the extension is going away. */
  gone(): boolean;
  /** How long the agent may take to start before the tab says what runs (slowStart.ts). */
  slowStartNoticeMs?: number;
  /** The clock and a pause (tests give their own). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Agents (`agentInfo.name`) whose `session/load` in the wall-clock minute (UTC) their session started
 * erases that session: Gemini CLI names a session's file by that minute and, loading, starts a
 * file of the same name first (google-gemini/gemini-cli#28775); every later load then fails too.
 */
const LOAD_ERASES_IN_START_MINUTE = new Set(['gemini-cli']);

/**
 * How long to wait before `session/load` so that it cannot erase the session: until the minute
 * after the conversation began (it began at its first prompt, after the agent's session started),
 * with half a second to spare; 0 for other agents or once that minute has passed. Pure.
 */
export function sessionLoadWaitMs(agentInfoName: string | undefined, createdAt: string, now: number): number {
  if (agentInfoName === undefined || !LOAD_ERASES_IN_START_MINUTE.has(agentInfoName)) return 0;
  const created = Date.parse(createdAt);
  if (!Number.isFinite(created)) return 0;
  return Math.max(0, (Math.floor(created / 60_000) + 1) * 60_000 + 500 - now);
}

export const READ_ONLY_PROMPT_ERROR =
  'This past conversation is read-only: the agent did not continue it. Use “Continue in a new session with the transcript as context” to go on.';

/** Tries to continue the tab's past conversation in the agent; tells the tab what happened. */
export async function continuePastSession(cx: ReopenContext, tabId: TabId, past: PastState): Promise<AgentConfiguration | undefined> {
  const { meta } = past.conversation;
  const notice = (level: 'info' | 'warning' | 'error', text: string, offer = false): void =>
    cx.send({ type: 'tab-notice', tabId, level, text, ...(offer ? { offer: 'continue-in-new-session' as const } : {}) });
  if (past.elsewhere) {
    // Resuming the same agent session from two windows would interleave its turns too.
    cx.log.info('history', 'past conversation open in another window', { tabId, conversation: meta.id });
    notice(
      'warning',
      'This conversation is open in another window, so it is read-only here. You can continue it here as a new conversation that gets the transcript as context; the other window keeps the original.',
      true,
    );
  }
  const config = await cx.configure(meta.folder, meta.agentName);
  if (cx.gone()) return undefined;
  if (past.elsewhere) return config;
  if (!config) {
    notice('error', 'No workspace folder for this conversation; it stays read-only.', true);
    return undefined;
  }
  const agentName = config.agent.name;
  let actor: AgentActor;
  let how: 'resume' | 'load' | undefined;
  try {
    actor = cx.acquire(config);
    const caps = await startWithNotice(actor.capabilities(), actor, {
      tabId,
      agent: config.agent,
      noticeMs: cx.slowStartNoticeMs,
      gone: () => cx.gone(),
      send: (p) => cx.send(p),
    });
    how = !meta.sessionId ? undefined : caps.sessionCapabilities?.resume ? 'resume' : caps.loadSession ? 'load' : undefined;
  } catch (e) {
    if (cx.gone()) return config;
    notice('error', `${agentName} could not be started (${errorText(e)}). This conversation stays read-only.`, true);
    return config;
  }
  if (cx.gone()) return config;
  cx.log.info('history', 'reopening a past conversation', { tabId, conversation: meta.id, sessionId: meta.sessionId, how: how ?? 'none' });
  if (!how || !meta.sessionId) {
    notice(
      'warning',
      `${agentName} cannot continue old sessions, so this conversation is read-only. You can continue in a new session that gets the transcript as context; the agent will not otherwise remember it.`,
      true,
    );
    return config;
  }
  const now = cx.now ?? Date.now;
  const wait = how === 'load' ? sessionLoadWaitMs(actor.agentInfo?.name, meta.createdAt, now()) : 0;
  if (wait > 0) {
    cx.log.info('history', 'session/load waits for the minute after the session started', { tabId, sessionId: meta.sessionId, ms: wait });
    notice(
      'info',
      `${agentName} would erase a session it is asked to load in the minute the session started (google-gemini/gemini-cli#28775): loading it in ${Math.ceil(wait / 1000)} s. Until then the conversation above is read-only; you can also continue in a new session with the transcript as context.`,
      true,
    );
    const sleep = cx.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    // In slices: a tab closed, or continued in a new session, meanwhile stops waiting at once.
    for (const until = now() + wait; now() < until && !cx.gone() && past.readOnly;) await sleep(Math.min(1_000, until - now()));
    if (cx.gone() || !past.readOnly) return config;
  }
  const replay = how === 'load' ? cx.captureUpdates(actor.key, meta.sessionId) : undefined;
  try {
    const { controls } = await actor.reopenSession(
      how,
      meta.sessionId,
      config.workspaceFolder,
      config.additionalDirectories,
      config.userMcp?.servers,
    );
    const replayed = replay?.take() ?? [];
    if (cx.gone()) return config;
    if (how === 'load') {
      const entries = replayEntries(replayed, { agentName, cwd: config.workspaceFolder, idPrefix: `replay-${randomUUID().slice(0, 8)}` });
      cx.restore(tabId, meta.title, entries);
      cx.replaced?.(tabId, entries);
    }
    const mode = meta.mode;
    // Agents begin a continued session in their default mode (Qwen Code: Auto, which writes without asking).
    const modeWarning = mode ? await keepMode({ actor, sessionId: meta.sessionId, controls, wanted: mode, log: cx.log }) : undefined;
    if (cx.gone()) return config;
    past.readOnly = false;
    cx.bind(actor, meta.sessionId, controls, config);
    notice(
      'info',
      how === 'resume'
        ? `${agentName} resumed this session: it remembers the conversation above.`
        : `${agentName} loaded this session and replayed the conversation above.`,
    );
    if (modeWarning) notice('warning', modeWarning);
  } catch (e) {
    replay?.take();
    if (cx.gone()) return config;
    cx.log.warn('history', `session/${how} failed`, { tabId, sessionId: meta.sessionId, error: errorText(e) });
    notice(
      'error',
      `${agentName} could not continue this session (session/${how} failed: ${errorText(e)}). The conversation above is read-only; nothing was started in its place.`,
      true,
    );
  }
  return config;
}

/** The old transcript as the first prompt's context: an embedded Markdown resource when the agent takes those. */
export function transcriptContext(past: PastConversation, embeddedContext: boolean): ContentBlock {
  const markdown = exportMarkdown(past.meta, past.entries);
  const intro = 'The transcript of an earlier conversation we had, for context:';
  return embeddedContext
    ? {
        type: 'resource',
        resource: { uri: `symposium-history:/${past.meta.id}.md`, mimeType: 'text/markdown', text: `${intro}\n\n${markdown}` },
      }
    : { type: 'text', text: `${intro}\n\n${markdown}` };
}
