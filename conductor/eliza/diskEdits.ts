// Hooks that change files on disk by themselves, as Codex, Gemini CLI or OpenCode do with their own
// tools: no fs/* request reaches the client, only a tool call that says what was done. They let the
// checkpoint tests (docs/checkpoints.md) see changes the editor never took part in. Paths are
// resolved against the session's folder and must stay inside it (links followed).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { confine } from '../../src/node/confinement';
import { nextToolCallId, resolvePath } from './client-calls';
import { errorMessage, sendUpdate } from './turn-context';
import type { Turn } from './turn-context';

export type DiskEdit =
  | { op: 'save'; path: string; content: string }
  | { op: 'replace'; path: string; old: string; new: string }
  | { op: 'delete'; path: string };

const TITLES = { save: 'Save', replace: 'Edit', delete: 'Delete' } as const;

/** Does one edit on disk, shown as a completed (or failed) tool call; returns the reply. */
export async function diskEditHook(turn: Turn, edit: DiskEdit): Promise<string> {
  const requested = resolvePath(turn, edit.path);
  const toolCallId = nextToolCallId('disk');
  const kind = edit.op === 'delete' ? 'delete' : 'edit';
  await sendUpdate(turn, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `${TITLES[edit.op]} ${requested}`,
    kind,
    status: 'in_progress',
    locations: [{ path: requested }],
  });
  let reply: string;
  let ok = false;
  try {
    const file = confine(requested, [turn.session.cwd], { scope: "the session's folder" });
    if (edit.op === 'save') {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, edit.content);
      reply = `Saved ${requested} on disk`;
    } else if (edit.op === 'replace') {
      const text = fs.readFileSync(file, 'utf8');
      if (!text.includes(edit.old)) throw new Error(`'${edit.old}' is not in the file`);
      fs.writeFileSync(file, text.split(edit.old).join(edit.new));
      reply = `Edited ${requested} on disk`;
    } else {
      fs.rmSync(file);
      reply = `Deleted ${requested} on disk`;
    }
    ok = true;
  } catch (err) {
    reply = `Error changing ${requested}: ${errorMessage(err)}`;
  }
  await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: ok ? 'completed' : 'failed' });
  return reply;
}
