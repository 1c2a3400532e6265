// Progress of an MCP tool call that a component serves in-process (crate download and research,
// Sparkle's embodiment turn), sent two ways: to the calling agent as MCP `notifications/progress`
// when it gave a progress token, and to the editor as `_symposium/tool_progress` with the session
// the tool serves, so the chat can show it live on that tool's card (the conductor does not know
// the agent's toolCallId; the editor attributes it, src/protocol/toolProgressMapper.ts). Throttled: at most
// one report per `intervalMs` per call, the latest one kept and sent when the interval ends, and
// `done()` flushes it, so a fast download does not flood the chat and the last state is never lost.
import { TOOL_PROGRESS_METHOD, type ToolProgressParams } from '../../src/protocol/symposium-ext';
import type { ComponentContext } from '../chain/component';

export interface ProgressTarget {
  cx: ComponentContext;
  sessionId: string;
  server: string;
  tool: string;
  /** The MCP request's `extra` (its progress token and sendNotification), when it has one. */
  mcp?: {
    progressToken?: string | number;
    sendNotification(n: {
      method: 'notifications/progress';
      params: { progressToken: string | number; progress: number; message: string };
    }): Promise<void>;
  };
  intervalMs?: number;
}

export class ToolProgress {
  private last = 0;
  private pending: Omit<ToolProgressParams, 'sessionId' | 'server' | 'tool'> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private step = 0;
  private ended = false;

  constructor(private readonly target: ProgressTarget) {}

  report(message: string, progress?: number, total?: number): void {
    if (this.ended) return;
    this.pending = { message, ...(progress !== undefined ? { progress } : {}), ...(total !== undefined ? { total } : {}) };
    const interval = this.target.intervalMs ?? 250;
    const wait = this.last + interval - Date.now();
    if (wait <= 0) return this.flush();
    this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /** Sends what is pending and stops reporting. */
  done(): void {
    this.flush();
    this.ended = true;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const p = this.pending;
    this.pending = undefined;
    if (!p) return;
    this.last = Date.now();
    const { cx, sessionId, server, tool, mcp } = this.target;
    cx.notify('toClient', TOOL_PROGRESS_METHOD, { sessionId, server, tool, ...p } satisfies ToolProgressParams);
    if (mcp?.progressToken !== undefined)
      void mcp
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: mcp.progressToken, progress: ++this.step, message: p.message },
        })
        .catch(() => undefined);
  }
}
