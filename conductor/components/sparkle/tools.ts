// The `sparkle` MCP server the component injects into every session. Tool names and parameters are
// upstream sparkle-mcp 0.7's, so prompts and agents written for Sparkle work unchanged; the
// behaviour follows our storage rules (homeStore.ts, workspaceStore.ts). Every result is a short
// text plus structured content (paths written, counts); every refusal is an MCP error result
// (`isError: true`) whose text says why. Nothing here uses the network: fetch_profile_data, which
// upstream uses to read GitHub/RSS/websites, answers at once that it is not available.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../../log';
import { CONDUCTOR_VERSION } from '../../version';
import type { SparkleHome } from './homeStore';
import { checkInsightType, checkName, SparkleError } from './names';
import type { SparkleSpace } from './workspaceStore';
import { errorText } from '../../../src/protocol/errorText';

export interface SparkleToolContext {
  home: SparkleHome;
  /** The workspace store; absent in `core` mode (then there is no session_checkpoint). */
  space?: SparkleSpace;
  /** The session's sparkler (the one it embodied), for tools called without `sparkler`. */
  sessionSparkler(): Promise<string>;
  /** The session's sparkler was renamed. */
  renamed(oldName: string, newName: string): void;
  log: Logger;
}

type Structured = Record<string, unknown>;
const ok = (text: string, structuredContent: Structured): CallToolResult => ({ content: [{ type: 'text', text }], structuredContent });
const refused = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

const optionalSparkler = z
  .string()
  .optional()
  .describe('Which sparkler (several-sparkler setups); defaults to the one this session embodies');

function nonEmpty(kind: string, text: string): string {
  if (!text.trim()) throw new SparkleError(`${kind} is empty`);
  return text;
}

/** working_memory: an object, or (as upstream) a string holding JSON. */
function parseWorkingMemory(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new SparkleError(`working_memory must be a JSON object or a string holding JSON; this string does not parse: ${errorText(err)}`);
  }
}

