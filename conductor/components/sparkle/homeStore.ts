// The home store, ~/.sparkle/ (or $SPARKLE_DIR): the collaborator profile, the sparklers and their
// identity, pattern anchors and collaboration evolution. Shared by every workspace and every
// conductor, so every change goes through atomicFile.ts (atomic replace, locks, no clobber).
//
// Two deliberate differences from upstream sparkle-mcp 0.7:
// - the collaborator profile and workspace map are read and written at the top level whatever the
//   layout (upstream's embodiment reads them from sparklers/<name>/ while its tools write them at
//   the top: with several sparklers, edits never showed up); stray per-sparkler copies are still read;
// - nothing is replaced without a backup (profile, identity) and a rename moves the sparkler's
//   folder with it (upstream only edits config.toml, leaving the files behind).
import { promises as fs } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { appendAtomic, createFileExclusive, exists, readTextIfExists, withFileLock, writeFileAtomic } from './atomicFile';
import {
  configFromDoc,
  defaultConfigDoc,
  defaultSparkler,
  formatToml,
  parseToml,
  withHumanName,
  withSingleName,
  withSparklers,
  type SparkleConfig,
} from './config';
import { checkName, fileStamp, HOME_FILES, SPARKLER_FILES, SparkleError, utcStamp, type InsightType } from './names';
import { ANCHORS_TEMPLATE, EVOLUTION_TEMPLATE, identityTemplate, profileTemplate, WORKSPACE_MAP_HEADING } from './templates';
import { errorText } from '../../../src/protocol/errorText';

export interface Sparkler {
  name: string;
  dir: string;
  config: SparkleConfig;
}

export type EmbodimentFile = 'identity' | 'anchors' | 'evolution' | 'profile' | 'workspaceMap';

export interface InsightEntry {
  type: InsightType;
  content: string;
  context?: string;
  tags?: string[];
}

const TITLES: Record<InsightType, string> = {
  PatternAnchor: 'Pattern Anchor',
  CollaborationEvolution: 'Collaboration Evolution',
  WorkspaceInsight: 'Workspace Insight',
};

/** One appended record, in upstream's format (a heading with the UTC time, then the fields). */
export function formatInsight(e: InsightEntry, now: Date): string {
  let out = `\n## ${utcStamp(now)} - ${TITLES[e.type]}\n\n${e.content}\n\n`;
  if (e.context) out += `**Context**: ${e.context}\n\n`;
  if (e.tags?.length) out += `**Tags**: ${e.tags.join(', ')}\n\n`;
  return `${out}---\n`;
}

/** Creates `<base>.md`, or `<base>-2.md`, `-3`… if taken; never replaces a file. */
export async function createUnique(dir: string, base: string, data: string): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const path = join(dir, `${base}${n === 1 ? '' : `-${n}`}.md`);
    if (await createFileExclusive(path, data)) return path;
  }
  throw new SparkleError(`could not find a free file name for ${base} in ${dir}`);
}

export class SparkleHome {
  private firstRun: Promise<string[]> | undefined;

