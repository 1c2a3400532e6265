// The `symposium-ide` MCP server a session gets: `ide_operation {program}` (the Dialect-compatible language,
// dialect.ts + functions.ts) and the same operations as typed tools, because many agents call
// typed tools more reliably than they write a language. Every tool turns into `_symposium/ide/*`
// requests through the backend it is handed; failures are `isError` results that say what to fix.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CONDUCTOR_VERSION } from '../../version';
import { IDE_MCP_SERVER } from '../../../src/protocol/ideOperations';
import { DialectError, describeError, parseProgram } from './dialect';
import { evaluate } from './evaluate';
import { definitionsByName, FUNCTIONS, lookupFunction } from './functions';
import { formatResult } from './results';
import { ArgumentError, IdeCallError, type IdeBackend, type Value } from './values';
import { errorText } from '../../../src/protocol/errorText';

/** One tool call's view of the session: a backend, the roots for relative paths, and notes. */
export interface ToolCallScope {
  backend: IdeBackend;
  roots: string[];
  notes: string[];
  /** Ends the call's progress reporting (called once the call has its result). */
  finish?(): void;
}

/** The MCP request's `extra` as far as a tool call uses it: its signal, progress token and notifications. */
export interface ToolCallExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; message: string };
  }): Promise<void>;
}

export interface IdeServerOptions {
  maxResults: number;
  /** Makes the scope of one call (the backend is bound to the session, the call's signal and its progress). */
  scope(tool: string, extra: ToolCallExtra): Promise<ToolCallScope>;
  log?: (message: string) => void;
}

const POSITIONS = 'Lines and columns are 1-based; a column counts characters (a tab or an emoji is one).';
const RESULTS = `Results are JSON: lists are {total, results: [{file, line, column, endLine, endColumn, name?, kind?, snippet}]}, capped (the total is still reported); file is relative to the workspace folder when inside it. ${POSITIONS}`;

const text = (t: string, isError = false): CallToolResult => ({
  ...(isError ? { isError: true } : {}),
  content: [{ type: 'text', text: t }],
});

function languageDescription(): string {
  const fns = FUNCTIONS.map((f) => `- ${f.usage}: ${f.description}`).join('\n');
  return [
    "Asks the IDE (the editor's language features: go to definition, find references, symbols, hover, diagnostics, search) with a small expression language, compatible with Symposium's Dialect.",
    'A program is one expression: strings ("…", \'…\' or `…`), numbers, true/false/null, [lists], {objects}, function calls, and [i] indexing (negative from the end). Calls nest: the result of one is an argument of another; a location or symbol result can be passed where a position is expected.',
    'Examples: findDefinitions("Parser") · findReferences(findDefinitions("Parser")[0]) · hover("src/main.ts", 12, 5) · search("src", "TODO\\\\(", ".ts") · diagnostics("src/main.ts")',
    `Functions (case-insensitive):\n${fns}`,
    RESULTS,
  ].join('\n\n');
}

