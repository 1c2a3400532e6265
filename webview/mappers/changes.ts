// The "N files changed" card at the end of a turn: its files (added / modified / deleted, lines
// +/-), each with Keep and Revert until the user chose, and the buttons Review changes and Revert
// all. A click on a file opens its diff (before the turn ↔ now). Pure: the card's model in, a
// mynah-ui ChatItem out; and the card's clicks → the message for the host.
import type { ChatItem, ChatItemButton, ChatItemType } from '@aws/mynah-ui';
import { changedFileLabel, type ChangedFile, type CheckpointAction, type FilesChanged } from '../../src/protocol/checkpoints';
import type { Conversation, Notice } from '../../src/protocol/conversation';
import { escapeInline } from './markdown';

export const REVIEW_CHANGES_BUTTON_ID = 'checkpoint-review';
export const REVERT_ALL_BUTTON_ID = 'checkpoint-revert-all';
export const RESTORE_CHECKPOINT_BUTTON_ID = 'checkpoint-restore';
export const EDIT_AND_RESEND_BUTTON_ID = 'checkpoint-edit-resend';

/** On a prompt with a checkpoint: its text back into the input; sent, it replaces the turns from there on. */
export const editAndResendButton = (): ChatItemButton => ({
  id: EDIT_AND_RESEND_BUTTON_ID,
  text: 'Edit and resend',
  status: 'clear',
  keepCardAfterClick: true,
  description: 'Put the files back as before this prompt, then send it again as you edit it (in a new session)',
});

/** "Edit and resend" on a prompt item: which turn, and its text (undefined: not that button, or no checkpoint). */
export function editAndResendOf(
  conv: Conversation,
  itemId: string | undefined,
  buttonId: string,
): { messageId: string; text: string } | undefined {
  if (buttonId !== EDIT_AND_RESEND_BUTTON_ID) return undefined;
  const turnId = itemId?.endsWith(':prompt') ? itemId.slice(0, -':prompt'.length) : undefined;
  const turn = conv.blocks.find((b) => b.kind === 'turn' && b.messageId === turnId);
  return turn?.kind === 'turn' && turn.checkpoint ? { messageId: turn.messageId, text: turn.prompt } : undefined;
}

/** On a prompt with a checkpoint: put every file back as it was before this prompt (the host asks first). */
export const restoreCheckpointButton = (): ChatItemButton => ({
  id: RESTORE_CHECKPOINT_BUTTON_ID,
  text: 'Restore checkpoint',
  status: 'clear',
  keepCardAfterClick: true,
  description: 'Put every file back as it was before this prompt',
});

type Card = Omit<FilesChanged, 'type' | 'tabId'>;

const severalFolders = (card: Card): boolean => new Set(card.files.map((f) => f.folder)).size > 1;

function lineCounts(f: ChangedFile): string {
  if (f.added === undefined) return f.kind === 'modified' ? 'binary' : f.kind;
  return `+${f.added} −${f.removed ?? 0}`;
}

