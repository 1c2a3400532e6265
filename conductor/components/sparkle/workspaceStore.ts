// The workspace store, <session cwd>/.sparkle-space/ (`full` mode only): the working memory the
// next session starts from, the checkpoint narratives, and this workspace's insights. Paths are
// confined to the session's folder after following symlinks (src/node/confinement.ts): a cloned
// repository whose `.sparkle-space` is a link to somewhere else cannot make Sparkle write there.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { confine } from '../../../src/node/confinement';
import { appendAtomic, createFileExclusive, readJsonOrSetAside, readTextIfExists, withFileLock, writeFileAtomic } from './atomicFile';
import { createUnique, formatInsight, type InsightEntry } from './homeStore';
import { fileStamp, SparkleError, WORKSPACE_FILES, workspaceStoreDir } from './names';
import { WORKSPACE_MAP_HEADING } from './templates';

export interface WorkspaceMemory {
  workingMemory?: { path: string; text: string };
  latestCheckpoint?: { path: string; text: string };
  workspaceMap?: { path: string; text: string };
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
      return confine(join(this.dir, ...parts), [this.cwd], { scope: "the session's workspace folder" });
    } catch (err) {
      throw new SparkleError(`refusing to write Sparkle's workspace files: ${(err as Error).message}`);
    }
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
      const previous = await readJsonOrSetAside(memoryPath, now);
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
    return { path, ...(await appendAtomic(path, formatInsight(entry, this.now()))) };
  }

  /** What the embodiment reads: the working memory, the newest checkpoint, the workspace map. */
  async read(): Promise<WorkspaceMemory> {
    const memory: WorkspaceMemory = { problems: [] };
    let base: string;
    try {
      base = this.confined();
    } catch (err) {
      memory.problems.push((err as Error).message);
      return memory;
    }
    const memoryPath = join(base, WORKSPACE_FILES.workingMemory);
    try {
      // No lock here: taking one would create .sparkle-space/ in every workspace just to read it.
      const read = await readJsonOrSetAside(memoryPath, this.now());
      if (read.kind === 'ok') memory.workingMemory = { path: memoryPath, text: read.text };
      if (read.kind === 'set-aside')
        memory.problems.push(`${memoryPath} was not valid JSON (${read.error}); it was moved to ${read.setAside}`);
    } catch (err) {
      memory.problems.push(`${memoryPath} could not be read: ${(err as Error).message}`);
    }
    const latest = await newestFile(join(base, WORKSPACE_FILES.checkpoints));
    if (latest) memory.latestCheckpoint = latest;
    const mapPath = join(base, WORKSPACE_FILES.workspaceMap);
    const map = await readTextIfExists(mapPath).catch(() => undefined);
    if (map !== undefined) memory.workspaceMap = { path: mapPath, text: map };
    return memory;
  }
}

/** The narrative with `**Sparkler:** <name>` after its title (as upstream), or a title if it has none. */
export function checkpointText(content: string, sparkler: string, now: Date): string {
  const body = content.trim();
  const sparklerLine = `**Sparkler:** ${sparkler}`;
  const m = /^# .*(\r?\n|$)/.exec(body);
  if (m) return `${m[0].trimEnd()}\n\n${sparklerLine}\n\n${body.slice(m[0].length).trim()}\n`;
  return `# Session Checkpoint ${now.toISOString().slice(0, 19).replace('T', ' ')} UTC\n\n${sparklerLine}\n\n${body}\n`;
}

/** The newest `.md` file of a folder by modification time (then name). */
async function newestFile(dir: string): Promise<{ path: string; text: string } | undefined> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.md'));
  } catch {
    return undefined;
  }
  let best: { path: string; mtime: number; name: string } | undefined;
  for (const name of names) {
    const path = join(dir, name);
    const stat = await fs.stat(path).catch(() => undefined);
    if (!stat?.isFile()) continue;
    if (!best || stat.mtimeMs > best.mtime || (stat.mtimeMs === best.mtime && name > best.name)) best = { path, mtime: stat.mtimeMs, name };
  }
  if (!best) return undefined;
  const text = await readTextIfExists(best.path).catch(() => undefined);
  return text === undefined ? undefined : { path: best.path, text };
}
