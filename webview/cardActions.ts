// What a click in a card asks of the host: a button (restart, continue in a new session, sign in
// or not now, a permission choice, open a diff, take queued prompts back), a file in a file list
// (its diff, or the file at a line) or a link in an answer. Pure: the conversation model in, the
// message to post out, so each is unit-testable.
import { MAX_FEEDBACK_CHARS, SETTINGS_TARGETS, type TabId, type WebviewToHost } from '../src/protocol/webview';
import type { Conversation } from '../src/protocol/conversation';
import { CONTINUE_IN_NEW_SESSION_BUTTON_ID, OPEN_SETTINGS_BUTTON_PREFIX, RESTART_BUTTON_ID } from './mappers/chatItems';
import { changesButtonAction, changesFileAction, editAndResendOf } from './mappers/changes';
import { FEEDBACK_FIELD, parsePermissionButton } from './mappers/permission';
import { parseElicitationButton } from './mappers/elicitation';
import { signInChoice, signInDismissal } from './mappers/signIn';
import { STEER_QUEUED_BUTTON_ID, WITHDRAW_QUEUED_BUTTON_ID } from './mappers/tabStore';
import { OPEN_DIFF_PREFIX } from './mappers/toolCall';
import { toolCallOf } from './toolCalls';

export interface ButtonAction {
  /** What to send to the host; none when the button names nothing the tab still has. */
  post?: WebviewToHost;
  /** The card keeps its buttons usable ("Open diff" can be used again and again). */
  reenable?: boolean;
  /** Text that goes back into the prompt input, before what is typed there (withdrawn queued prompts). */
  restoreInput?: string;
  /** "Edit and resend": the prompt's text replaces the input; the next prompt sent resends that turn. */
  editResend?: { messageId: string; text: string };
}

/** `form`: the values of the card's form fields when the button was clicked (a rejection's feedback). */
export function buttonAction(
  conv: Conversation,
  tabId: TabId,
  messageId: string | undefined,
  id: string,
  form?: Record<string, string>,
): ButtonAction {
  if (id === RESTART_BUTTON_ID) return { post: { type: 'restart-agent', tabId } };
  if (id === CONTINUE_IN_NEW_SESSION_BUTTON_ID) return { post: { type: 'continue-in-new-session', tabId } };
  if (id.startsWith(OPEN_SETTINGS_BUTTON_PREFIX)) {
    const target = SETTINGS_TARGETS.find((t) => t === id.slice(OPEN_SETTINGS_BUTTON_PREFIX.length));
    return target ? { post: { type: 'open-settings', tabId, target }, reenable: true } : {};
  }
  if (id === WITHDRAW_QUEUED_BUTTON_ID) {
    const texts = (conv.queued ?? []).map((q) => q.text);
    return texts.length > 0 ? { post: { type: 'withdraw-queued', tabId }, restoreInput: texts.join('\n\n') } : {};
  }
  if (id === STEER_QUEUED_BUTTON_ID) return conv.queued?.some((q) => q.steerable) ? { post: { type: 'steer-queued', tabId } } : {};
  const signIn = signInChoice(conv, tabId, id) ?? signInDismissal(conv, tabId, id);
  if (signIn) return { post: signIn };
  const editResend = editAndResendOf(conv, messageId, id);
  if (editResend) return { editResend, reenable: true };
  const changes = changesButtonAction(conv, tabId, messageId, id);
  if (changes) return { post: changes, reenable: true };
  const perm = parsePermissionButton(id);
  if (perm) {
    const card = conv.blocks.flatMap((b) => (b.kind === 'turn' ? b.permissions : [])).find((p) => p.requestId === perm.requestId);
    if (!card) return {};
    if (perm.choice === 'bypass') return { post: { type: 'permission-answer', tabId, requestId: perm.requestId, bypass: true } };
    const option = card.options[perm.choice];
    if (!option) return {};
    // Only a rejection carries the words: they explain a refusal and never go with an approval.
    const feedback = option.kind.startsWith('reject') ? form?.[FEEDBACK_FIELD]?.trim().slice(0, MAX_FEEDBACK_CHARS) : undefined;
    return {
      post: { type: 'permission-answer', tabId, requestId: perm.requestId, optionId: option.optionId, ...(feedback ? { feedback } : {}) },
    };
  }
  const ask = parseElicitationButton(id);
  if (ask) {
    const pending = conv.blocks.some((b) => b.kind === 'turn' && b.elicitations?.some((e) => e.requestId === ask.requestId && !e.outcome));
    const opened = conv.blocks.some(
      (b) => b.kind === 'turn' && b.elicitations?.some((e) => e.requestId === ask.requestId && e.outcome?.action === 'opened'),
    );
    if (!pending && !(opened && ask.action === 'cancel')) return {};
    // Submit sends the form as the card holds it; the host checks it against the schema (a refusal re-enables the card).
    return {
      post: {
        type: 'elicitation-answer',
        tabId,
        requestId: ask.requestId,
        action: ask.action,
        ...(ask.action === 'accept' ? { values: { ...form } } : {}),
      },
      reenable: ask.action === 'accept',
    };
  }
  if (id.startsWith(OPEN_DIFF_PREFIX) && messageId) {
    const tool = toolCallOf(conv, messageId);
    const item = tool?.content?.[Number(id.slice(OPEN_DIFF_PREFIX.length))];
    return {
      ...(tool && item?.type === 'diff' ? { post: { type: 'open-diff', tabId, toolCallId: tool.toolCallId, path: item.path } } : {}),
      reenable: true,
    };
  }
  return {};
}

