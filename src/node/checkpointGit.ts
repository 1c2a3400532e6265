// Running Debian's `git` on a checkpoint repository: a git directory of our own in the extension's
// storage, the user's folder as its work tree. The folder is not trusted (docs/security.md): what
// it holds must not make our git run a program, read a config we did not write, or write anywhere
// but our git directory and the folder itself. So:
//   - the environment is built from nothing: no GIT_* variable of ours or the user's reaches git
//     (GIT_CONFIG_PARAMETERS, GIT_EXEC_PATH, GIT_TRACE… would each change what git does);
//   - no system or global config (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null, HOME in our
//     git directory), and the repository's own config is rewritten by us on every open;
//   - hooks, fsmonitor and every conversion the folder's .gitattributes could ask for are off
//     (info/attributes, which wins over the folder's files: content is stored byte for byte);
//   - the git directory is derived from the folder's real path under the storage root and must
//     resolve inside it and outside the folder: nothing the workspace says can move it.
// Only the folder's .gitignore files are honoured (that is what the user asked to keep out).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside } from './confinement';
import { writeFileAtomicSync } from './atomicWrite';

/** The one config a checkpoint repository has; written over whatever is there at every open. */
const OUR_CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = false
\tfilemode = true
\tsymlinks = true
\tignorecase = false
\tautocrlf = false
\tsafecrlf = false
\tlogAllRefUpdates = false
\tuntrackedCache = true
\thooksPath = /dev/null
\tfsmonitor = false
\tquotePath = false
\tsparseCheckout = false
[gc]
\tauto = 0
[commit]
\tgpgSign = false
[index]
\tthreads = 1
`;

/** Wins over every .gitattributes of the folder: no filter, no end-of-line or encoding conversion. */
const OUR_ATTRIBUTES = '* -text -filter -ident -working-tree-encoding\n';

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (${code ?? 'signal'}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitError';
  }
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
}

/** Where a folder's checkpoint repository lives: one directory per folder under the storage root. */
export function checkpointGitDir(storageRoot: string, folder: string): string {
  const realFolder = fs.realpathSync.native(folder);
  const key = createHash('sha256').update(realFolder).digest('hex').slice(0, 24);
  return path.join(storageRoot, 'checkpoints', key);
}

/**
 * A checkpoint repository's git, ready to run: the git directory is created (or re-armed with
 * our config) and confined to the storage root, outside the folder.
 */
export class CheckpointGit {
  readonly gitDir: string;
  readonly workTree: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(storageRoot: string, folder: string) {
    fs.mkdirSync(storageRoot, { recursive: true, mode: 0o700 });
    const realStorage = fs.realpathSync.native(storageRoot);
    this.workTree = fs.realpathSync.native(folder);
    const gitDir = checkpointGitDir(realStorage, this.workTree);
    if (isInside(gitDir, this.workTree) || isInside(this.workTree, gitDir)) {
      throw new Error(`Checkpoints are kept outside the folder: the storage ${realStorage} is inside ${this.workTree}`);
    }
    // A link planted in place of our directory (or its parent) would send objects elsewhere: each
    // level is created here or must already be a real directory, checked before anything is written.
    for (const dir of [path.dirname(gitDir), gitDir]) {
      try {
        fs.mkdirSync(dir, { mode: 0o700 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      if (!fs.lstatSync(dir).isDirectory()) throw new Error(`The checkpoint directory ${dir} resolves outside the extension's storage`);
    }
    const realGitDir = fs.realpathSync.native(gitDir);
    if (!isInside(realGitDir, realStorage) || realGitDir === realStorage) {
      throw new Error(`The checkpoint directory ${gitDir} resolves outside the extension's storage`);
    }
    this.gitDir = realGitDir;
    this.env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: realGitDir,
      LANG: 'C',
      LC_ALL: 'C',
      GIT_DIR: realGitDir,
      GIT_WORK_TREE: this.workTree,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_LITERAL_PATHSPECS: '1',
      GIT_AUTHOR_NAME: 'Symposium',
      GIT_AUTHOR_EMAIL: 'checkpoints@symposium.invalid',
      GIT_COMMITTER_NAME: 'Symposium',
      GIT_COMMITTER_EMAIL: 'checkpoints@symposium.invalid',
    };
    this.arm();
  }

  /** Creates the repository's skeleton if missing and (re)writes our config over anything there. */
  private arm(): void {
    for (const dir of ['objects', 'refs', 'info']) fs.mkdirSync(path.join(this.gitDir, dir), { recursive: true, mode: 0o700 });
    const head = path.join(this.gitDir, 'HEAD');
    if (!fs.existsSync(head)) fs.writeFileSync(head, 'ref: refs/heads/checkpoints\n', { mode: 0o600 });
    writeOurs(path.join(this.gitDir, 'config'), OUR_CONFIG);
    writeOurs(path.join(this.gitDir, 'info', 'attributes'), OUR_ATTRIBUTES);
    writeOurs(path.join(this.gitDir, 'info', 'exclude'), '');
    // A config include or a worktree config would be read too: neither may exist.
    fs.rmSync(path.join(this.gitDir, 'config.worktree'), { force: true });
  }

  /** Runs git with our environment and fixed options; rejects on a non-zero exit. */
  run(args: readonly string[], input?: Buffer | string, okCodes: readonly number[] = [0]): Promise<GitResult> {
    const full = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '--no-pager', ...args];
    return new Promise((resolve, reject) => {
      const child = spawn('git', full, { cwd: this.workTree, env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', reject);
      child.stdin.on('error', () => undefined);
      child.on('close', (code) => {
        const stderr = Buffer.concat(err).toString('utf8');
        if (code !== null && okCodes.includes(code)) resolve({ stdout: Buffer.concat(out), stderr });
        else reject(new GitError(args, code, stderr));
      });
      child.stdin.end(input ?? '');
    });
  }

  /** Runs git and returns its output as text, trimmed of the final newline. */
  async text(args: readonly string[], input?: Buffer | string): Promise<string> {
    return (await this.run(args, input)).stdout.toString('utf8').replace(/\n$/, '');
  }
}

/** Replaces a file of our git directory, never through a link someone left in its place. */
function writeOurs(file: string, content: string): void {
  writeFileAtomicSync(file, content);
}

/** Splits NUL-separated git output into its fields (without the empty tail). */
export function nulFields(out: Buffer): string[] {
  const fields = out.toString('utf8').split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}
