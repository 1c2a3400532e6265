// What the e2e and bench drivers put on the pages they drive (in page.evaluate callbacks), and
// chromium's extras they read: for tsconfig.scripts.json's check of scripts/*.mjs.
export {};

declare global {
  interface Window {
    /** chatPace.mjs: the reply being watched, and what the watcher saw last. */
    __reply?: Promise<Record<string, unknown>>;
    __seen?: { before: number; now: number; last: string; ms: number };
    /** webview-e2e.mjs: set on a webview's window to tell a re-created one from the old. */
    __symposiumMarker?: string;
    /** chromium with --expose-gc. */
    gc?: () => void;
  }
  interface Performance {
    /** chromium's heap figures. */
    memory?: { usedJSHeapSize: number };
  }
}
