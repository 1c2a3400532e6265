// The page events the chat app reacts to, in one place: typing in a prompt (drafts), the view
// being shown or hidden, focus leaving the webview, the page going away, and uncaught errors.
// Why each matters: a hidden view may be destroyed next, so state is saved then; showing it again
// asks the host for what it buffered (webview-ready); a draft waiting for its debounced save is
// written when focus leaves (a click in the workbench may hide the view next).
export interface PageHandlers {
  /** Input anywhere in the page (mynah's prompt is a contenteditable div inside the tab's wrapper). */
  onInput(e: Event): void;
  onVisible(): void;
  onHidden(): void;
  onBlur(): void;
  onPageHide(): void;
  log(message: string): void;
}

/** Listens until `signal` aborts. */
export function listenToPage(signal: AbortSignal, h: PageHandlers): void {
  document.addEventListener('input', (e) => h.onInput(e), { capture: true, signal });
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? h.onVisible() : h.onHidden()), { signal });
  window.addEventListener('blur', () => h.onBlur(), { signal });
  window.addEventListener('pagehide', () => h.onPageHide(), { signal });
  window.addEventListener('error', (e) => h.log(`webview error: ${e.message}`), { signal });
  window.addEventListener('unhandledrejection', (e) => h.log(`webview unhandled rejection: ${String(e.reason)}`), { signal });
}
