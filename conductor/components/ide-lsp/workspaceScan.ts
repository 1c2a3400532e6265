// Which languages a workspace has, and one file per project to open. Workspace-wide questions
// (`symbols`, `findDefinitions("Name")`) come before any file was opened, but servers only know
// the projects of documents they have open (tsserver loads a project when one of its files is
// opened), so the adapter starts the server of every language present and opens one file per
// project folder: the nearest folder with the language's project file. TypeScript files outside
// any tsconfig/jsconfig are left out when the workspace has such projects: opening a loose file
// makes tsserver search the parent folders for a configuration, and load whatever it finds there.
// The walk is bounded and skips what a project does not own (dot-folders, node_modules, build
// output), like the text search does.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { serverForFile, type LanguageServerSpec } from './servers';

const SKIPPED = new Set(['node_modules', '__pycache__', 'target', 'dist', 'build', 'out', 'venv', 'vendor']);
const PROJECT_FILES: Record<string, string[]> = {
  typescript: ['tsconfig.json', 'jsconfig.json'],
  python: ['pyproject.toml', 'setup.py', 'pyrightconfig.json'],
  rust: ['Cargo.toml'],
  go: ['go.mod'],
};
const MAX_ENTRIES = 20_000;
const MAX_PROJECTS_PER_LANGUAGE = 20;

export interface WorkspaceLanguages {
  /** Per language present: one file per project folder, to open. */
  byLanguage: Map<string, { spec: LanguageServerSpec; files: string[] }>;
  /** Whether the walk stopped at its bound. */
  truncated: boolean;
}

export async function scanWorkspace(root: string, servers: readonly LanguageServerSpec[]): Promise<WorkspaceLanguages> {
  /** Per language: project folder → its first file ('' = no project folder). */
  const projects = new Map<string, { spec: LanguageServerSpec; byProject: Map<string, string> }>();
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
      const spec = serverForFile(servers, full);
      if (!spec) continue;
      const entry = projects.get(spec.language) ?? { spec, byProject: new Map<string, string>() };
      projects.set(spec.language, entry);
      const project = here[spec.language] ?? '';
      if (!entry.byProject.has(project) && entry.byProject.size < MAX_PROJECTS_PER_LANGUAGE) entry.byProject.set(project, full);
    }
    for (const e of list) {
      if (e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name)) await walk(path.join(dir, e.name), here);
    }
  };
  await walk(root, {});
  const byLanguage: WorkspaceLanguages['byLanguage'] = new Map();
  for (const [language, { spec, byProject }] of projects) {
    const loose = byProject.get('');
    if (language === 'typescript' && loose !== undefined && byProject.size > 1) byProject.delete('');
    byLanguage.set(language, { spec, files: [...byProject.values()] });
  }
  return { byLanguage, truncated: entries >= MAX_ENTRIES };
}
