// Turn checkpoints over real git and real folders: a snapshot as the prompt starts (the prompt does
// not wait for it, an fs/write does), the "files changed" card when the turn ends, Keep / Revert /
// Revert all from the card (unsaved editors named and skipped), several folders, and the
// checkpoints deleted with the conversation.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { silentLog } from '../log/logEvent';
import { DEFAULT_LIMITS } from '../node/checkpointRepo';
import type { FilesChanged } from '../protocol/checkpoints';
import type { TabPayload } from '../protocol/webview';
import { HistoryStore } from '../history/historyStore';
import { type RestorePreview, TurnCheckpoints } from './turnCheckpoints';

const TAB = '11111111-1111-4111-8111-111111111111';
const TURN1 = '22222222-2222-4222-8222-222222222222';
const TURN2 = '33333333-3333-4333-8333-333333333333';

function folderWith(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-turn-ws-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
    // They were there well before the prompt (a checkpoint takes what changed since it started as the agent's).
    fs.utimesSync(path.join(root, rel), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  }
  return root;
}

interface Setup {
  checkpoints: TurnCheckpoints;
  cards: FilesChanged[];
  notices: string[];
  /** What the last restore confirmation listed, and the answer the next one gets. */
  asked: RestorePreview[][];
  answer: { next: 'restore' | 'include-unsaved' | undefined };
}

function setup(folders: string[], unsaved: string[] = []): Setup {
  const cards: FilesChanged[] = [];
  const notices: string[] = [];
  const asked: RestorePreview[][] = [];
  const answer: Setup['answer'] = { next: 'restore' };
  const checkpoints = new TurnCheckpoints({
    log: silentLog,
    storageRoot: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-turn-store-')),
    enabled: () => true,
    limits: () => DEFAULT_LIMITS,
    maxBytes: () => 500 * 1024 * 1024,
    foldersOf: () => folders,
    conversationOf: () => 'conversation-1',
    send: (p: TabPayload) => {
      if (p.type === 'files-changed') cards.push(p);
      if (p.type === 'tab-notice') notices.push(p.text);
    },
    editor: {
      unsavedFiles: () => unsaved,
      openDiff: async () => undefined,
      review: async () => undefined,
      confirmRestore: async (files) => {
        asked.push(files);
        return answer.next;
      },
    },
  });
  return { checkpoints, cards, notices, asked, answer };
}

const summary = (card: FilesChanged | undefined): string[] =>
  (card?.files ?? []).map(
    (f) => `${f.kind} ${f.path}${f.added !== undefined ? ` +${f.added} -${f.removed}` : ''}${f.state ? ` ${f.state}` : ''}`,
  );

