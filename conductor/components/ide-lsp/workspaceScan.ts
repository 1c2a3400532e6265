// Which languages a workspace has, and one file per project to open, for the language servers
// this adapter runs: the shared scan (src/node/projectScan.ts) with each file's language given by
// the server that serves it.
import { scanProjects } from '../../../src/node/projectScan';
import { serverForFile, type LanguageServerSpec } from './servers';

export interface WorkspaceLanguages {
  /** Per language present: one file per project folder, to open. */
  byLanguage: Map<string, { spec: LanguageServerSpec; files: string[] }>;
  /** Whether the walk stopped at its bound. */
  truncated: boolean;
}

export async function scanWorkspace(root: string, servers: readonly LanguageServerSpec[]): Promise<WorkspaceLanguages> {
  const specs = new Map<string, LanguageServerSpec>();
  const scanned = await scanProjects(root, (file) => {
    const spec = serverForFile(servers, file);
    if (spec && !specs.has(spec.language)) specs.set(spec.language, spec);
    return spec?.language;
  });
  const byLanguage: WorkspaceLanguages['byLanguage'] = new Map();
  for (const [language, projects] of scanned.byLanguage)
    byLanguage.set(language, { spec: specs.get(language)!, files: projects.map((p) => p.file) });
  return { byLanguage, truncated: scanned.truncated };
}
