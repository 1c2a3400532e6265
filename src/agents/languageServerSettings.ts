// `symposium.languageServers` → the conductor's `--language-servers <JSON>`: which language servers
// the conductor's ide-lsp adapter starts (docs/ide-operations.md), by language →
// `{command, args?, extensions?, initializationOptions?}`. It chooses programs to run, so it is
// read from user settings only and not passed in untrusted workspaces. Checked with the rules the
// conductor applies (src/protocol/languageServers.ts): a bad map is reported and left out, so the
// conductor starts with its built-in table instead of refusing to start. Pure.
import { isObject } from '../protocol/guards';
import { LanguageServersMapError, serversWithOverrides } from '../protocol/languageServers';

export interface LanguageServerFlags {
  /** Flags for the conductor's command line (part of the process key). */
  flags: string[];
  problems: string[];
}

export function languageServerFlags(raw: unknown): LanguageServerFlags {
  if (raw === undefined || raw === null || (isObject(raw) && Object.keys(raw).length === 0)) return { flags: [], problems: [] };
  try {
    serversWithOverrides(raw, 'symposium.languageServers');
  } catch (err) {
    if (!(err instanceof LanguageServersMapError)) throw err;
    return { flags: [], problems: [`${err.message}; using the built-in language servers`] };
  }
  return { flags: ['--language-servers', JSON.stringify(raw)], problems: [] };
}
