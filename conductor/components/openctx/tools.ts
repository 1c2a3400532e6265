// The `openctx` MCP server a session gets when the editor configured OpenCtx providers: the
// agent can list the providers, search their mentions and fetch their items during a turn. Answers
// are JSON text; provider settings never appear in them. One provider failing or timing out costs
// only its own results (it is named in `problems`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { OpenCtxClient } from '../../../src/node/openctxClient';
import { itemText } from '../../../src/protocol/openctx';
import { CONDUCTOR_VERSION } from '../../version';

/** Problems reported while one tool call ran (several calls may run at once: each gets its own list). */
export type ProblemSink = (provider: string, message: string) => void;

/** The MCP request's `extra` as far as progress goes (its token and how to notify the caller). */
export interface ToolCallExtra {
  _meta?: { progressToken?: string | number };
  sendNotification(n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; message: string };
  }): Promise<void>;
}

export interface OpenCtxTools {
  /**
   * The client for the session's providers; `problems` collects what goes wrong during one call.
   * `tool` and `extra` let a call that waits on slow providers show progress on its tool card.
   */
  withClient<T>(tool: string, extra: ToolCallExtra, run: (client: OpenCtxClient) => Promise<T>): Promise<{ value: T; problems: string[] }>;
}

const json = (v: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(v, null, 2) }] });

export function createOpenCtxServer(tools: OpenCtxTools): McpServer {
  const server = new McpServer({ name: 'openctx', version: CONDUCTOR_VERSION });
  const provider = z
    .string()
    .max(4_096)
    .optional()
    .describe('Only this provider: its uri or name from openctx_providers. Default: every provider.');

  server.registerTool(
    'openctx_providers',
    {
      title: 'OpenCtx providers',
      description:
        'Lists the OpenCtx context providers the user configured (docs, tickets, dashboards, code hosts…): name, uri, and whether each offers mentions and items.',
      inputSchema: {},
    },
    async (_args, extra) => {
      const { value, problems } = await tools.withClient('openctx_providers', extra, (c) => c.meta());
      return json({
        providers: value.map(({ provider: uri, meta }) => ({ uri, name: meta.name, mentions: meta.mentions, items: meta.items })),
        ...(problems.length ? { problems } : {}),
      });
    },
  );

  server.registerTool(
    'openctx_mentions',
    {
      title: 'Search OpenCtx mentions',
      description:
        'Searches the OpenCtx providers for things that can be mentioned (documents, tickets, pages…) matching a query. Pass a result to openctx_items to read it.',
      inputSchema: { provider, query: z.string().max(1_000).describe('What to search for (may be empty: everything the providers offer)') },
    },
    async ({ provider: only, query }, extra) => {
      const { value, problems } = await tools.withClient('openctx_mentions', extra, (c) =>
        c.mentions(query, only ? { provider: only } : {}),
      );
      return json({
        mentions: value.map(({ provider: uri, mention }) => ({ provider: uri, ...mention })),
        ...(problems.length ? { problems } : {}),
      });
    },
  );

  server.registerTool(
    'openctx_items',
    {
      title: 'Read OpenCtx items',
      description:
        'Fetches content from the OpenCtx providers: for a mention (from openctx_mentions: pass it with its provider), or for a message the providers interpret.',
      inputSchema: {
        provider,
        mention: z
          .object({ uri: z.string().max(4_096), title: z.string().max(1_000).optional(), data: z.record(z.unknown()).optional() })
          .optional()
          .describe('A mention from openctx_mentions'),
        message: z.string().max(10_000).optional().describe('A question or text the providers find relevant items for'),
      },
    },
    async ({ provider: only, mention, message }, extra) => {
      if (!mention && message === undefined) return { isError: true, content: [{ type: 'text', text: 'Give a mention or a message.' }] };
      const params = {
        ...(mention
          ? { mention: { uri: mention.uri, title: mention.title ?? mention.uri, ...(mention.data ? { data: mention.data } : {}) } }
          : {}),
        ...(message !== undefined ? { message } : {}),
      };
      const { value, problems } = await tools.withClient('openctx_items', extra, (c) => c.items(params, only ? { provider: only } : {}));
      return json({
        items: value.map(({ provider: uri, item }) => ({
          provider: uri,
          title: item.title,
          ...(item.url ? { url: item.url } : {}),
          content: itemText(item),
        })),
        ...(problems.length ? { problems } : {}),
      });
    },
  );
  return server;
}
