// Validation of the webview → host messages (the `WebviewToHost` union in webview.ts): every
// message posted by the webview passes `parseWebviewMessage` before the host acts on it, so a
// malformed or hostile message is refused with a reason instead of reaching the controller.
// Limits (prompt size, tab count, image bytes) live here too. Pure: no vscode, DOM or Node.
import { CHECKPOINT_ACTIONS } from './checkpoints';
import { isObject, type JsonObject } from './guards';
import {
  IMAGE_MIME_TYPES,
  MAX_FEEDBACK_CHARS,
  PASTED_IMAGE_SCHEME,
  SETTINGS_TARGETS,
  type AttachImage,
  type ContextRef,
  type TabId,
  type WebviewToHost,
} from './webview';

export type ParseResult = { ok: true; message: WebviewToHost } | { ok: false; error: string };

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const isUuidV4 = (v: unknown): v is string => typeof v === 'string' && UUID_V4.test(v);

/** Limits that keep a misbehaving webview from making the host allocate without bound. */
export const LIMITS = { promptChars: 200_000, tabs: 200, renderedItems: 5_000, logChars: 10_000, imageBytes: 20 * 1024 * 1024 } as const;

class Invalid extends Error {}

function obj(v: unknown, what: string): JsonObject {
  if (!isObject(v)) throw new Invalid(`${what} must be an object`);
  return v;
}
function str(o: Record<string, unknown>, key: string, max = 1_000): string {
  const v = o[key];
  if (typeof v !== 'string') throw new Invalid(`${key} must be a string`);
  if (v.length > max) throw new Invalid(`${key} is longer than ${max}`);
  return v;
}
function uuid(o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (!isUuidV4(v)) throw new Invalid(`${key} must be a UUID v4`);
  return v;
}
function indexMap(o: Record<string, unknown>, key: string): Record<TabId, number> {
  const m = obj(o[key], key);
  const entries = Object.entries(m);
  if (entries.length > LIMITS.tabs) throw new Invalid(`${key} has too many tabs`);
  const out: Record<TabId, number> = {};
  for (const [tab, idx] of entries) {
    if (!isUuidV4(tab)) throw new Invalid(`${key} key must be a UUID v4`);
    if (typeof idx !== 'number' || !Number.isSafeInteger(idx) || idx < 0) throw new Invalid(`${key} values must be non-negative integers`);
    out[tab] = idx;
  }
  return out;
}
function tabList(o: Record<string, unknown>, key: string): TabId[] {
  const v = o[key];
  if (!Array.isArray(v) || v.length > LIMITS.tabs || !v.every(isUuidV4)) throw new Invalid(`${key} must be a list of UUID v4`);
  return v;
}

