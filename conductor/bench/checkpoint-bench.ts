// npm run bench, checkpoints (docs/checkpoints.md): what a turn's checkpoint costs on a large
// repository — 10,000 files, 200 MB — after the agent changed 10 of them, against `git stash
// create` on the same tree in the same run (what a git-based tool would run; it hashes the same
// changed files but writes no ref and looks at no untracked file). Also the checkpoint at the end of
// the turn with the card's list, the folder's first reading (once per folder), and what starting
// a turn's checkpoint costs the prompt (the snapshot itself runs beside it).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TurnCheckpoints } from '../../src/checkpoints/turnCheckpoints';
import { DEFAULT_LIMITS } from '../../src/node/checkpointRepo';
import { printGoal } from './goal';
import { median } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FILES = Number(process.env.BENCH_CHECKPOINT_FILES ?? 10_000);
const TOTAL_BYTES = Number(process.env.BENCH_CHECKPOINT_BYTES ?? 200 * 1024 * 1024);
const CHANGED = 10;
const none = (): void => undefined;
const log = { trace: none, debug: none, info: none, warn: none, error: none };

function git(cwd: string, args: string[]): string {
  const env = { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@x', ...args], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args[0]}: ${r.stderr}`);
  return r.stdout;
}

/** A repository as a project has one: 100 folders of 100 files, text, together TOTAL_BYTES. */
function makeRepo(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-checkpoint-bench-'));
  const size = Math.floor(TOTAL_BYTES / FILES);
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true });
    // Base64 of random bytes: text that does not compress away.
    fs.writeFileSync(
      path.join(dir, `file${i}.ts`),
      randomBytes(Math.ceil((size * 3) / 4))
        .toString('base64')
        .slice(0, size),
    );
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
  git(root, ['init', '-q']);
  git(root, ['add', '-A']);
  git(root, ['commit', '-qm', 'bench tree', '--no-verify']);
  return root;
}

/** The agent's work: CHANGED files of the tree get a new line (a different set each round). */
function changeFiles(root: string, round: number): void {
  for (let k = 0; k < CHANGED; k++) {
    const i = (round * 7919 + k * 997) % FILES;
    fs.appendFileSync(path.join(root, `pkg${Math.floor(i / 100)}`, `file${i}.ts`), `\n// round ${round}\n`);
  }
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const root = makeRepo();
  const made = performance.now() - t0;
  const cards: number[] = [];
  const checkpoints = new TurnCheckpoints({
    log,
    storageRoot: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-checkpoint-bench-store-')),
    enabled: () => true,
    limits: () => DEFAULT_LIMITS,
    maxBytes: () => 10 * 1024 * 1024 * 1024,
    foldersOf: () => [root],
    conversationOf: () => 'bench',
    send: (p) => {
      if (p.type === 'files-changed') cards.push(p.files.length);
    },
  });
  const repo = checkpoints.repoFor(root);
  const tFirst = performance.now();
  await repo.prepare();
  const first = performance.now() - tFirst;

  const start: number[] = [];
  const stash: number[] = [];
  const end: number[] = [];
  const call: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The turn before left 10 changed files; this turn's checkpoint records them.
    changeFiles(root, round);
    // A prompt comes later than a few ms after a save (the checkpoint takes younger files for the agent's).
    const changedAt = Date.now();
    while (Date.now() < changedAt + 30) await new Promise((r) => setImmediate(r));
    const messageId = `turn-${round}`;
    const tCall = performance.now();
    checkpoints.turnStarted('bench-tab', messageId);
    call.push(performance.now() - tCall);
    const tStart = performance.now();
    await checkpoints.beforeWrite(path.join(root, 'x'));
    start.push(performance.now() - tStart + call.at(-1)!);
    const tStash = performance.now();
    git(root, ['stash', 'create']);
    stash.push(performance.now() - tStash);
    // The agent changes 10 files in the turn; at its end, the card.
    changeFiles(root, round + 1000);
    const tEnd = performance.now();
    await checkpoints.turnEnded('bench-tab', messageId);
    end.push(performance.now() - tEnd);
  }
  const ms = (x: number): string => x.toFixed(0);
  printGoal({
    area: 'Checkpoints',
    goal: `a turn's checkpoint on ${FILES} files ≤ 300 ms`,
    figure: `${ms(median(start))} ms (git stash create ${ms(median(stash))} ms)`,
    met: median(start) <= 300,
  });
  console.log(
    [
      `Checkpoints: a turn on ${FILES} files, ${(TOTAL_BYTES / 1024 / 1024).toFixed(0)} MB, ${CHANGED} files changed per turn; median of ${ROUNDS} rounds; node ${process.version}, ${git(root, ['--version']).trim()}`,
      '',
      '| step | ms |',
      '|---|---:|',
      `| the turn's checkpoint (status, hash 10 files, commit, ref) | ${ms(median(start))} |`,
      `| \`git stash create\` on the same tree (baseline) | ${ms(median(stash))} |`,
      `| the end of the turn: a checkpoint and the card's list | ${ms(median(end))} |`,
      `| what starting the checkpoint costs the prompt (turnStarted returns) | ${median(call).toFixed(2)} |`,
      `| the folder's first reading (once per folder: every file hashed) | ${ms(first)} |`,
      `| (making the tree and the user's commit) | ${ms(made)} |`,
      '',
      `cards shown: ${cards.length} of ${ROUNDS} turns, ${cards[0] ?? 0} files each; goal: the turn's checkpoint ≤ 300 ms`,
    ].join('\n'),
  );
  fs.rmSync(root, { recursive: true, force: true });
}

void main();
