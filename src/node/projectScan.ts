// Which languages a workspace folder has, and one file per project to open. Language servers know
// only the projects of documents they have open (tsserver loads a project when one of its files is
// opened), so before a workspace-wide question (workspace symbols, a definition by name) whoever
// asks opens one file per project folder: the nearest folder with the language's project file.
// Used by the conductor's language-server adapter (ide-lsp) and by the extension's answers from
// VS Code's language features (src/ide/projectLoading.ts).
//
// TypeScript files outside any tsconfig/jsconfig are left out when the folder has such projects:
// opening a loose file makes tsserver search the parent folders for a configuration, and load
// whatever it finds there. The walk is bounded, follows no links (so it never leaves the folder)
// and skips what a project does not own (dot-folders, node_modules, build output), like the text
// search does.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';

const SKIPPED = new Set(['node_modules', '__pycache__', 'target', 'dist', 'build', 'out', 'venv', 'vendor']);
const PROJECT_FILES: Record<string, string[]> = {
  typescript: ['tsconfig.json', 'jsconfig.json'],
  python: ['pyproject.toml', 'setup.py', 'pyrightconfig.json'],
  rust: ['Cargo.toml'],
  go: ['go.mod'],
};
const MAX_ENTRIES = 20_000;
const MAX_PROJECTS_PER_LANGUAGE = 20;

/** One project of a language: its folder ('' for files outside any project folder) and a file of it. */
export interface ScannedProject {
  folder: string;
  file: string;
}

export interface ScannedProjects {
  /** Per language present (as `languageOf` names them): one entry per project folder, at most 20. */
  byLanguage: Map<string, ScannedProject[]>;
  /** Whether the walk stopped at its bound. */
  truncated: boolean;
}

/**
 * The projects under `root`. `languageOf(file)` names a source file's language ("typescript",
 * "python", "rust", "go" have project files), or undefined for files that do not count.
 */
export async function scanProjects(root: string, languageOf: (file: string) => string | undefined): Promise<ScannedProjects> {
  /** Per language: project folder → its first file ('' = no project folder). */
  const projects = new Map<string, Map<string, string>>();
  let entries = 0;
  const walk = async (dir: string, enclosing: Record<string, string>): Promise<void> => {
    if (entries >= MAX_ENTRIES) return;
    const list = await readdir(dir, { withFileTypes: true }).catch(() => []);
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    entries += list.length;
    const here = { ...enclosing };
    for (const [language, markers] of Object.entries(PROJECT_FILES))
      if (list.some((e) => e.isFile() && markers.includes(e.name))) here[language] = dir;
    for (const e of list) {
      if (!e.isFile() || e.name.endsWith('.d.ts')) continue;
      const full = path.join(dir, e.name);
      const language = languageOf(full);
      if (language === undefined) continue;
      const byProject = projects.get(language) ?? new Map<string, string>();
      projects.set(language, byProject);
      const project = here[language] ?? '';
      if (!byProject.has(project) && byProject.size < MAX_PROJECTS_PER_LANGUAGE) byProject.set(project, full);
    }
    for (const e of list) {
      if (e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name)) await walk(path.join(dir, e.name), here);
    }
  };
  await walk(root, {});
  const byLanguage = new Map<string, ScannedProject[]>();
  for (const [language, byProject] of projects) {
    if (language === 'typescript' && byProject.has('') && byProject.size > 1) byProject.delete('');
    byLanguage.set(
      language,
      [...byProject].map(([folder, file]) => ({ folder, file })),
    );
  }
  return { byLanguage, truncated: entries >= MAX_ENTRIES };
}