export function changesToChatItem(card: Card, messageId: string): ChatItem {
  const several = severalFolders(card);
  const labels = card.files.map((f) => changedFileLabel(f, several));
  const open = card.files.filter((f) => !f.state);
  const added = card.files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = card.files.reduce((n, f) => n + (f.removed ?? 0), 0);
  const count = card.files.length;
  const lines: string[] = [];
  for (const state of ['reverted', 'kept'] as const) {
    const named = card.files.flatMap((f, i) => (f.state === state ? [`\`${escapeInline(labels[i]!)}\``] : []));
    if (named.length) lines.push(`${state === 'reverted' ? 'Reverted' : 'Kept'}: ${named.join(', ')}`);
  }
  if (card.note) lines.push(`_${escapeInline(card.note)}_`);
  if (card.leftOut?.length)
    lines.push(`Not in the checkpoint (too large, or another repository): ${card.leftOut.map((p) => `\`${escapeInline(p)}\``).join(', ')}`);
  const buttons: ChatItemButton[] = [{ id: REVIEW_CHANGES_BUTTON_ID, text: 'Review changes', status: 'primary', keepCardAfterClick: true }];
  if (open.length > 0) buttons.push({ id: REVERT_ALL_BUTTON_ID, text: 'Revert all', status: 'main', keepCardAfterClick: true });
  return {
    type: 'answer' as ChatItemType.ANSWER,
    messageId,
    header: {
      icon: 'file',
      body: `${count} ${count === 1 ? 'file' : 'files'} changed`,
      status: { status: 'info', text: `+${added} −${removed}`, position: 'right' },
    },
    ...(lines.length ? { body: lines.join('\n\n') } : {}),
    fileList: {
      fileTreeTitle: 'Changed files',
      filePaths: labels,
      deletedFiles: card.files.flatMap((f, i) => (f.kind === 'deleted' ? [labels[i]!] : [])),
      flatList: true,
      hideFileCount: true,
      collapsed: false,
      details: Object.fromEntries(
        card.files.map((f, i) => [
          labels[i]!,
          {
            description: f.state ? `${lineCounts(f)} · ${f.state}` : `${lineCounts(f)} · ${f.kind}`,
            clickable: true,
            data: { checkpoint: 'open' },
          },
        ]),
      ),
      actions: Object.fromEntries(
        card.files.map((f, i) => [
          labels[i]!,
          f.state
            ? []
            : [
                { name: 'keep', label: 'Keep', icon: 'ok', description: 'Keep this change' },
                { name: 'revert', label: 'Revert', icon: 'undo', description: 'Put the file back as it was before the turn' },
              ],
        ]),
      ),
    },
    buttons: buttons.reverse(), // mynah v4 renders buttons in reverse order
  };
}

/** The card a chat item shows (its item id is the card's block id). */
function cardOf(conv: Conversation, itemId: string | undefined): Card | undefined {
  const n = conv.blocks.find((b): b is Notice => b.kind === 'notice' && `notice:${b.id}` === itemId);
  return n?.changes;
}

/** A card button → the message for the host (undefined: not a card button, or its card is gone). */
export function changesButtonAction(
  conv: Conversation,
  tabId: string,
  itemId: string | undefined,
  buttonId: string,
): CheckpointAction | undefined {
  if (buttonId === RESTORE_CHECKPOINT_BUTTON_ID) {
    const turnId = itemId?.endsWith(':prompt') ? itemId.slice(0, -':prompt'.length) : undefined;
    const turn = conv.blocks.find((b) => b.kind === 'turn' && b.messageId === turnId);
    return turn?.kind === 'turn' && turn.checkpoint
      ? { type: 'checkpoint-action', tabId, messageId: turn.messageId, action: 'restore' }
      : undefined;
  }
  if (buttonId !== REVIEW_CHANGES_BUTTON_ID && buttonId !== REVERT_ALL_BUTTON_ID) return undefined;
  const card = cardOf(conv, itemId);
  if (!card) return undefined;
  return {
    type: 'checkpoint-action',
    tabId,
    messageId: card.messageId,
    action: buttonId === REVIEW_CHANGES_BUTTON_ID ? 'review' : 'revert-all',
  };
}

/** A click on a file of the card (`open`), or one of its actions (`keep`, `revert`). */
export function changesFileAction(
  conv: Conversation,
  tabId: string,
  itemId: string | undefined,
  label: string,
  action: string,
): CheckpointAction | undefined {
  if (action !== 'open' && action !== 'keep' && action !== 'revert') return undefined;
  const card = cardOf(conv, itemId);
  if (!card) return undefined;
  const several = severalFolders(card);
  const file = card.files.find((f) => changedFileLabel(f, several) === label);
  return file ? { type: 'checkpoint-action', tabId, messageId: card.messageId, action, folder: file.folder, path: file.path } : undefined;
}