  constructor(
    readonly dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  /**
   * First run (no store folder at all): a profile for the OS user and one sparkler, "Sparkle".
   * Nothing is asked. An existing folder is left as it is. Returns the files created.
   */
  ensure(): Promise<string[]> {
    this.firstRun ??= (async () => {
      if (await exists(this.dir)) return [];
      const human = safeUserName();
      const files: [string, string][] = [
        [HOME_FILES.config, formatToml(defaultConfigDoc(human))],
        [HOME_FILES.profile, profileTemplate(human)],
        ...this.starterFiles(configFromDoc(defaultConfigDoc(human)).sparklers[0]!.name),
      ];
      const created: string[] = [];
      for (const [name, text] of files) if (await createFileExclusive(this.path(name), text)) created.push(this.path(name));
      return created;
    })();
    return this.firstRun;
  }

  private starterFiles(sparkler: string): [string, string][] {
    return [
      [HOME_FILES.identity, identityTemplate(sparkler)],
      [HOME_FILES.anchors, ANCHORS_TEMPLATE],
      [HOME_FILES.evolution, EVOLUTION_TEMPLATE],
    ];
  }

  /** The config; one that cannot be read is reported in `problem` and the defaults are used. */
  async readConfig(): Promise<{ config: SparkleConfig; problem?: string }> {
    const file = this.path(HOME_FILES.config);
    const text = await readTextIfExists(file);
    if (text === undefined) return { config: configFromDoc(defaultConfigDoc('User')) };
    try {
      return { config: configFromDoc(parseToml(text)) };
    } catch (err) {
      return {
        config: configFromDoc(defaultConfigDoc('User')),
        problem: `${file} could not be read (${errorText(err)}); it was left as it is and the defaults are used until it is fixed`,
      };
    }
  }

  /** For changes: a config that cannot be read is refused, so it is never overwritten. */
  private async configForChange(): Promise<SparkleConfig> {
    const { config, problem } = await this.readConfig();
    if (problem) throw new SparkleError(`${problem}. Fix or remove it, then try again.`);
    return config;
  }

  private withConfigLock<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.path(HOME_FILES.config), fn);
  }

  private sparklerDir(config: SparkleConfig, name: string): string {
    return config.layout === 'single' ? this.dir : this.path(HOME_FILES.sparklers, name);
  }

  /** The named sparkler (checked), or the default one; refused if the config does not list it. */
  async resolve(sparkler?: string, config?: SparkleConfig): Promise<Sparkler> {
    const c = config ?? (await this.readConfig()).config;
    const name = sparkler === undefined ? defaultSparkler(c) : checkName('sparkler', sparkler);
    if (!c.sparklers.some((s) => s.name === name)) {
      throw new SparkleError(
        `no sparkler named "${name}"; known: ${c.sparklers.map((s) => s.name).join(', ')}. Use create_sparkler to make one.`,
      );
    }
    return { name, dir: this.sparklerDir(c, name), config: c };
  }

  /** Creates the sparkler's missing starter files (a sparkler folder made by hand, or a first write). */
  private async ensureSparklerFiles(s: Sparkler): Promise<void> {
    for (const [name, text] of this.starterFiles(s.name)) await createFileExclusive(join(s.dir, name), text);
  }

  async list(): Promise<{ config: SparkleConfig; problem?: string }> {
    return this.readConfig();
  }

  /** Adds a sparkler; the first extra one moves the existing sparkler's files to sparklers/<it>/. */
  async create(rawName: string): Promise<{ name: string; dir: string; moved: string[] }> {
    const name = checkName('sparkler name', rawName);
    return this.withConfigLock(async () => {
      const config = await this.configForChange();
      if (config.sparklers.some((s) => s.name === name)) throw new SparkleError(`a sparkler named "${name}" already exists`);
      const moved: [string, string][] = [];
      let sparklers = config.sparklers;
      if (config.layout === 'single') {
        const current = config.sparklers[0]!.name;
        const target = this.path(HOME_FILES.sparklers, current);
        for (const file of SPARKLER_FILES) {
          if (await exists(join(target, file)))
            throw new SparkleError(`cannot move ${file} to ${target}: a file of that name is already there; move one of them away first`);
        }
        await fs.mkdir(target, { recursive: true });
        for (const file of SPARKLER_FILES) {
          if (!(await exists(this.path(file)))) continue;
          await fs.rename(this.path(file), join(target, file));
          moved.push([this.path(file), join(target, file)]);
        }
        sparklers = [{ name: current, default: true }];
      }
      const dir = this.path(HOME_FILES.sparklers, name);
      try {
        await fs.mkdir(dir, { recursive: true });
        for (const [file, text] of this.starterFiles(name)) await createFileExclusive(join(dir, file), text);
        await writeFileAtomic(
          this.path(HOME_FILES.config),
          formatToml(withSparklers(config.doc, [...sparklers, { name, default: false }])),
        );
      } catch (err) {
        // Undo the move, so the files are where the (unchanged) config says they are.
        for (const [from, to] of moved.reverse()) await fs.rename(to, from).catch(() => undefined);
        throw err;
      }
      return { name, dir, moved: moved.map(([, to]) => to) };
    });
  }

  /** Renames a sparkler in the config, and its folder with it (several sparklers). */
  async rename(rawNew: string, rawOld: string): Promise<{ oldName: string; newName: string; dir: string }> {
    const newName = checkName('new_name', rawNew);
    const oldName = checkName('old_name', rawOld);
    return this.withConfigLock(async () => {
      const config = await this.configForChange();
      if (!config.sparklers.some((s) => s.name === oldName))
        throw new SparkleError(`no sparkler named "${oldName}"; known: ${config.sparklers.map((s) => s.name).join(', ')}`);
      if (newName === oldName) throw new SparkleError(`the sparkler is already called "${newName}"`);
      if (config.sparklers.some((s) => s.name === newName)) throw new SparkleError(`a sparkler named "${newName}" already exists`);
      if (config.layout === 'single') {
        await writeFileAtomic(this.path(HOME_FILES.config), formatToml(withSingleName(config.doc, newName)));
        return { oldName, newName, dir: this.dir };
      }
      const from = this.path(HOME_FILES.sparklers, oldName);
      const to = this.path(HOME_FILES.sparklers, newName);
      if (await exists(to)) throw new SparkleError(`${to} already exists; move it away first`);
      const hadFolder = await exists(from);
      if (hadFolder) await fs.rename(from, to);
      try {
        const renamed = config.sparklers.map((s) => (s.name === oldName ? { ...s, name: newName } : s));
        await writeFileAtomic(this.path(HOME_FILES.config), formatToml(withSparklers(renameEntry(config, oldName, newName), renamed)));
      } catch (err) {
        if (hadFolder) await fs.rename(to, from).catch(() => undefined);
        throw err;
      }
      return { oldName, newName, dir: to };
    });
  }

  /** setup_sparkle: the human's name in the config; missing files created, existing ones kept. */
  async setup(rawHuman: string): Promise<{ created: string[]; kept: string[] }> {
    const human = typeof rawHuman === 'string' ? rawHuman.trim() : '';
    if (!human || human.length > 100 || /[\r\n]/.test(human)) throw new SparkleError('name must be one line of 1–100 characters');
    return this.withConfigLock(async () => {
      const configFile = this.path(HOME_FILES.config);
      const hadConfig = await exists(configFile);
      const config = hadConfig ? await this.configForChange() : configFromDoc(defaultConfigDoc(human));
      await writeFileAtomic(configFile, formatToml(withHumanName(config.doc, human)));
      const created = hadConfig ? [] : [configFile];
      const kept: string[] = [];
      const s = await this.resolve(undefined, configFromDoc(withHumanName(config.doc, human)));
      const wanted: [string, string][] = [
        [this.path(HOME_FILES.profile), profileTemplate(human)],
        ...this.starterFiles(s.name).map(([f, t]): [string, string] => [join(s.dir, f), t]),
      ];
      for (const [path, text] of wanted) ((await createFileExclusive(path, text)) ? created : kept).push(path);
      return { created, kept };
    });
  }

  /** Replaces a file, keeping the previous version as `<name>.<time>.md` next to it. */
  private async replaceWithBackup(path: string, content: string): Promise<string | undefined> {
    return withFileLock(path, async () => {
      const previous = await readTextIfExists(path);
      let backup: string | undefined;
      if (previous !== undefined && previous !== content) {
        backup = await createUnique(dirname(path), `${basename(path, '.md')}.${fileStamp(this.now())}`, previous);
      }
      await writeFileAtomic(path, content);
      return backup;
    });
  }

  async updateProfile(content: string): Promise<{ path: string; backup?: string }> {
    const path = this.path(HOME_FILES.profile);
    return { path, backup: await this.replaceWithBackup(path, content) };
  }

  async updateIdentity(content: string, sparkler: string): Promise<{ path: string; backup?: string; sparkler: string }> {
    const s = await this.resolve(sparkler);
    await this.ensureSparklerFiles(s);
    const path = join(s.dir, HOME_FILES.identity);
    return { path, sparkler: s.name, backup: await this.replaceWithBackup(path, content) };
  }

  /** Appends a PatternAnchor / CollaborationEvolution to the sparkler's file, or a WorkspaceInsight to workspace-map.md. */
  async appendInsight(entry: InsightEntry, sparkler: string): Promise<{ path: string; bytes: number; sparkler: string }> {
    const s = await this.resolve(sparkler);
    let path: string;
    if (entry.type === 'WorkspaceInsight') {
      path = this.path(HOME_FILES.workspaceMap);
      await createFileExclusive(path, WORKSPACE_MAP_HEADING);
    } else {
      await this.ensureSparklerFiles(s);
      path = join(s.dir, entry.type === 'PatternAnchor' ? HOME_FILES.anchors : HOME_FILES.evolution);
    }
    const { bytes } = await appendAtomic(path, formatInsight(entry, this.now()));
    return { path, bytes, sparkler: s.name };
  }

  /** The sparkler's evolution record and the design documents in evolution/ (archives skipped). */
  async loadEvolution(sparkler: string): Promise<{ sparkler: string; files: { path: string; text: string }[] }> {
    const s = await this.resolve(sparkler);
    const files: { path: string; text: string }[] = [];
    for (const name of [HOME_FILES.evolution, HOME_FILES.anchors]) {
      const text = await readTextIfExists(join(s.dir, name));
      if (text !== undefined) files.push({ path: join(s.dir, name), text });
    }
    for (const path of await markdownUnder(this.path(HOME_FILES.evolutionDocs))) {
      if (
        relative(this.dir, path)
          .split(sep)
          .some((part) => part.toLowerCase().includes('archive'))
      )
        continue;
      files.push({ path, text: (await readTextIfExists(path)) ?? '' });
    }
    return { sparkler: s.name, files };
  }

  /** What the embodiment reads from the home store; missing files are simply absent. */
  async embodimentFiles(
    sparkler: Sparkler,
  ): Promise<
    Record<EmbodimentFile, string | undefined> & { paths: Record<EmbodimentFile, string>; strays: { path: string; text: string }[] }
  > {
    const read = (p: string): Promise<string | undefined> => readTextIfExists(p);
    const strays: { path: string; text: string }[] = [];
    if (sparkler.dir !== this.dir) {
      for (const name of [HOME_FILES.profile, HOME_FILES.workspaceMap]) {
        const text = await read(join(sparkler.dir, name));
        if (text?.trim()) strays.push({ path: join(sparkler.dir, name), text });
      }
    }
    const paths: Record<EmbodimentFile, string> = {
      identity: join(sparkler.dir, HOME_FILES.identity),
      anchors: join(sparkler.dir, HOME_FILES.anchors),
      evolution: join(sparkler.dir, HOME_FILES.evolution),
      profile: this.path(HOME_FILES.profile),
      workspaceMap: this.path(HOME_FILES.workspaceMap),
    };
    return {
      identity: await read(paths.identity),
      anchors: await read(paths.anchors),
      evolution: await read(paths.evolution),
      profile: await read(paths.profile),
      workspaceMap: await read(paths.workspaceMap),
      paths,
      strays,
    };
  }
}

function renameEntry(config: SparkleConfig, oldName: string, newName: string): SparkleConfig['doc'] {
  return config.doc.map((s) =>
    s.kind === 'array' && s.name === 'sparklers' && s.entries.name === oldName ? { ...s, entries: { ...s.entries, name: newName } } : s,
  );
}

async function markdownUnder(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await markdownUnder(p)));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

function safeUserName(): string {
  try {
    return userInfo().username.trim() || 'User';
  } catch {
    return 'User';
  }
}