const CONTEXT_KINDS = new Set(['file', 'folder', 'symbol', 'selection', 'image', 'openctx']);
/** An OpenCtx mention: any URI (the host looks the mention up by provider and URI), its provider's http(s) or file URI. */
function openCtxRef(o: JsonObject, uri: string): ContextRef {
  const provider = str(o, 'provider', 4_096);
  if (!/^(https?|file):\/\//.test(provider)) throw new Invalid('an openctx context item needs its provider URI');
  const ref: ContextRef = { kind: 'openctx', uri, name: str(o, 'name', 1_000), provider };
  if (o.providerName !== undefined) ref.providerName = str(o, 'providerName', 200);
  if (o.description !== undefined) ref.description = str(o, 'description', 1_000);
  return ref;
}

function contextList(v: unknown): ContextRef[] {
  if (!Array.isArray(v) || v.length > 50) throw new Invalid('context must be a list of at most 50 items');
  return v.map((raw) => {
    const o = obj(raw, 'context item');
    const kind = o.kind;
    if (typeof kind !== 'string' || !CONTEXT_KINDS.has(kind))
      throw new Invalid('context kind must be file, folder, symbol, selection, image or openctx');
    const uri = str(o, 'uri', 4_096);
    if (kind === 'openctx') return openCtxRef(o, uri);
    const pasted = kind === 'image' && uri.startsWith(PASTED_IMAGE_SCHEME) && isUuidV4(uri.slice(PASTED_IMAGE_SCHEME.length));
    if (!uri.startsWith('file:') && !pasted) throw new Invalid('context uri must be a file: URI (or a pasted image)');
    const ref: ContextRef = { kind: kind as ContextRef['kind'], uri, name: str(o, 'name', 500) };
    if (o.range !== undefined) {
      const r = obj(o.range, 'range');
      const line = (k: string): number => {
        const n = r[k];
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw new Invalid(`range.${k} must be a positive integer`);
        return n;
      };
      ref.range = { startLine: line('startLine'), endLine: line('endLine') };
    }
    if (o.text !== undefined) ref.text = str(o, 'text', LIMITS.promptChars);
    if (o.open === true) ref.open = true;
    return ref;
  });
}

/** Checks an untrusted webview message; anything unexpected is rejected with a reason. */
export function parseWebviewMessage(raw: unknown): ParseResult {
  try {
    const o = obj(raw, 'message');
    const type = o.type;
    switch (type) {
      case 'webview-ready':
        return ok({ type, lastSeenIndex: indexMap(o, 'lastSeenIndex'), openTabs: tabList(o, 'openTabs') });
      case 'new-tab':
      case 'cancel':
      case 'withdraw-queued':
      case 'steer-queued':
      case 'close-tab':
      case 'restart-agent':
      case 'continue-in-new-session':
      case 'export-conversation':
        return ok({ type, tabId: uuid(o, 'tabId') });
      case 'prompt': {
        const context = o.context === undefined ? undefined : contextList(o.context);
        return ok({
          type,
          tabId: uuid(o, 'tabId'),
          messageId: uuid(o, 'messageId'),
          text: str(o, 'text', LIMITS.promptChars),
          ...(context ? { context } : {}),
          ...(o.resendOf !== undefined ? { resendOf: uuid(o, 'resendOf') } : {}),
        });
      }
      case 'open-settings': {
        const target = SETTINGS_TARGETS.find((t) => t === o.target);
        if (!target) throw new Invalid(`target must be one of ${SETTINGS_TARGETS.join(', ')}`);
        return ok({ type, tabId: uuid(o, 'tabId'), target });
      }
      case 'ack':
        return ok({ type, lastSeenIndex: indexMap(o, 'lastSeenIndex') });
      case 'rendered': {
        const items = o.items;
        if (!Array.isArray(items) || items.length > LIMITS.renderedItems) throw new Invalid('items must be a list');
        return ok({
          type,
          tabId: uuid(o, 'tabId'),
          requestId: str(o, 'requestId', 100),
          items: items.map((i) => {
            const r = obj(i, 'item');
            const opt = (k: string, max: number): Record<string, string> => (r[k] === undefined ? {} : { [k]: str(r, k, max) });
            const list = (k: string): Record<string, string[]> => {
              const v = r[k];
              if (v === undefined) return {};
              if (!Array.isArray(v) || v.length > 100 || !v.every((x) => typeof x === 'string' && x.length <= 4_096))
                throw new Invalid(`${k} must be a list of strings`);
              return { [k]: v as string[] };
            };
            return {
              type: str(r, 'type', 50),
              messageId: str(r, 'messageId', 500),
              body: str(r, 'body', 1_000_000),
              ...opt('header', 10_000),
              ...opt('status', 200),
              ...opt('details', 1_000_000),
              ...list('buttons'),
              ...list('files'),
            };
          }),
        });
      }
      case 'permission-answer': {
        const optionId = o.optionId === undefined ? undefined : str(o, 'optionId', 200);
        const bypass = o.bypass === true ? true : undefined;
        if (o.bypass !== undefined && o.bypass !== true) throw new Invalid('bypass must be true when present');
        if ((optionId === undefined) === (bypass === undefined)) throw new Invalid('exactly one of optionId and bypass is needed');
        const feedback = o.feedback === undefined ? undefined : str(o, 'feedback', MAX_FEEDBACK_CHARS).trim();
        if (feedback !== undefined && optionId === undefined) throw new Invalid('feedback goes with an option, not with bypass');
        return ok({
          type,
          tabId: uuid(o, 'tabId'),
          requestId: uuid(o, 'requestId'),
          ...(optionId !== undefined ? { optionId } : { bypass }),
          ...(feedback ? { feedback } : {}),
        });
      }
      case 'elicitation-answer': {
        const action = o.action;
        if (action !== 'accept' && action !== 'decline' && action !== 'cancel' && action !== 'open')
          throw new Invalid('action must be accept, decline, cancel or open');
        let values: Record<string, string> | undefined;
        if (o.values !== undefined) {
          if (!isObject(o.values) || Object.keys(o.values).length > 500)
            throw new Invalid('values must be an object of at most 500 fields');
          values = {};
          for (const [k, v] of Object.entries(o.values)) {
            if (typeof v !== 'string' || v.length > 10_000 || k.length > 300)
              throw new Invalid('each value must be a string of at most 10,000 characters');
            values[k] = v;
          }
        }
        return ok({ type, tabId: uuid(o, 'tabId'), requestId: uuid(o, 'requestId'), action, ...(values ? { values } : {}) });
      }
      case 'set-mode':
        return ok({ type, tabId: uuid(o, 'tabId'), modeId: str(o, 'modeId', 200) });
      case 'set-config-option':
        return ok({
          type,
          tabId: uuid(o, 'tabId'),
          configId: str(o, 'configId', 200),
          value: typeof o.value === 'boolean' ? o.value : str(o, 'value', 1_000),
        });
      case 'set-model':
        return ok({ type, tabId: uuid(o, 'tabId'), modelId: str(o, 'modelId', 200) });
      case 'open-diff':
        return ok({ type, tabId: uuid(o, 'tabId'), toolCallId: str(o, 'toolCallId', 500), path: str(o, 'path', 4_096) });
      case 'open-location': {
        const line = o.line;
        if (line !== undefined && (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 0))
          throw new Invalid('line must be a non-negative integer');
        return ok({ type, tabId: uuid(o, 'tabId'), path: str(o, 'path', 4_096), ...(line !== undefined ? { line } : {}) });
      }
      case 'attach-image':
        return ok(attachImage(o));
      case 'context-query':
        return ok({ type, query: str(o, 'query', 200) });
      case 'sign-in':
        return ok({ type, tabId: uuid(o, 'tabId'), requestId: uuid(o, 'requestId'), methodId: str(o, 'methodId', 200) });
      case 'sign-in-dismiss':
        return ok({ type, tabId: uuid(o, 'tabId'), requestId: uuid(o, 'requestId') });
      case 'checkpoint-action': {
        const action = CHECKPOINT_ACTIONS.find((a) => a === o.action);
        if (!action) throw new Invalid(`action must be one of ${CHECKPOINT_ACTIONS.join(', ')}`);
        const file = action === 'revert' || action === 'keep' || action === 'open';
        return ok({
          type,
          tabId: uuid(o, 'tabId'),
          messageId: uuid(o, 'messageId'),
          action,
          ...(file ? { folder: str(o, 'folder', 4_096), path: str(o, 'path', 4_096) } : {}),
        });
      }
      case 'log': {
        const level = o.level;
        if (level !== 'info' && level !== 'warn' && level !== 'error') throw new Invalid('level must be info, warn or error');
        return ok({ type, level, message: str(o, 'message', LIMITS.logChars) });
      }
      default:
        return { ok: false, error: `unknown message type ${JSON.stringify(type)?.slice(0, 50)}` };
    }
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    throw e;
  }
}
const ok = (message: WebviewToHost): ParseResult => ({ ok: true, message });

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Bytes a base64 text decodes to (it must be well-formed: length a multiple of 4). */
export function base64Bytes(b64: string): number {
  if (b64.length % 4 !== 0 || !BASE64.test(b64)) return -1;
  return (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
}
function attachImage(o: JsonObject): AttachImage {
  const mimeType = str(o, 'mimeType', 100);
  if (!IMAGE_MIME_TYPES.includes(mimeType)) throw new Invalid(`mimeType must be one of ${IMAGE_MIME_TYPES.join(', ')}`);
  const size = o.size;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1) throw new Invalid('size must be a positive integer');
  const m: AttachImage = { type: 'attach-image', tabId: uuid(o, 'tabId'), name: str(o, 'name', 500), mimeType, size };
  if (o.data !== undefined) {
    if (size > LIMITS.imageBytes) throw new Invalid(`an image with data may not exceed ${LIMITS.imageBytes} bytes`);
    const data = str(o, 'data', Math.ceil(LIMITS.imageBytes / 3) * 4);
    if (base64Bytes(data) !== size) throw new Invalid('data must be the base64 of exactly size bytes');
    m.data = data;
  }
  return m;
}
