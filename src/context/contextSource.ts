// What a source of @-mention context provides, so the `@` menu and prompts treat every source
// alike: the workspace (files, folders, symbols, images, the selection; workspaceSource.ts), pasted
// images (pastedImages.ts) and OpenCtx providers' mentions (openctxSource.ts). A source lists its items for the menu, says when that list may have
// changed, and turns the items the user chose into ACP content blocks for the prompt.
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import type { ContextRef } from '../protocol/webview';
import type { Disposable } from '../node/disposable';
import type { Event } from '../util/emitter';

export interface ContextSource extends Disposable {
  /** For the log. */
  readonly name: string;
  /** The kinds of item this source lists and resolves. */
  readonly kinds: readonly ContextRef['kind'][];
  /** Whether this source resolves `ref` (when absent: any ref of its kinds). Asked in source order. */
  handles?(ref: ContextRef): boolean;
  /** What the source offers in the `@` menu right now. */
  list(): Promise<ContextRef[]>;
  /** Fires when list() may give something else. */
  readonly onDidChange: Event<void>;
  /**
   * Chosen items → content blocks. `folder` is the chat's workspace folder (paths must stay in it
   * or an allowed folder); `message` the prompt's text (OpenCtx providers get it with `items`).
   */
  resolve(refs: ContextRef[], caps: PromptCapabilities, folder: string, message: string): Promise<ContentBlock[]>;
}
