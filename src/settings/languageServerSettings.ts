// `symposium.languageServers` → the conductor's `--language-servers <JSON>`: which language servers
// the conductor's ide-lsp adapter starts (docs/ide-operations.md), by language →
// `{command, args?, extensions?, initializationOptions?}`. It chooses programs to run, so it is
// read from user settings only and not passed in untrusted workspaces. Checked with the rules the
// conductor applies (src/protocol/languageServers.ts): a bad map is reported and left out, so the
// conductor starts with its built-in table instead of refusing to start.
// `symposium.languageServers.allowWorkspaceBinaries` (user settings only, off by default) adds
// `--allow-workspace-language-servers`: the workspace's own node_modules/.bin servers and its
// TypeScript may run. VS Code nests a dotted setting inside its parent's object, so that key is
// never read as a language of the map. Pure.
import { isObject } from '../protocol/guards';
import { LanguageServersMapError, serversWithOverrides } from '../protocol/languageServers';

export interface LanguageServerFlags {
  /** Flags for the conductor's command line (part of the process key). */
  flags: string[];
  problems: string[];
}

export const ALLOW_WORKSPACE_KEY = 'allowWorkspaceBinaries';
export const ALLOW_WORKSPACE_FLAG = '--allow-workspace-language-servers';

export function languageServerFlags(raw: unknown, allowWorkspaceBinaries: unknown = false): LanguageServerFlags {
  const optIn = allowWorkspaceBinaries === true ? [ALLOW_WORKSPACE_FLAG] : [];
  const map = isObject(raw) ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== ALLOW_WORKSPACE_KEY)) : raw;
  if (map === undefined || map === null || (isObject(map) && Object.keys(map).length === 0)) return { flags: optIn, problems: [] };
  try {
    serversWithOverrides(map, 'symposium.languageServers');
  } catch (err) {
    if (!(err instanceof LanguageServersMapError)) throw err;
    return { flags: optIn, problems: [`${err.message}; using the built-in language servers`] };
  }
  return { flags: ['--language-servers', JSON.stringify(map), ...optIn], problems: [] };
}
