// Images pasted or dropped onto a chat prompt (the webview's `attach-image`). The bytes stay here,
// under a fresh `symposium-image:<uuid>` id; the tab gets an ordinary context item (an attachment
// chip, like an @-attached image) and the prompt that carries it gets an ACP `image` block. Refused
// with a notice: over the size limit (symposium.maxImageBytes), or an agent that takes no images.
// A context source like the workspace, so prompts resolve every attachment the same way. vscode-free.
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { PASTED_IMAGE_SCHEME, type AttachImage, type ContextRef } from '../protocol/webview';
import { base64Bytes } from '../protocol/webviewMessages';
import { Emitter } from '../util/emitter';
import type { ContextSource } from './contextSource';

/** Images kept at most (the oldest go first): a paste that is never sent does not pin memory for long. */
const KEPT = 20;

export const formatBytes = (n: number): string =>
  n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} bytes`;

export type AttachOutcome = { ok: true; item: ContextRef } | { ok: false; notice: string };

export class PastedImages implements ContextSource {
  readonly name = 'pasted images';
  readonly kinds = ['image'] as const;
  private readonly images = new Map<string, { data: string; mimeType: string; name: string }>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  /** Pasted images only; workspace images (file: URIs) belong to the workspace source. */
  handles(ref: ContextRef): boolean {
    return ref.kind === 'image' && ref.uri.startsWith(PASTED_IMAGE_SCHEME);
  }

  /**
   * Keeps a pasted image, or says why not. `caps` is what the tab's agent accepts (undefined while
   * its session starts: accepted now, checked again when the prompt is sent).
   */
  attach(m: AttachImage, caps: PromptCapabilities | undefined, maxBytes: number): AttachOutcome {
    const what = `The image "${m.name}" (${formatBytes(m.size)})`;
    if (m.size > maxBytes || m.data === undefined)
      return { ok: false, notice: `${what} is larger than ${formatBytes(maxBytes)} (symposium.maxImageBytes), so it was not attached.` };
    if (base64Bytes(m.data) !== m.size) return { ok: false, notice: `${what} could not be read.` };
    if (caps && !caps.image) return { ok: false, notice: `${what} was not attached: this agent does not accept images.` };
    const id = randomUUID();
    this.images.set(id, { data: m.data, mimeType: m.mimeType, name: m.name });
    while (this.images.size > KEPT) this.images.delete(this.images.keys().next().value!);
    return { ok: true, item: { kind: 'image', uri: `${PASTED_IMAGE_SCHEME}${id}`, name: m.name } };
  }

  list(): Promise<ContextRef[]> {
    return Promise.resolve([]); // pasted images are not offered in the `@` menu
  }

  async resolve(refs: ContextRef[], caps: PromptCapabilities): Promise<ContentBlock[]> {
    return refs.map((ref) => {
      const image = this.images.get(ref.uri.slice(PASTED_IMAGE_SCHEME.length));
      if (!image) throw new Error(`The pasted image "${ref.name}" is no longer available; paste it again.`);
      if (!caps.image) throw new Error(`This agent does not accept images, so "${ref.name}" cannot be sent.`);
      return { type: 'image' as const, data: image.data, mimeType: image.mimeType };
    });
  }

  dispose(): void {
    this.images.clear();
    this.changed.dispose();
  }
}
