// The webview's side of the host channel: typed posting, saved state, and a shape check on what
// arrives (the host is trusted, but a malformed message must not break the chat).
import type { HostToWebview, WebviewToHost } from '../src/protocol/webview';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export class Host {
  // acquireVsCodeApi may be called only once per page.
  private readonly api: VsCodeApi = acquireVsCodeApi();

  post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    this.post({ type: 'log', level, message: message.slice(0, 10_000) });
  }
}

const HOST_TYPES = new Set<HostToWebview['type']>([
  'open-tab', 'session-ready', 'prompt-started', 'agent-update', 'prompt-ended', 'prompt-failed',
  'agent-failed', 'agent-restarted', 'resync', 'query-rendered',
  'controls-changed', 'permission-requested', 'permission-resolved', 'tab-notice', 'terminal-output', 'attach-context',
]);

export function isHostMessage(v: unknown): v is HostToWebview {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  if (m.type === 'context-items') return Array.isArray(m.items);
  return typeof m.type === 'string' && HOST_TYPES.has(m.type as HostToWebview['type'])
    && typeof m.tabId === 'string' && typeof m.index === 'number' && Number.isSafeInteger(m.index);
}
