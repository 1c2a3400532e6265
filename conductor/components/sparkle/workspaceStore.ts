// The workspace store, <session cwd>/.sparkle-space/ (`full` mode only): the working memory the
// next session starts from, the checkpoint narratives, and this workspace's insights. A cloned
// repository can ship a `.sparkle-space/`, so every file is confined to the session's folder after
// following symlinks, for reads as for writes: `.sparkle-space` (or a file in it) linked to
// somewhere else, `/proc/self/environ` or `~/.ssh/…`, is refused, so it can neither receive
// Sparkle's writes nor reach the embodiment prompt (and through it the agent's model provider).
// Reads go through src/node/containedFile.ts: regular files only (a FIFO or `/dev/zero` in the
// repository is refused, not waited on or read forever) and capped.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { confine } from '../../../src/node/confinement';
import { readContainedBytes, readContainedFile, type CappedText } from '../../../src/node/containedFile';
import {
  appendAtomic,
  createFileExclusive,
  readJsonOrSetAside,
  STORE_FILE_MAX_BYTES,
  withFileLock,
  writeFileAtomic,
  type StoreReader,
} from './atomicFile';
import { MAX_SECTION_CHARS } from './embodiment';
import { createUnique, formatInsight, type InsightEntry } from './homeStore';
import { fileStamp, SparkleError, WORKSPACE_FILES, workspaceStoreDir } from './names';
import { WORKSPACE_MAP_HEADING } from './templates';
import { errorText } from '../../../src/protocol/errorText';

/**
 * The bytes read of a file the embodiment shows but does not parse: enough for its section
 * (MAX_SECTION_CHARS characters of up to 4 bytes each), so a huge file costs no more than that.
 */
export const EMBODIMENT_READ_BYTES = 4 * MAX_SECTION_CHARS;

/** Checkpoint files tried, newest first, before the embodiment goes without one. */
const CHECKPOINT_TRIES = 5;

/** A file read for the embodiment; `cut` when it went on past EMBODIMENT_READ_BYTES (`size` bytes in all). */
export interface WorkspaceText {
  path: string;
  text: string;
  cut?: { size: number };
}

export interface WorkspaceMemory {
  workingMemory?: WorkspaceText;
  latestCheckpoint?: WorkspaceText;
  workspaceMap?: WorkspaceText;
  /** Files that could not be used (set aside, unreadable), said in the embodiment. */
  problems: string[];
}

