// The webview's side of the host channel: typed posting, saved state, and a shape check on what
// arrives (the host is trusted, but a malformed message must not break the chat).
import { HOST_TO_WEBVIEW_TYPES, type HostToWebview, type WebviewToHost } from '../src/protocol/webview';

/** What VS Code gives the page (acquireVsCodeApi); a DOM test passes a fake one. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export class Host {
  // acquireVsCodeApi may be called only once per page.
  constructor(private readonly api: VsCodeApi = acquireVsCodeApi()) {}

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

const HOST_TYPES: ReadonlySet<string> = new Set(HOST_TO_WEBVIEW_TYPES);

export function isHostMessage(v: unknown): v is HostToWebview {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  // Global, not part of a tab's sequence: no tabId, no index.
  if (m.type === 'context-items') return Array.isArray(m.items);
  return (
    typeof m.type === 'string' &&
    HOST_TYPES.has(m.type) &&
    typeof m.tabId === 'string' &&
    typeof m.index === 'number' &&
    Number.isSafeInteger(m.index)
  );
}
