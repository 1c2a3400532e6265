// ElizACP as an MCP *client*: connects to the MCP servers a session was given in session/new so
// tests can check that the conductor's injected servers really work end to end (stdio servers
// and, unless --no-http-mcp, Streamable HTTP servers with their headers).
//
// The MCP SDK is loaded on the first connection, not with ElizACP: building its schemas took
// about a fifth of ElizACP's start (docs/benchmarks.md), and most sessions never use MCP.
import { statSync } from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { respond } from './engine';
import { logDebug } from './log';
import { ELIZA_NAME, ELIZA_VERSION } from './version';

/** Upper bound for connect/list/call, so a wedged server produces an error reply, not a hang. */
export const MCP_TIMEOUT_MS = 20_000;

export class UnknownServerError extends Error {}

export interface ToolResult {
  isError: boolean;
  /** Text content blocks joined with '\n' (or the structured content as JSON if there is no text). */
  text: string;
  structured?: unknown;
  /** The progress notifications the server sent while the tool ran (`progress/total message`). */
  progress: string[];
}

/**
 * ElizACP's answer to an MCP server's `sampling/createMessage`: its deterministic ELIZA reply to
 * the last user message, so tests can check that a server's request reached the agent and came back.
 */
export function sampleWithEliza(messages: readonly { role: string; content: unknown }[]): CreateMessageResult {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const blocks = Array.isArray(last?.content) ? (last.content as unknown[]) : [last?.content];
  const text = blocks
    .map((b) =>
      typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text) : '',
    )
    .join(' ');
  return {
    role: 'assistant',
    model: 'elizacp',
    stopReason: 'endTurn',
    content: { type: 'text', text: respond(text, { deterministic: true }) },
  };
}

// Stdio servers are our children. If the process dies abruptly (the `crash` hook calls
// process.exit) no async cleanup runs, so kill them synchronously from the 'exit' event.
const stdioPids = new Set<number>();
let exitHookInstalled = false;
function trackPid(pid: number): void {
  stdioPids.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const p of stdioPids) {
      try {
        process.kill(p);
      } catch {
        // already gone
      }
    }
  });
}

/** The parts of the MCP SDK a client needs, loaded once, on first use. */
let mcpSdk: Promise<typeof import('./mcpSdk')> | undefined;
const loadMcpSdk = (): Promise<typeof import('./mcpSdk')> => (mcpSdk ??= import('./mcpSdk'));

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A connected client, and the pid of its server when ElizACP started it (stdio). */
interface Connection {
  client: Client;
  stdioPid: number | null;
}

/** The MCP clients of one session, opened lazily and cached per server name. */
export class McpPool {
  private readonly clients = new Map<string, Promise<Connection>>();

  constructor(
    private readonly servers: readonly acp.McpServer[],
    private readonly cwd: string,
  ) {}

  names(): string[] {
    return this.servers.map((s) => s.name);
  }

  /** `MCP servers: a (stdio), b (http)` in the order declared, or `MCP servers: (none).` */
  describe(): string {
    const kind = (s: acp.McpServer): string => ('type' in s && typeof s.type === 'string' ? s.type : 'stdio');
    return `MCP servers: ${this.servers.length ? this.servers.map((s) => `${s.name} (${kind(s)})`).join(', ') : '(none)'}.`;
  }

  private config(name: string): acp.McpServer {
    const server = this.servers.find((s) => s.name === name);
    if (!server) {
      const known = this.names();
      throw new UnknownServerError(
        `No MCP server named '${name}' in this session. Known servers: ${known.length ? known.join(', ') : '(none)'}.`,
      );
    }
    return server;
  }

  private transport(server: acp.McpServer, sdk: typeof import('./mcpSdk')): Transport {
    if ('type' in server && server.type === 'http') {
      const headers: Record<string, string> = {};
      for (const h of server.headers) headers[h.name] = h.value;
      return new sdk.StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
    }
    if ('type' in server && server.type === 'sse') {
      throw new Error(`MCP server '${server.name}' uses SSE, which ElizACP does not support (mcpCapabilities.sse is false).`);
    }
    const stdio = server as acp.McpServerStdio;
    const env: Record<string, string> = {};
    for (const e of stdio.env) env[e.name] = e.value;
    // Like most agents, start stdio servers in the session's working directory.
    return new sdk.StdioClientTransport({
      command: stdio.command,
      args: [...stdio.args],
      env,
      stderr: 'inherit',
      ...(isDirectory(this.cwd) ? { cwd: this.cwd } : {}),
    });
  }

  private async open(name: string, signal: AbortSignal): Promise<Connection> {
    const server = this.config(name);
    const sdk = await loadMcpSdk();
    const transport = this.transport(server, sdk);
    // ElizACP is a model too: servers may ask it to sample (answered with its ELIZA reply).
    const client = new sdk.Client({ name: ELIZA_NAME, version: ELIZA_VERSION }, { capabilities: { sampling: {} } });
    client.setRequestHandler(sdk.CreateMessageRequestSchema, (request) => {
      logDebug(`MCP server '${name}' asked to sample`);
      return sampleWithEliza(request.params.messages);
    });
    try {
      await client.connect(transport, { signal, timeout: MCP_TIMEOUT_MS });
    } catch (err) {
      await transport.close().catch(() => undefined);
      throw err;
    }
    const stdioPid = transport instanceof sdk.StdioClientTransport ? transport.pid : null;
    if (stdioPid !== null) trackPid(stdioPid);
    logDebug(`connected to MCP server '${name}'`);
    return { client, stdioPid };
  }

  private async client(name: string, signal: AbortSignal): Promise<Client> {
    this.config(name); // unknown names fail fast, before anything is cached
    let entry = this.clients.get(name);
    if (!entry) {
      entry = this.open(name, signal);
      this.clients.set(name, entry);
      // A failed connection must not poison the cache: the next prompt retries.
      const mine = entry;
      mine.catch(() => {
        if (this.clients.get(name) === mine) this.clients.delete(name);
      });
    }
    return (await entry).client;
  }

  async toolNames(server: string, signal: AbortSignal): Promise<string[]> {
    const client = await this.client(server, signal);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: MCP_TIMEOUT_MS });
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    return names;
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const client = await this.client(server, signal);
    const progress: string[] = [];
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      signal,
      timeout: MCP_TIMEOUT_MS,
      onprogress: (p) => progress.push(`${p.progress}${p.total === undefined ? '' : `/${p.total}`}${p.message ? ` ${p.message}` : ''}`),
    });
    const content = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: unknown }>) : [];
    const texts = content.filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text as string);
    const structured = result.structuredContent;
    return {
      isError: result.isError === true,
      text: texts.length > 0 ? texts.join('\n') : structured !== undefined ? JSON.stringify(structured) : '',
      ...(structured !== undefined ? { structured } : {}),
      progress,
    };
  }

  async closeAll(): Promise<void> {
    const entries = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(
      entries.map(async (entry) => {
        const { client, stdioPid } = await entry;
        await client.close();
        if (stdioPid !== null) stdioPids.delete(stdioPid);
      }),
    );
  }
}
