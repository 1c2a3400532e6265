// The embodiment prompt: what the agent reads before the user's first message, so that it starts
// the session as the sparkler with its memory. In order (as upstream): the built-in identity; the
// sparkler's identity, pattern anchors and collaboration evolution; the collaborator profile and
// workspace map; in `full` mode this workspace's working memory and latest checkpoint; then how to
// use the tools. Sections are capped, so a huge file cannot crowd out the rest (or the context).
import { fenced } from '../../../src/protocol/markdown';
import type { SparkleHome } from './homeStore';
import type { SparkleSpace, WorkspaceMemory } from './workspaceStore';
import { builtInIdentity, embodimentClosing, toolsGuide } from './templates';
import { errorText } from '../../../src/protocol/errorText';

/** Characters kept per section; the rest is named, not lost (the file is on disk). */
export const MAX_SECTION_CHARS = 40_000;

export interface EmbodimentMaterials {
  sparkler: string;
  human: string;
  mode: 'full' | 'core';
  checkpointEvery: number;
  home: Awaited<ReturnType<SparkleHome['embodimentFiles']>>;
  workspace?: WorkspaceMemory;
  /** Things the agent (and the user reading the section) should know: unreadable files, a missing sparkler. */
  notes: string[];
  /** False when the agent has not connected to the `sparkle` MCP server: the tools are offered only if it has them. */
  toolsConnected?: boolean;
}

/**
 * A titled section of at most MAX_SECTION_CHARS characters. `fileBytes` is set when only the
 * start of the file was read (workspaceStore.ts): the rest is then named by the file's size.
 */
function section(title: string, text: string | undefined, source?: string, fileBytes?: number): string | undefined {
  const body = text?.trim();
  if (!body) return undefined;
  const where = source ? ` in ${source}` : '';
  const rest =
    fileBytes !== undefined
      ? `the rest of the file${where} (${fileBytes} bytes in all)`
      : `${body.length - MAX_SECTION_CHARS} more characters${where}`;
  const cut =
    body.length > MAX_SECTION_CHARS || fileBytes !== undefined ? `${body.slice(0, MAX_SECTION_CHARS)}\n\n*(cut here: ${rest})*` : body;
  return `## ${title}\n\n${cut}`;
}

export function embodimentText(m: EmbodimentMaterials): string {
  const parts: (string | undefined)[] = [
    `# Sparkle embodiment`,
    builtInIdentity(m.sparkler, m.human),
    m.notes.length ? `## Notes\n\n${m.notes.map((n) => `- ${n}`).join('\n')}` : undefined,
    section(`Who you are (${m.sparkler})`, m.home.identity, m.home.paths.identity),
    section('Pattern anchors', m.home.anchors, m.home.paths.anchors),
    section('Collaboration evolution', m.home.evolution, m.home.paths.evolution),
    section(`Your collaborator, ${m.human}`, m.home.profile, m.home.paths.profile),
    ...m.home.strays.map((s) => section(`Also kept for this sparkler (${s.path})`, s.text, s.path)),
    section('Workspace map (all workspaces)', m.home.workspaceMap, m.home.paths.workspaceMap),
  ];
  if (m.mode === 'full') {
    const w = m.workspace;
    parts.push(
      section('This workspace: working memory', w?.workingMemory && fenced(w.workingMemory.text.trim(), 'json'), w?.workingMemory?.path),
      section('This workspace: latest checkpoint', w?.latestCheckpoint?.text, w?.latestCheckpoint?.path, w?.latestCheckpoint?.cut?.size),
      section('This workspace: insights', w?.workspaceMap?.text, w?.workspaceMap?.path, w?.workspaceMap?.cut?.size),
    );
    if (!w?.workingMemory && !w?.latestCheckpoint)
      parts.push('## This workspace\n\nNo checkpoint yet: this is the first Sparkle session here.');
  }
  const guide = toolsGuide(m.mode, m.checkpointEvery);
  parts.push(`## Tools\n\n${m.toolsConnected === false ? `${TOOLS_IF_CONNECTED}\n\n${guide}` : guide}`, embodimentClosing(m.human));
  return parts.filter((p): p is string => p !== undefined).join('\n\n');
}

/** Said before the tools to an agent that has not connected to the `sparkle` MCP server. */
export const TOOLS_IF_CONNECTED =
  "You have not connected to the MCP server `sparkle` yet. If its tools are not in your tool list, you do not have them (some agents ignore the MCP servers their client gives them, e.g. Gemini CLI in a folder it does not trust): then do not try to call them, and know that nothing of this session is saved to Sparkle's memory.";

export interface EmbodimentRequest {
  /** The configured sparkler (`--sparkle-sparkler`); the profile's default when absent or unknown. */
  sparkler?: string;
  /** See EmbodimentMaterials.toolsConnected. */
  toolsConnected?: boolean;
  mode: 'full' | 'core';
  checkpointEvery: number;
}

/** Reads both stores (creating the first-run profile if needed) and builds the prompt text. */
export async function gatherEmbodiment(
  home: SparkleHome,
  space: SparkleSpace | undefined,
  req: EmbodimentRequest,
): Promise<{ text: string; sparkler: string }> {
  const notes: string[] = [];
  const created = await home.ensure();
  if (created.length) notes.push(`A new Sparkle profile was created in ${home.dir} (first run).`);
  const { config, problem } = await home.readConfig();
  if (problem) notes.push(problem);
  let sparkler;
  try {
    sparkler = await home.resolve(req.sparkler, config);
  } catch (err) {
    notes.push(`The configured sparkler could not be used (${errorText(err)}); embodying the default one.`);
    sparkler = await home.resolve(undefined, config);
  }
  const workspace = req.mode === 'full' && space ? await space.read() : undefined;
  if (workspace) notes.push(...workspace.problems);
  const text = embodimentText({
    sparkler: sparkler.name,
    human: config.human,
    mode: req.mode,
    checkpointEvery: req.checkpointEvery,
    home: await home.embodimentFiles(sparkler),
    workspace,
    notes,
    toolsConnected: req.toolsConnected,
  });
  return { text, sparkler: sparkler.name };
}
