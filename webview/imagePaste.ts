// Images pasted or dropped onto a chat tab's prompt. mynah-ui 4.39 has no hook for this, so we
// listen on the page (capture phase) for `paste` and `drop` events whose target is inside a tab's
// prompt area, take the image files from `clipboardData.items` / `dataTransfer.files`, and hand
// each to the host as a validated `attach-image` (base64 + MIME type + name + size). An image over
// the limit goes without its bytes, so the host refuses it with a notice in the tab. A paste with
// no image (text) is left alone: mynah's normal paste happens.
import { IMAGE_MIME_TYPES, type AttachImage, type TabId } from '../src/protocol/webview';

/** The part of the page a paste or drop counts for: a tab's prompt input area. */
const PROMPT_AREA = '.mynah-chat-prompt-wrapper, .mynah-chat-prompt, .mynah-chat-prompt-input';

export interface ImagePasteOptions {
  /** The protocol tab of a mynah tab id (undefined: not ours). */
  tabOf(mynahTabId: string): TabId | undefined;
  post(m: AttachImage): void;
  /** The largest image sent with its bytes. */
  maxBytes: number;
  signal: AbortSignal;
}

/** Image files in a paste or drop, in order (none for text). */
export function imageFiles(e: Event): File[] {
  const files: File[] = [];
  if (e.type === 'paste') {
    for (const item of Array.from((e as ClipboardEvent).clipboardData?.items ?? [])) {
      const f = item.kind === 'file' ? item.getAsFile() : null;
      if (f && IMAGE_MIME_TYPES.includes(f.type)) files.push(f);
    }
  } else {
    for (const f of Array.from((e as DragEvent).dataTransfer?.files ?? [])) if (IMAGE_MIME_TYPES.includes(f.type)) files.push(f);
  }
  return files;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** The `attach-image` for one file (without bytes when over the limit). */
export async function attachMessage(tabId: TabId, file: File, maxBytes: number, index = 0): Promise<AttachImage> {
  const name = file.name || `pasted-image-${index + 1}.${file.type.slice('image/'.length)}`;
  const m: AttachImage = { type: 'attach-image', tabId, name: name.slice(0, 500), mimeType: file.type, size: file.size };
  if (file.size > 0 && file.size <= maxBytes) m.data = toBase64(new Uint8Array(await file.arrayBuffer()));
  return m;
}

export function listenForImages(o: ImagePasteOptions): void {
  const onEvent = (e: Event): void => {
    const target = e.target;
    if (!(target instanceof Element) || !target.closest(PROMPT_AREA)) return;
    const mynahTabId = target.closest('[mynah-tab-id]')?.getAttribute('mynah-tab-id');
    const tabId = mynahTabId ? o.tabOf(mynahTabId) : undefined;
    const files = imageFiles(e);
    if (!tabId || files.length === 0) return; // text: mynah's own paste
    e.preventDefault();
    e.stopPropagation();
    files.forEach((f, i) => void attachMessage(tabId, f, o.maxBytes, i).then(o.post));
  };
  document.addEventListener('paste', onEvent, { capture: true, signal: o.signal });
  document.addEventListener('drop', onEvent, { capture: true, signal: o.signal });
  // Without this the browser opens a dropped file instead of firing `drop` on the prompt.
  document.addEventListener(
    'dragover',
    (e) => {
      if (e.target instanceof Element && e.target.closest(PROMPT_AREA) && e.dataTransfer?.types.includes('Files')) e.preventDefault();
    },
    { capture: true, signal: o.signal },
  );
}
