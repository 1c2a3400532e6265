// Sparkle's names and places: where the two stores live and which names may become part of a
// path. Every name an agent hands a Sparkle tool (a sparkler, an insight type) ends up in a file
// or folder name, so it is checked here first, and refused with a reason the agent can act on.
//
// The file layout is upstream sparkle-mcp's, so an existing ~/.sparkle/ keeps working:
//   ~/.sparkle/ (or $SPARKLE_DIR)     config.toml, collaborator-profile.md, workspace-map.md,
//                                    evolution/*.md (design documents, read by load_evolution),
//                                    and the sparkler files — at the top level with one sparkler,
//                                    under sparklers/<name>/ once there are several
//   <workspace>/.sparkle-space/      working-memory.json, checkpoints/, workspace-map.md
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAX_PLAIN_NAME_LENGTH, plainNameProblem, visibleName } from '../../../src/protocol/plainName';

/** A refusal or failure the agent should read: becomes an MCP error result (`isError: true`). */
export class SparkleError extends Error {
  override readonly name = 'SparkleError';
}

export const HOME_FILES = {
  config: 'config.toml',
  identity: 'sparkler-identity.md',
  anchors: 'pattern-anchors.md',
  evolution: 'collaboration-evolution.md',
  profile: 'collaborator-profile.md',
  workspaceMap: 'workspace-map.md',
  sparklers: 'sparklers',
  evolutionDocs: 'evolution',
} as const;

export const WORKSPACE_FILES = {
  dir: '.sparkle-space',
  workingMemory: 'working-memory.json',
  checkpoints: 'checkpoints',
  workspaceMap: 'workspace-map.md',
} as const;

/** The files that belong to one sparkler (moved into sparklers/<name>/ when a second one is made). */
export const SPARKLER_FILES = [HOME_FILES.identity, HOME_FILES.anchors, HOME_FILES.evolution] as const;

export const DEFAULT_SPARKLER = 'Sparkle';
export const MAX_NAME_LENGTH = MAX_PLAIN_NAME_LENGTH;

/** `$SPARKLE_DIR` (as upstream, for tests and relocation), else `.sparkle` in the OS home folder. */
export function sparkleHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.SPARKLE_DIR?.trim();
  return override ? resolve(override) : join(homedir(), '.sparkle');
}

export function workspaceStoreDir(cwd: string): string {
  return join(cwd, WORKSPACE_FILES.dir);
}

/** A name that becomes one path component, trimmed and checked (src/protocol/plainName.ts); refused with the reason. */
export function checkName(kind: string, raw: unknown): string {
  if (typeof raw !== 'string') throw new SparkleError(`${kind} must be a string`);
  const name = raw.trim();
  const problem = plainNameProblem(name);
  if (problem === undefined) return name;
  const shown = name.length > MAX_NAME_LENGTH ? `${visibleName(name.slice(0, 20))}…` : visibleName(name);
  throw new SparkleError(name === '' ? `${kind} is empty` : `${kind} "${shown}" ${problem}`);
}

export const INSIGHT_TYPES = ['PatternAnchor', 'CollaborationEvolution', 'WorkspaceInsight'] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];

export function checkInsightType(raw: unknown): InsightType {
  const name = checkName('insight_type', raw);
  const known = INSIGHT_TYPES.find((t) => t === name);
  if (!known) throw new SparkleError(`unknown insight_type "${name}"; use one of ${INSIGHT_TYPES.join(', ')}`);
  return known;
}

/** `2026-11-23 13:04:05 UTC`, as upstream writes insight headings. */
export function utcStamp(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `2026-11-23-130405`, as upstream names checkpoint files. */
export function fileStamp(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, 10)}-${iso.slice(11, 19).replace(/:/g, '')}`;
}
