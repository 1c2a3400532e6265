// The page events the chat app reacts to, in one place: typing in a prompt (drafts), the view
// being shown or hidden, focus leaving the webview, the page going away, and uncaught errors.
// Why each matters: a hidden view may be destroyed next, so state is saved then; showing it again
// asks the host for what it buffered (webview-ready); a draft waiting for its debounced save is
// written when focus leaves (a click in the workbench may hide the view next), and already when
// the pointer leaves the page or a key with Ctrl/Alt/Meta is pressed (a workbench shortcut): a
// save sent on blur races the click that destroys the view, and a fresh-clone e2e run lost it.
export interface PageHandlers {
  /** Input anywhere in the page (mynah's prompt is a contenteditable div inside the tab's wrapper). */
  onInput(e: Event): void;
  onVisible(): void;
  onHidden(): void;
  /** Focus left, or may leave next (pointer out of the page, a shortcut key). */
  onBlur(): void;
  onPageHide(): void;
  log(message: string): void;
}

/** Listens until `signal` aborts. */
export function listenToPage(signal: AbortSignal, h: PageHandlers): void {
  document.addEventListener('input', (e) => h.onInput(e), { capture: true, signal });
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? h.onVisible() : h.onHidden()), { signal });
  window.addEventListener('blur', () => h.onBlur(), { signal });
  document.documentElement.addEventListener('mouseleave', () => h.onBlur(), { signal });
  // Not AltGr (Ctrl+Alt on Windows), which types characters such as @ on many layouts.
  const shortcut = (e: KeyboardEvent): boolean => (e.ctrlKey || e.altKey || e.metaKey) && !e.getModifierState('AltGraph');
  document.addEventListener('keydown', (e) => (shortcut(e) ? h.onBlur() : undefined), { capture: true, signal });
  window.addEventListener('pagehide', () => h.onPageHide(), { signal });
  window.addEventListener('error', (e) => h.log(`webview error: ${e.message}`), { signal });
  window.addEventListener('unhandledrejection', (e) => h.log(`webview unhandled rejection: ${String(e.reason)}`), { signal });
}
