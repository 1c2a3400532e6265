// Tool progress from the conductor (`_symposium/tool_progress`, from components that serve MCP tools
// in-process) → an ACP `tool_call_update` of the card it belongs to. The conductor knows the
// session and the MCP tool but not the agent's toolCallId for that call, so this watches the
// session's tool calls as they stream and picks the latest one still running whose title names the
// tool (else the latest running one). The update carries only `status: in_progress` and
// `_meta.symposium.progress {message, progress, total}`: it replaces the card's progress line and
// keeps everything else. No running card: the progress is dropped. vscode-free, pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { PROGRESS_META_FIELD, SYMPOSIUM_META_KEY, type ToolProgressParams } from './symposium-ext';

interface Running {
  toolCallId: string;
  title: string;
}

/** At most this many sessions' running calls are remembered (the oldest go). */
const SESSIONS = 200;

export class ToolProgressMapper {
  /** Per session: tool calls not yet completed or failed, oldest first. */
  private readonly running = new Map<string, Running[]>();

  /** Follows one session/update. */
  observe(sessionId: string, update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const list = this.running.get(sessionId) ?? [];
    const at = list.findIndex((r) => r.toolCallId === update.toolCallId);
    const done = update.status === 'completed' || update.status === 'failed';
    if (done) {
      if (at >= 0) list.splice(at, 1);
    } else if (at >= 0) {
      if (update.title) list[at]!.title = update.title;
    } else if (update.sessionUpdate === 'tool_call') {
      list.push({ toolCallId: update.toolCallId, title: update.title });
    }
    this.running.delete(sessionId);
    if (list.length) this.running.set(sessionId, list.slice(-50));
    while (this.running.size > SESSIONS) this.running.delete(this.running.keys().next().value!);
  }

  /** The update that shows `p` on its card, or undefined when no card of that session is running. */
  toUpdate(p: ToolProgressParams): SessionUpdate | undefined {
    const toolCallId = this.runningCall(p.sessionId, p.tool);
    if (toolCallId === undefined) return undefined;
    const progress = {
      message: p.message,
      ...(p.progress !== undefined ? { progress: p.progress } : {}),
      ...(p.total !== undefined ? { total: p.total } : {}),
    };
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'in_progress',
      _meta: { [SYMPOSIUM_META_KEY]: { [PROGRESS_META_FIELD]: progress } },
    };
  }

  /** The latest running tool call of the session whose title names `tool` (else the latest running one), if any. */
  runningCall(sessionId: string, tool: string | undefined): string | undefined {
    const list = this.running.get(sessionId) ?? [];
    const named = tool === undefined ? undefined : [...list].reverse().find((r) => r.title.includes(tool));
    return (named ?? list.at(-1))?.toolCallId;
  }

  forget(sessionId: string): void {
    this.running.delete(sessionId);
  }
}
