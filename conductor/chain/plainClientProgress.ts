// Tool progress for a plain ACP client (Zed, JetBrains, acpx…: any editor that does not declare
// `_meta.symposium.toolProgress`). Components report the progress of the tools they serve as
// `_symposium/tool_progress` (components/toolProgress.ts), which only Symposium's own editor
// understands; for any other client the editor edge does what that editor does with it
// (src/protocol/toolProgressMapper.ts: the session's latest running call of that tool) and sends
// it as that call's own `tool_call_update`, with the message as the call's `content`, so a plain
// client shows "Downloading serde… 40 %" on the tool call while it runs. The agent's own final
// update of the call replaces that content with the result.
import { parseToolProgress, TOOL_PROGRESS_METHOD, takesToolProgress, type ToolProgressParams } from '../../src/protocol/symposium-ext';
import { ToolProgressMapper } from '../../src/protocol/toolProgressMapper';
import { isObject } from '../../src/protocol/guards';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ComponentContext, Direction, IncomingNotification } from './component';

export class PlainClientProgress {
  /** Undefined until `initialize`: then whether the client shows `_symposium/tool_progress` itself. */
  private plain: boolean | undefined;
  private readonly mapper = new ToolProgressMapper();

  /** The editor's `initialize` params: whether it declares the capability. */
  initialize(params: unknown): void {
    this.plain = !takesToolProgress(isObject(params) ? params.clientCapabilities : undefined);
  }

  wants(method: string, direction: Direction, params?: unknown): boolean {
    if (direction !== 'toClient') return false;
    // Tool calls are followed for a plain client only (the editor that takes the progress follows
    // them itself); the rest of a streamed reply passes this edge by.
    return method === TOOL_PROGRESS_METHOD || (this.plain === true && method === 'session/update' && isToolKind(params));
  }

  handle(notification: IncomingNotification, cx: ComponentContext): void {
    if (!this.plain) return notification.forward();
    if (notification.method === 'session/update') {
      const p = notification.params;
      if (isObject(p) && typeof p.sessionId === 'string' && isToolCallUpdate(p.update)) this.mapper.observe(p.sessionId, p.update);
      return notification.forward();
    }
    // `_symposium/tool_progress`: a plain client would drop it; its tool call's update instead.
    const progress = parseToolProgress(notification.params);
    const update = progress && this.mapper.toUpdate(progress);
    if (progress && update)
      cx.notify('toClient', 'session/update', { sessionId: progress.sessionId, update: withContent(update, progress) });
  }
}

/** Whether a session/update's params carry a tool call or its update (a cheap look at the kind only). */
export function isToolKind(params: unknown): boolean {
  const kind = (params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate;
  return kind === 'tool_call' || kind === 'tool_call_update';
}

/** A tool call or its update with the fields the mapper reads in their ACP types. */
export function isToolCallUpdate(u: unknown): u is SessionUpdate {
  if (!isObject(u) || (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update')) return false;
  const title =
    u.sessionUpdate === 'tool_call'
      ? typeof u.title === 'string'
      : u.title === undefined || u.title === null || typeof u.title === 'string';
  return typeof u.toolCallId === 'string' && title;
}

function withContent(update: SessionUpdate, p: ToolProgressParams): SessionUpdate {
  const share = p.progress !== undefined && p.total ? ` (${Math.round((100 * p.progress) / p.total)} %)` : '';
  return { ...update, content: [{ type: 'content', content: { type: 'text', text: `${p.message}${share}` } }] } as SessionUpdate;
}