export function createSparkleServer(cx: SparkleToolContext): McpServer {
  const server = new McpServer(
    { name: 'sparkle', version: CONDUCTOR_VERSION },
    {
      instructions:
        'Sparkle: your persistent collaborator identity and memory. Save insights as they emerge; checkpoint at natural pauses.',
    },
  );
  const run = (tool: string, fn: () => Promise<CallToolResult>): Promise<CallToolResult> =>
    (async () => {
      await cx.home.ensure();
      return fn();
    })().catch((err: unknown) => {
      if (err instanceof SparkleError) return refused(`${tool}: ${err.message}`);
      cx.log.error(`${tool} failed`, err);
      return refused(`${tool} failed: ${errorText(err)}`);
    });
  const sparklerOf = async (given: string | undefined): Promise<string> =>
    given === undefined ? cx.sessionSparkler() : checkName('sparkler', given);

  if (cx.space) {
    const space = cx.space;
    server.registerTool(
      'session_checkpoint',
      {
        title: 'Sparkle session checkpoint',
        description:
          'Create a session checkpoint: replaces .sparkle-space/working-memory.json with your working memory and adds a checkpoint narrative under .sparkle-space/checkpoints/, so the next session continues from here.',
        inputSchema: {
          working_memory: z
            .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
            .describe('Working memory: a JSON object (focus, open threads, next steps…), or a string holding that JSON'),
          checkpoint_content: z.string().describe('The checkpoint narrative (markdown)'),
          sparkler: optionalSparkler,
        },
      },
      ({ working_memory, checkpoint_content, sparkler }) =>
        run('session_checkpoint', async () => {
          const memory = parseWorkingMemory(working_memory);
          const name = await cx.home.resolve(await sparklerOf(sparkler)).then((s) => s.name);
          const r = await space.checkpoint(memory, nonEmpty('checkpoint_content', checkpoint_content), name);
          const aside = r.setAside ? `\nThe previous working memory was not valid JSON; it was kept as ${r.setAside}.` : '';
          return ok(`Checkpoint saved.\nWorking memory: ${r.workingMemoryPath}\nCheckpoint: ${r.checkpointPath}${aside}`, {
            ...r,
            sparkler: name,
          });
        }),
    );
  }

  server.registerTool(
    'save_insight',
    {
      title: 'Save a Sparkle insight',
      description:
        'Save an insight from a meta moment: a PatternAnchor (exact words that bring a way of working back), a CollaborationEvolution (how you work together) or a WorkspaceInsight (where things are, how projects connect).',
      inputSchema: {
        insight_type: z.string().describe('PatternAnchor, CollaborationEvolution or WorkspaceInsight'),
        content: z.string().describe('The insight (for a PatternAnchor: the exact words)'),
        context: z.string().optional().describe('When and why it emerged'),
        tags: z.array(z.string()).optional().describe('Tags for finding it again'),
        sparkler: optionalSparkler,
      },
    },
    ({ insight_type, content, context, tags, sparkler }) =>
      run('save_insight', async () => {
        const type = checkInsightType(insight_type);
        const entry = { type, content: nonEmpty('content', content), context, tags };
        const name = await sparklerOf(sparkler);
        const r =
          type === 'WorkspaceInsight' && cx.space
            ? { ...(await cx.space.appendInsight(entry)), sparkler: (await cx.home.resolve(name)).name }
            : await cx.home.appendInsight(entry, name);
        return ok(`✨ Insight saved (${type}) to ${r.path}.`, { insightType: type, ...r });
      }),
  );

  server.registerTool(
    'setup_sparkle',
    {
      title: 'Set up Sparkle',
      description:
        "First-time setup: records your collaborator's name in ~/.sparkle/config.toml and creates any missing profile and sparkler files (existing files are kept).",
      inputSchema: { name: z.string().describe("The human collaborator's name") },
    },
    ({ name }) =>
      run('setup_sparkle', async () => {
        const r = await cx.home.setup(name);
        return ok(
          `Sparkle is set up for ${name.trim()} in ${cx.home.dir}. Created: ${r.created.length}; kept as they were: ${r.kept.length}.`,
          { home: cx.home.dir, ...r },
        );
      }),
  );

  server.registerTool(
    'create_sparkler',
    {
      title: 'Create a sparkler',
      description:
        "Create a new Sparkler identity with starter files. The first additional sparkler moves the existing one's files to ~/.sparkle/sparklers/<name>/ (several-sparkler layout).",
      inputSchema: { name: z.string().describe('Name of the new sparkler') },
    },
    ({ name }) =>
      run('create_sparkler', async () => {
        const r = await cx.home.create(name);
        const moved = r.moved.length ? ` Moved ${r.moved.length} file(s) of the existing sparkler into sparklers/.` : '';
        return ok(
          `✨ Created sparkler ${r.name} in ${r.dir}.${moved} It is embodied in sessions configured for it (symposium.sparkle.sparkler).`,
          { ...r, movedCount: r.moved.length },
        );
      }),
  );

  server.registerTool(
    'list_sparklers',
    {
      title: 'List sparklers',
      description: 'Show all Sparkler identities, with the default one marked.',
      inputSchema: {},
    },
    () =>
      run('list_sparklers', async () => {
        const { config, problem } = await cx.home.list();
        const lines = config.sparklers.map((s) => `- ${s.name}${s.default ? ' (default)' : ''}`);
        return ok([`Sparklers (${config.sparklers.length}):`, ...lines, ...(problem ? [`Note: ${problem}`] : [])].join('\n'), {
          sparklers: config.sparklers,
          layout: config.layout,
          count: config.sparklers.length,
        });
      }),
  );

  server.registerTool(
    'rename_sparkler',
    {
      title: 'Rename a sparkler',
      description:
        'Rename a Sparkler (its patterns and files stay with it). Renames the one this session embodies unless old_name is given.',
      inputSchema: {
        new_name: z.string().describe('The new name'),
        old_name: z.string().optional().describe("The sparkler to rename; defaults to this session's"),
      },
    },
    ({ new_name, old_name }) =>
      run('rename_sparkler', async () => {
        const r = await cx.home.rename(new_name, old_name ?? (await cx.sessionSparkler()));
        cx.renamed(r.oldName, r.newName);
        return ok(`Renamed ${r.oldName} to ${r.newName}.`, { ...r });
      }),
  );

  server.registerTool(
    'update_collaborator_profile',
    {
      title: 'Update the collaborator profile',
      description:
        'Replace ~/.sparkle/collaborator-profile.md with new content (the previous version is kept as a timestamped backup next to it). Keep what the user wants to keep.',
      inputSchema: { content: z.string().describe('The complete new profile (markdown)') },
    },
    ({ content }) =>
      run('update_collaborator_profile', async () => {
        const r = await cx.home.updateProfile(nonEmpty('content', content));
        return ok(`Collaborator profile updated: ${r.path}${r.backup ? ` (previous version: ${r.backup})` : ''}.`, {
          ...r,
          chars: content.length,
        });
      }),
  );

  server.registerTool(
    'update_sparkler_identity',
    {
      title: 'Update the sparkler identity',
      description:
        'Define who YOU are as a Sparkler: replaces sparkler-identity.md (previous version kept as a backup). Keep it brief: a definition, not a story.',
      inputSchema: { content: z.string().describe('The complete new identity (markdown)'), sparkler: optionalSparkler },
    },
    ({ content, sparkler }) =>
      run('update_sparkler_identity', async () => {
        const r = await cx.home.updateIdentity(nonEmpty('content', content), await sparklerOf(sparkler));
        return ok(`Identity of ${r.sparkler} updated: ${r.path}${r.backup ? ` (previous version: ${r.backup})` : ''}.`, {
          ...r,
          chars: content.length,
        });
      }),
  );

  server.registerTool(
    'load_evolution',
    {
      title: 'Load the evolution record',
      description:
        "Read the sparkler's collaboration evolution and pattern anchors and the design documents in ~/.sparkle/evolution/ (archives skipped). Read-only.",
      inputSchema: { sparkler: optionalSparkler },
    },
    ({ sparkler }) =>
      run('load_evolution', async () => {
        const r = await cx.home.loadEvolution(await sparklerOf(sparkler));
        const text = r.files.map((f) => `<!-- ${f.path} -->\n${f.text.trim()}`).join('\n\n') || 'No evolution files yet.';
        return ok(text, { sparkler: r.sparkler, files: r.files.map((f) => f.path), count: r.files.length, chars: text.length });
      }),
  );

  server.registerTool(
    'fetch_profile_data',
    {
      title: 'Fetch profile data (not available)',
      description:
        'Not available in Symposium: Sparkle works offline here. Ask the user to paste what they want in their profile and use update_collaborator_profile.',
      inputSchema: {
        profile_sources: z.array(z.unknown()).optional(),
        content: z.string().optional(),
        working_style: z.string().optional(),
        collaboration_prefs: z.string().optional(),
      },
    },
    () =>
      Promise.resolve(
        refused(
          'fetch_profile_data is not available: Sparkle in Symposium never uses the network. Ask the user to paste the information, then call update_collaborator_profile.',
        ),
      ),
  );

  return server;
}