export function fileClickAction(
  conv: Conversation,
  tabId: TabId,
  filePath: string,
  messageId: string | undefined,
  data: Record<string, string> | undefined,
): WebviewToHost {
  if (data?.checkpoint === 'open') {
    const open = changesFileAction(conv, tabId, messageId, filePath, 'open');
    if (open) return open;
  }
  const tool = messageId ? toolCallOf(conv, messageId) : undefined;
  if (data?.action === 'diff' && tool) return { type: 'open-diff', tabId, toolCallId: tool.toolCallId, path: filePath };
  const line = Number(data?.line);
  return { type: 'open-location', tabId, path: filePath, ...(Number.isSafeInteger(line) && line > 0 ? { line } : {}) };
}

/**
 * What a click on a link in an answer does. Web and mail links are VS Code's to open (it asks
 * before opening a site the user has not trusted): `browser`. A file link — `file://…`, a path,
 * `src/parser.ts#L4` or `src/parser.ts:4` — opens in the editor through the host, which opens only
 * files inside the chat's folders (`open-location`). Any other scheme (`vscode:`, `command:`, …)
 * would hand an agent's text to a URL handler of the editor or another extension: not followed.
 */
export type LinkClick = { kind: 'browser' } | { kind: 'open'; post: WebviewToHost } | { kind: 'blocked'; scheme: string };

export function linkClickAction(tabId: TabId, href: string): LinkClick {
  const link = href.trim();
  if (link === '' || link.startsWith('#') || /^(https?|mailto):/i.test(link)) return { kind: 'browser' };
  let target: string;
  if (/^file:/i.test(link)) {
    try {
      const url = new URL(link);
      target = decodeURIComponent(url.pathname) + url.hash;
    } catch {
      return { kind: 'blocked', scheme: 'file' };
    }
  } else {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1];
    // A scheme, unless it is a Windows drive letter (C:\…, C:/…).
    if (scheme && !/^[a-z]:[\\/]/i.test(link)) return { kind: 'blocked', scheme: scheme.toLowerCase() };
    try {
      target = decodeURIComponent(link);
    } catch {
      target = link;
    }
  }
  // The line: `#L12` (GitHub's and VS Code's form, `#L12C3` too), `#12`, or a `:12[:3]` suffix.
  const m = /#L?(\d+)(?:C\d+)?$/i.exec(target) ?? /:(\d+)(?::\d+)?$/.exec(target);
  const path = m ? target.slice(0, m.index) : target.replace(/#.*$/, '');
  const line = m ? Number(m[1]) : undefined;
  if (path === '') return { kind: 'browser' };
  return { kind: 'open', post: { type: 'open-location', tabId, path, ...(line && Number.isSafeInteger(line) ? { line } : {}) } };
}