export function createIdeServer(options: IdeServerOptions): McpServer {
  const server = new McpServer({ name: IDE_MCP_SERVER, version: CONDUCTOR_VERSION });
  /** Runs `work` with a fresh scope and turns its value (or failure) into the tool result. */
  const run = async (
    tool: string,
    extra: ToolCallExtra,
    work: (scope: ToolCallScope) => Promise<Value>,
    onEmpty?: string,
  ): Promise<CallToolResult> => {
    const started = Date.now();
    let scope: ToolCallScope | undefined;
    try {
      scope = await options.scope(tool, extra);
      const value = await work(scope);
      if (onEmpty && Array.isArray(value) && value.length === 0) scope.notes.push(onEmpty);
      const { text: t, structured } = formatResult(value, scope.roots, options.maxResults, scope.notes);
      options.log?.(`${tool}: ${Array.isArray(value) ? `${value.length} results` : 'answered'} in ${Date.now() - started} ms`);
      return { content: [{ type: 'text', text: t }], structuredContent: structured };
    } catch (err) {
      if (err instanceof DialectError) throw err; // ide_operation shows it with the program and a caret
      options.log?.(`${tool} failed after ${Date.now() - started} ms: ${errorText(err)}`);
      if (err instanceof ArgumentError || err instanceof IdeCallError) return text(`${tool}: ${err.message}`, true);
      return text(`${tool} failed: ${errorText(err)}`, true);
    } finally {
      scope?.finish?.();
    }
  };
  /** A typed tool that calls one language function with positional arguments. */
  const call = (name: string, args: Value[], scope: ToolCallScope): Promise<Value> => lookupFunction(name)!.run(args, scope.backend);
  const position = {
    file: z.string().describe('File path, relative to the workspace folder or absolute'),
    line: z.number().int().min(1).describe('1-based line'),
    column: z.number().int().min(1).describe('1-based column, in characters'),
  };
  /** A symbol by name, or a position (find_definitions, find_references). */
  const symbolOrPositionSchema = {
    symbol: z.string().optional().describe('Symbol name'),
    file: position.file.optional(),
    line: position.line.optional(),
    column: position.column.optional(),
  };
  const symbolOrPosition = (a: { symbol?: string; file?: string; line?: number; column?: number }): Value[] => {
    if (a.symbol !== undefined) return [a.symbol];
    if (a.file !== undefined && a.line !== undefined) return [a.file, a.line, a.column ?? 1];
    throw new ArgumentError('give either "symbol", or "file", "line" and "column"');
  };

  server.registerTool(
    'ide_operation',
    {
      title: 'IDE operation (expression language)',
      description: languageDescription(),
      inputSchema: { program: z.string().describe('One expression, e.g. findReferences(findDefinitions("Parser")[0])') },
    },
    async ({ program }, extra) => {
      let expr;
      try {
        expr = parseProgram(program);
      } catch (err) {
        if (err instanceof DialectError) return text(describeError(program, err), true);
        throw err;
      }
      try {
        return await run('ide_operation', extra, (scope) => evaluate(expr, { src: program, backend: scope.backend }));
      } catch (err) {
        if (err instanceof DialectError) return text(describeError(program, err), true);
        throw err;
      }
    },
  );

  server.registerTool(
    'find_definitions',
    {
      title: 'Find definitions',
      description: `Where a symbol is defined (like Go to Definition), by name ("Parser", or "Parser.parse" for a member) or at a position. ${RESULTS}`,
      inputSchema: symbolOrPositionSchema,
    },
    (a, extra) =>
      run(
        'find_definitions',
        extra,
        (scope) => call('findDefinitions', symbolOrPosition(a), scope),
        a.symbol !== undefined ? `no symbol named ${JSON.stringify(a.symbol)} was found among the workspace symbols` : undefined,
      ),
  );

  server.registerTool(
    'find_references',
    {
      title: 'Find references',
      description: `Every reference to a symbol, its declaration included (like Find All References): give a symbol name, or the position of a use. ${RESULTS}`,
      inputSchema: symbolOrPositionSchema,
    },
    (a, extra) =>
      run('find_references', extra, async (scope) => {
        if (a.symbol !== undefined && (await definitionsByName(a.symbol, scope.backend)).length === 0) {
          scope.notes.push(`no symbol named ${JSON.stringify(a.symbol)} was found among the workspace symbols`);
          return [];
        }
        return call('findReferences', symbolOrPosition(a), scope);
      }),
  );

  server.registerTool(
    'workspace_symbols',
    {
      title: 'Workspace symbols',
      description: `Symbols whose name matches a query, across the workspace (like Go to Symbol in Workspace; fuzzy). ${RESULTS}`,
      inputSchema: { query: z.string().describe('Part of a symbol name') },
    },
    ({ query }, extra) => run('workspace_symbols', extra, (scope) => call('symbols', [query], scope)),
  );

  server.registerTool(
    'document_symbols',
    {
      title: 'Document symbols',
      description: `The outline of one file: its classes, functions, members (members carry containerName). ${RESULTS}`,
      inputSchema: { file: position.file },
    },
    ({ file }, extra) => run('document_symbols', extra, (scope) => call('documentSymbols', [file], scope)),
  );

  server.registerTool(
    'hover',
    {
      title: 'Hover',
      description: `The hover text at a position: the type, signature and documentation of the symbol there. ${POSITIONS}`,
      inputSchema: position,
    },
    ({ file, line, column }, extra) => run('hover', extra, (scope) => call('hover', [file, line, column], scope)),
  );

  server.registerTool(
    'diagnostics',
    {
      title: 'Diagnostics',
      description: `Errors and warnings the IDE reports (the Problems view), of one file or of the whole workspace. ${RESULTS}`,
      inputSchema: { file: position.file.optional() },
    },
    ({ file }, extra) => run('diagnostics', extra, (scope) => call('diagnostics', file === undefined ? [] : [file], scope)),
  );

  server.registerTool(
    'search_text',
    {
      title: 'Search text',
      description: `Lines matching a regular expression (JavaScript syntax), one hit per line, in a file or a folder (hidden, node_modules and .gitignore'd files skipped). ${RESULTS}`,
      inputSchema: {
        path: z.string().describe('File or folder, relative to the workspace folder or absolute'),
        regex: z.string().describe('Regular expression, e.g. "TODO\\\\("'),
        extension: z.string().optional().describe('Only files with this extension, e.g. ".ts"'),
      },
    },
    ({ path, regex, extension }, extra) =>
      run('search_text', extra, (scope) => call('search', extension === undefined ? [path, regex] : [path, regex, extension], scope)),
  );

  return server;
}