export class SparkleSpace {
  constructor(
    readonly cwd: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get dir(): string {
    return workspaceStoreDir(this.cwd);
  }

  /** `.sparkle-space/<parts>` resolved through symlinks; refused if that leaves the workspace. */
  private confined(...parts: string[]): string {
    try {
      return confine(join(this.dir, ...parts), [this.cwd], { scope: SCOPE });
    } catch (err) {
      throw new SparkleError(`refusing to use Sparkle's workspace files: ${errorText(err)}`);
    }
  }

  /** Reads a store file whole (to parse or append to it): confined again, regular, capped. */
  private readonly readStoreFile: StoreReader = async (path) => {
    try {
      return (await readContainedBytes(path, [this.cwd], { maxBytes: STORE_FILE_MAX_BYTES, scope: SCOPE })).bytes;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };

  /** A file for the embodiment: confined, regular, its first EMBODIMENT_READ_BYTES; undefined when missing. */
  private async readForEmbodiment(path: string): Promise<WorkspaceText | undefined> {
    let read: CappedText;
    try {
      read = await readContainedFile(path, [this.cwd], { maxBytes: EMBODIMENT_READ_BYTES, overLimit: 'cut', scope: SCOPE });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    return { path, text: read.text, ...(read.cut ? { cut: { size: read.size } } : {}) };
  }

  /**
   * session_checkpoint: replaces working-memory.json (one that did not parse is set aside first,
   * not lost) and adds checkpoints/checkpoint-<UTC time>.md, never replacing an earlier one.
   */
  async checkpoint(
    workingMemory: unknown,
    content: string,
    sparkler: string,
  ): Promise<{ workingMemoryPath: string; checkpointPath: string; setAside?: string }> {
    const memoryPath = this.confined(WORKSPACE_FILES.workingMemory);
    const now = this.now();
    const setAside = await withFileLock(memoryPath, async () => {
      const previous = await readJsonOrSetAside(memoryPath, now, this.readStoreFile);
      await writeFileAtomic(memoryPath, `${JSON.stringify(workingMemory, null, 2)}\n`);
      return previous.kind === 'set-aside' ? previous.setAside : undefined;
    });
    const checkpointsDir = this.confined(WORKSPACE_FILES.checkpoints);
    const checkpointPath = await createUnique(checkpointsDir, `checkpoint-${fileStamp(now)}`, checkpointText(content, sparkler, now));
    return { workingMemoryPath: memoryPath, checkpointPath, ...(setAside ? { setAside } : {}) };
  }

  async appendInsight(entry: InsightEntry): Promise<{ path: string; bytes: number }> {
    const path = this.confined(WORKSPACE_FILES.workspaceMap);
    await createFileExclusive(path, WORKSPACE_MAP_HEADING);
    return { path, ...(await appendAtomic(path, formatInsight(entry, this.now()), this.readStoreFile)) };
  }

  /**
   * What the embodiment reads: the working memory, the newest checkpoint, the workspace map. A
   * file that cannot be used (outside the folder, not a regular file, too big) is named in
   * `problems`, never read.
   */
  async read(): Promise<WorkspaceMemory> {
    const memory: WorkspaceMemory = { problems: [] };
    const problem = (path: string, err: unknown): void => void memory.problems.push(`${path} was not read: ${errorText(err)}`);
    let base: string;
    try {
      base = this.confined();
    } catch (err) {
      memory.problems.push(errorText(err));
      return memory;
    }
    const memoryPath = join(base, WORKSPACE_FILES.workingMemory);
    try {
      // No lock here: taking one would create .sparkle-space/ in every workspace just to read it.
      const read = await readJsonOrSetAside(memoryPath, this.now(), this.readStoreFile);
      if (read.kind === 'ok') memory.workingMemory = { path: memoryPath, text: read.text };
      if (read.kind === 'set-aside')
        memory.problems.push(`${memoryPath} was not valid JSON (${read.error}); it was moved to ${read.setAside}`);
    } catch (err) {
      problem(memoryPath, err);
    }
    for (const path of await newestFirst(join(base, WORKSPACE_FILES.checkpoints), CHECKPOINT_TRIES)) {
      const checkpoint = await this.readForEmbodiment(path).catch((err: unknown) => problem(path, err));
      if (checkpoint) {
        memory.latestCheckpoint = checkpoint;
        break;
      }
    }
    const mapPath = join(base, WORKSPACE_FILES.workspaceMap);
    const map = await this.readForEmbodiment(mapPath).catch((err: unknown) => problem(mapPath, err));
    if (map) memory.workspaceMap = map;
    return memory;
  }
}

const SCOPE = "the session's workspace folder";

/** The narrative with `**Sparkler:** <name>` after its title (as upstream), or a title if it has none. */
export function checkpointText(content: string, sparkler: string, now: Date): string {
  const body = content.trim();
  const sparklerLine = `**Sparkler:** ${sparkler}`;
  const m = /^# .*(\r?\n|$)/.exec(body);
  if (m) return `${m[0].trimEnd()}\n\n${sparklerLine}\n\n${body.slice(m[0].length).trim()}\n`;
  return `# Session Checkpoint ${now.toISOString().slice(0, 19).replace('T', ' ')} UTC\n\n${sparklerLine}\n\n${body}\n`;
}

/**
 * The `.md` files of a folder, newest first by modification time (then name), at most `max`. The
 * times are `lstat`'s, of the entries themselves: listing costs no open and follows no link (the
 * read that follows confines each file).
 */
async function newestFirst(dir: string, max: number): Promise<string[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.md'));
  } catch {
    return [];
  }
  const found: { path: string; mtime: number; name: string }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const stat = await fs.lstat(path).catch(() => undefined);
    if (stat && !stat.isDirectory()) found.push({ path, mtime: stat.mtimeMs, name });
  }
  found.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  return found.slice(0, max).map((f) => f.path);
}
