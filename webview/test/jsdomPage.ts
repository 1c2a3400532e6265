// Test support: a jsdom page for DOM-level tests of the webview with the real mynah-ui. Installs
// the browser globals the webview code and mynah-ui use (plus stubs of what jsdom lacks), and a
// fake VS Code API that records what the page posts and saves.
//
// mynah-ui keeps module-level singletons tied to the first document it ran in, so one page serves
// a whole test file: `newRoot()` empties it for the next app.
import { JSDOM } from 'jsdom';
import type { WebviewToHost } from '../../src/protocol/webview';
import type { VsCodeApi } from '../host';

/** What the page posts to and saves with the extension. */
export class FakeVsCodeApi implements VsCodeApi {
  posted: WebviewToHost[] = [];
  saves = 0;
  constructor(public state: unknown = undefined) {}
  postMessage(message: unknown): void {
    this.posted.push(message as WebviewToHost);
  }
  getState(): unknown {
    return this.state;
  }
  setState(state: unknown): void {
    this.state = state;
    this.saves++;
  }
  /** The posted messages of one type. */
  sent<T extends WebviewToHost['type']>(type: T): Extract<WebviewToHost, { type: T }>[] {
    return this.posted.filter((m): m is Extract<WebviewToHost, { type: T }> => m.type === type);
  }
}

const GLOBALS = [
  'window',
  'self',
  'document',
  'navigator',
  'getComputedStyle',
  'getSelection',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'Node',
  'Element',
  'HTMLElement',
  'HTMLDivElement',
  'HTMLSpanElement',
  'HTMLButtonElement',
  'HTMLInputElement',
  'HTMLTextAreaElement',
  'HTMLImageElement',
  'HTMLAnchorElement',
  'SVGElement',
  'Text',
  'DocumentFragment',
  'Range',
  'Selection',
  'NodeFilter',
  'DOMParser',
  'MutationObserver',
  'Event',
  'CustomEvent',
  'KeyboardEvent',
  'MouseEvent',
  'InputEvent',
  'FocusEvent',
  'MessageEvent',
  'AbortController',
  'AbortSignal',
] as const;

/** Browser APIs jsdom does not have; mynah-ui only needs them to exist. */
class NoopObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
  takeRecords(): [] {
    return [];
  }
}
const matchMedia = (query: string) => ({
  matches: false,
  media: query,
  addListener() {},
  removeListener() {},
  addEventListener() {},
  removeEventListener() {},
});

export class JsdomPage {
  readonly dom = new JSDOM('<!doctype html><html><body><div id="mynah-root"></div></body></html>', {
    pretendToBeVisual: true,
    url: 'https://webview.test/',
  });
  private readonly previous = new Map<string, PropertyDescriptor | undefined>();

  /** Makes this page the global window and document. */
  install(): void {
    const w = this.dom.window as unknown as Record<string, unknown>;
    Object.assign(w, { ResizeObserver: NoopObserver, IntersectionObserver: NoopObserver, matchMedia });
    // The webview reads a prompt draft with innerText, which jsdom lacks (no layout).
    Object.defineProperty(this.dom.window.HTMLElement.prototype, 'innerText', {
      configurable: true,
      get(this: HTMLElement) {
        return this.textContent ?? '';
      },
      set(this: HTMLElement, v: string) {
        this.textContent = v;
      },
    });
    // No layout either: mynah-ui scrolls a menu entry the keyboard moves to into view.
    this.dom.window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView(): void {};
    for (const name of [...GLOBALS, 'ResizeObserver', 'IntersectionObserver', 'matchMedia']) {
      this.previous.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
      Object.defineProperty(globalThis, name, { value: name === 'self' ? w : w[name], configurable: true, writable: true });
    }
  }

  /** Closes the page, then puts the Node globals back. */
  async uninstall(): Promise<void> {
    // Closing empties the document; mynah-ui's mutation observers react (using the globals) first.
    this.dom.window.close();
    await new Promise((r) => setImmediate(r));
    for (const [name, descriptor] of this.previous) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete (globalThis as Record<string, unknown>)[name];
    }
    this.previous.clear();
  }

  get document(): Document {
    return this.dom.window.document;
  }

  /** An empty page for the next app (the previous app's elements are gone). */
  newRoot(): void {
    this.document.body.innerHTML = '<div id="mynah-root"></div>';
  }

  /** A message from the extension host, as VS Code delivers it. */
  fromHost(data: unknown): void {
    this.dom.window.dispatchEvent(new this.dom.window.MessageEvent('message', { data }));
  }

  /** What an element shows: its text without mynah's inline <style> blocks, whitespace collapsed. */
  text(el: Element): string {
    const copy = el.cloneNode(true) as Element;
    for (const s of copy.querySelectorAll('style')) s.remove();
    return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
  }

  /** Types into a contenteditable prompt input, one input event per character, as a browser does. */
  type(input: HTMLElement, text: string): void {
    for (const ch of text) {
      input.textContent = (input.textContent ?? '') + ch;
      input.dispatchEvent(new this.dom.window.InputEvent('input', { bubbles: true, data: ch, inputType: 'insertText' }));
    }
  }

  /**
   * One key pressed in a contenteditable prompt input, as a browser delivers it: keydown (mynah-ui's
   * menus listen there), then, unless a listener prevented it, a character key's text goes in at
   * the end with the caret after it and an input event; then keyup.
   */
  key(input: HTMLElement, key: string): void {
    const w = this.dom.window;
    input.focus();
    const caretAtEnd = (): void => {
      const range = this.document.createRange();
      range.selectNodeContents(input);
      range.collapse(false);
      w.getSelection()?.removeAllRanges();
      w.getSelection()?.addRange(range);
    };
    caretAtEnd();
    const down = new w.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
    input.dispatchEvent(down);
    if (!down.defaultPrevented && key.length === 1) {
      input.append(this.document.createTextNode(key));
      caretAtEnd();
      input.dispatchEvent(new w.InputEvent('input', { bubbles: true, data: key, inputType: 'insertText' }));
    }
    input.dispatchEvent(new w.KeyboardEvent('keyup', { key, bubbles: true }));
  }

  pressEnter(input: HTMLElement): void {
    for (const type of ['keydown', 'keypress', 'keyup'])
      input.dispatchEvent(new this.dom.window.KeyboardEvent(type, { key: 'Enter', code: 'Enter', bubbles: true }));
  }
}