describe('turn checkpoints (src/checkpoints/turnCheckpoints.ts)', () => {
  it('shows what a turn changed on disk, by any means, and nothing for a turn that changed nothing', async () => {
    const ws = folderWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const { checkpoints, cards } = setup([ws]);
    checkpoints.turnStarted(TAB, TURN1);
    // An fs/write waits for the snapshot, so the checkpoint holds the file as it was.
    await checkpoints.beforeWrite(path.join(ws, 'a.txt'));
    fs.writeFileSync(path.join(ws, 'a.txt'), 'A\nmore\n');
    fs.rmSync(path.join(ws, 'b.txt'));
    fs.writeFileSync(path.join(ws, 'c.txt'), 'c\n');
    await checkpoints.turnEnded(TAB, TURN1);
    assert.equal(cards.length, 1);
    assert.deepEqual(summary(cards[0]), ['modified a.txt +2 -1', 'deleted b.txt +0 -1', 'added c.txt +1 -0']);
    assert.equal(cards[0]!.messageId, TURN1);

    checkpoints.turnStarted(TAB, TURN2);
    await checkpoints.turnEnded(TAB, TURN2);
    assert.equal(cards.length, 1, 'no card for a turn without changes');
  });

  it("the next turn's first write through the editor, at once after the end, is the next turn's, not this one's", async () => {
    const ws = folderWith({ 'a.txt': 'a\n' });
    const { checkpoints, cards } = setup([ws]);
    checkpoints.turnStarted(TAB, TURN1);
    const endedAt = Date.now();
    const ended = checkpoints.turnEnded(TAB, TURN1);
    // The user sends the next prompt right away and the agent writes through the editor within a
    // tick: the file's time, from the kernel's coarse clock, can then fall before the first turn's end.
    checkpoints.turnStarted(TAB, TURN2);
    await checkpoints.beforeWrite(path.join(ws, 'next.txt'));
    fs.writeFileSync(path.join(ws, 'next.txt'), 'n\n');
    fs.utimesSync(path.join(ws, 'next.txt'), new Date(endedAt - 2), new Date(endedAt - 2));
    await ended;
    assert.equal(cards.length, 0, 'no card for the first turn, which changed nothing');
    await checkpoints.turnEnded(TAB, TURN2);
    assert.deepEqual(summary(cards.at(-1)), ['added next.txt +1 -0']);
    assert.equal(cards.at(-1)!.messageId, TURN2);
  });

  it("the agent's own first write of the next turn, right after the end, is the next turn's: the prompt waits until the end is recorded", async () => {
    const ws = folderWith({ 'a.txt': 'a\n' });
    const { checkpoints, cards } = setup([ws]);
    checkpoints.turnStarted(TAB, TURN1);
    const ended = checkpoints.turnEnded(TAB, TURN1);
    // The next prompt (runPromptTurn) waits here before it reaches the agent, which then writes by
    // itself (no fs/write to wait on), within a tick: its file time can fall before the turn's end.
    await checkpoints.lastTurnRecorded(TAB);
    const nextStarted = Date.now();
    checkpoints.turnStarted(TAB, TURN2);
    fs.writeFileSync(path.join(ws, 'own.txt'), 'o\n');
    // Written as the next turn starts, its time a few ms behind (within the start's slack): without
    // the wait above, that is before the first turn's end.
    const written = nextStarted - 6;
    fs.utimesSync(path.join(ws, 'own.txt'), new Date(written), new Date(written));
    await ended;
    assert.equal(cards.length, 0, 'no card for the first turn, which changed nothing');
    await checkpoints.turnEnded(TAB, TURN2);
    assert.deepEqual(summary(cards.at(-1)), ['added own.txt +1 -0']);
    assert.equal(cards.at(-1)!.messageId, TURN2);
    await checkpoints.lastTurnRecorded('another-tab'); // a tab without turns: at once
  });

  it("holds the files as they were when the agent's own writes come before the snapshot has read them", async () => {
    const ws = folderWith({ 'a.txt': 'a\n', 'gone.txt': 'g\n' });
    const { checkpoints, cards } = setup([ws]);
    // The session starts: the folder is read (what the first checkpoint falls back on).
    checkpoints.sessionStarted(TAB);
    await checkpoints.beforeWrite(path.join(ws, 'a.txt'));
    // The agent writes at once, on disk, before git has even started.
    checkpoints.turnStarted(TAB, TURN2);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'agent\n');
    fs.writeFileSync(path.join(ws, 'new.txt'), 'n\n');
    fs.rmSync(path.join(ws, 'gone.txt'));
    await checkpoints.turnEnded(TAB, TURN2);
    assert.deepEqual(summary(cards.at(-1)), ['modified a.txt +1 -1', 'deleted gone.txt +0 -1', 'added new.txt +1 -0']);
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN2, action: 'revert-all' });
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a\n');
    assert.equal(fs.readFileSync(path.join(ws, 'gone.txt'), 'utf8'), 'g\n');
  });

  it('never takes a file the agent changed before it was ever read for a new one (a revert would delete it)', async () => {
    const ws = folderWith({ 'old.txt': 'old\n' });
    const { checkpoints, cards } = setup([ws]);
    // The file was made before the prompt by more than the file clock's slack.
    const born = fs.statSync(path.join(ws, 'old.txt')).birthtimeMs;
    while (Date.now() < born + 30) await new Promise((r) => setImmediate(r));
    checkpoints.turnStarted(TAB, TURN1);
    fs.writeFileSync(path.join(ws, 'old.txt'), 'agent\n');
    fs.writeFileSync(path.join(ws, 'made.txt'), 'm\n');
    await checkpoints.turnEnded(TAB, TURN1);
    assert.deepEqual(summary(cards.at(-1)), ['added made.txt +1 -0'], 'the file made in the turn is new; the other one nobody read');
    assert.deepEqual(cards.at(-1)!.leftOut, ['old.txt']);
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN1, action: 'revert-all' });
    assert.equal(fs.readFileSync(path.join(ws, 'old.txt'), 'utf8'), 'agent\n', 'not deleted');
    assert.ok(!fs.existsSync(path.join(ws, 'made.txt')));
  });

  it('keeps and reverts files from the card; an unsaved editor is named and left alone', async () => {
    const ws = folderWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const { checkpoints, cards } = setup([ws], [path.join(ws, 'c.txt')]);
    checkpoints.turnStarted(TAB, TURN1);
    await checkpoints.beforeWrite(path.join(ws, 'a.txt'));
    for (const f of ['a.txt', 'b.txt', 'c.txt']) fs.writeFileSync(path.join(ws, f), 'changed\n');
    fs.writeFileSync(path.join(ws, 'new.txt'), 'n\n');
    await checkpoints.turnEnded(TAB, TURN1);
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN1, action: 'keep', folder: ws, path: 'a.txt' });
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN1, action: 'revert', folder: ws, path: 'b.txt' });
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'b\n');
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN1, action: 'revert-all' });
    const last = cards.at(-1)!;
    assert.deepEqual(summary(last), [
      'modified a.txt +1 -1 kept',
      'modified b.txt +1 -1 reverted',
      'modified c.txt +1 -1',
      'added new.txt +1 -0 reverted',
    ]);
    assert.match(last.note ?? '', /c\.txt has unsaved changes: not reverted/);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'changed\n', 'kept');
    assert.equal(fs.readFileSync(path.join(ws, 'c.txt'), 'utf8'), 'changed\n', 'unsaved: left alone');
    assert.ok(!fs.existsSync(path.join(ws, 'new.txt')), 'an added file goes');
    // A file the card does not list, or another tab, is refused.
    fs.writeFileSync(path.join(ws, 'a.txt'), 'x\n');
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN1, action: 'revert', folder: ws, path: '../outside' });
    await checkpoints.action({ type: 'checkpoint-action', tabId: TURN2, messageId: TURN1, action: 'revert-all' });
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'x\n');
  });

  it('checkpoints each folder the session may touch, and deletes them with the conversation', async () => {
    const ws = folderWith({ 'a.txt': 'a\n' });
    const other = folderWith({ 'o.txt': 'o\n' });
    const { checkpoints, cards } = setup([ws, other, path.join(ws, 'a.txt')]);
    checkpoints.turnStarted(TAB, TURN1);
    await checkpoints.beforeWrite(path.join(other, 'o.txt'));
    fs.writeFileSync(path.join(ws, 'a.txt'), 'A\n');
    fs.writeFileSync(path.join(other, 'o.txt'), 'O\n');
    await checkpoints.turnEnded(TAB, TURN1);
    assert.deepEqual(
      cards[0]!.files.map((f) => [f.folder, f.path]),
      [
        [ws, 'a.txt'],
        [other, 'o.txt'],
      ].sort((x, y) => x[0]!.localeCompare(y[0]!)),
    );
    assert.deepEqual(
      (await checkpoints.repoFor(ws).list('conversation-1')).map((c) => c.id),
      [TURN1, `${TURN1}-end`],
      'the folder as the turn started and as it ended',
    );
    await checkpoints.deleteConversation('conversation-1');
    assert.deepEqual(await checkpoints.repoFor(ws).list('conversation-1'), []);
    assert.deepEqual(await checkpoints.repoFor(other).list('conversation-1'), []);
  });

  it('Restore checkpoint puts every file back as before a prompt, after a confirmation naming what changes, what the user changed since and unsaved files', async () => {
    const ws = folderWith({ 'a.txt': 'a\n', 'c.txt': 'c\n', 'u.txt': 'u\n' });
    const { checkpoints, notices, asked, answer } = setup([ws], [path.join(ws, 'u.txt')]);
    checkpoints.sessionStarted(TAB);
    await checkpoints.beforeWrite(path.join(ws, 'a.txt'));
    checkpoints.turnStarted(TAB, TURN1);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'agent 1\n');
    fs.writeFileSync(path.join(ws, 'u.txt'), 'agent 1\n');
    await checkpoints.turnEnded(TAB, TURN1);
    checkpoints.turnStarted(TAB, TURN2);
    fs.writeFileSync(path.join(ws, 'b.txt'), 'agent 2\n');
    await checkpoints.turnEnded(TAB, TURN2);
    // The user edits a file after the agent's last turn.
    fs.writeFileSync(path.join(ws, 'c.txt'), 'user\n');

    answer.next = undefined;
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN1, action: 'restore' });
    assert.deepEqual(asked[0], [
      { label: 'a.txt', kind: 'modified', byUser: false, unsaved: false },
      { label: 'b.txt', kind: 'added', byUser: false, unsaved: false },
      { label: 'c.txt', kind: 'modified', byUser: true, unsaved: false },
      { label: 'u.txt', kind: 'modified', byUser: false, unsaved: true },
    ]);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent 1\n', 'nothing happens when the user says no');

    answer.next = 'restore';
    await checkpoints.action({ type: 'checkpoint-action', tabId: TAB, messageId: TURN1, action: 'restore' });
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a\n');
    assert.equal(fs.readFileSync(path.join(ws, 'c.txt'), 'utf8'), 'c\n');
    assert.ok(!fs.existsSync(path.join(ws, 'b.txt')));
    assert.equal(fs.readFileSync(path.join(ws, 'u.txt'), 'utf8'), 'agent 1\n', 'unsaved in an editor: left alone');
    assert.match(
      notices.at(-1) ?? '',
      /^Restored 3 files to how they were before this prompt \(left alone: u\.txt\).*Undo Last Restore puts them back/,
    );

    // Undo Last Restore: the files as they were just before the restore, the user's edit included.
    assert.equal(await checkpoints.undoLastRestore(), true);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent 1\n');
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'agent 2\n');
    assert.equal(fs.readFileSync(path.join(ws, 'c.txt'), 'utf8'), 'user\n');
    assert.match(notices.at(-1) ?? '', /^Undid the restore: 3 files are as they were before it/);
    // And undoing the undo restores again.
    assert.equal(await checkpoints.undoLastRestore(), true);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a\n');
    assert.ok(!fs.existsSync(path.join(ws, 'b.txt')));
  });

  it('a conversation pruned from the history takes its checkpoints with it (the store tells the checkpoints, as at activation)', async () => {
    const ws = folderWith({ 'a.txt': 'a\n' });
    let deleted: Promise<void> = Promise.resolve();
    let checkpoints: TurnCheckpoints | undefined;
    const history = new HistoryStore(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-turn-history-')), {
      maxConversations: () => 1,
      maxImageBytes: () => 1000,
      onDeleted: (id) => (deleted = checkpoints!.deleteConversation(id)),
    });
    const first = history.create({ agentName: 'a', folder: ws });
    history.update(first.id, { lastActivity: new Date(Date.UTC(2026, 0, 1)).toISOString() });
    checkpoints = new TurnCheckpoints({
      log: silentLog,
      storageRoot: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-turn-store-')),
      enabled: () => true,
      limits: () => DEFAULT_LIMITS,
      maxBytes: () => 500 * 1024 * 1024,
      foldersOf: () => [ws],
      conversationOf: () => first.id,
      send: () => undefined,
    });
    checkpoints.turnStarted(TAB, TURN1);
    await checkpoints.turnEnded(TAB, TURN1);
    assert.equal((await checkpoints.repoFor(ws).list(first.id)).length, 2);
    history.create({ agentName: 'a', folder: ws }); // beyond the limit: the first one is pruned
    await deleted;
    assert.deepEqual(await checkpoints.repoFor(ws).list(first.id), []);
  });
});
