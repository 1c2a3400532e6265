// The ide-operations component in the real conductor process, in front of ElizACP, with the
// editor played by this test: an editor that advertises IDE operations but answers none of them
// gets "no IDE available" at once (one that advertises nothing, as acpx or Zed, gets the ide-lsp
// adapter: ideLsp.process.spec.ts); with an editor that answers, the
// requests carry the session id, results come back workspace-relative and 1-based, big lists
// are capped with their total, and the tool card gets the locations. A session the editor marks
// as a crate researcher's gets no `ide` server.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { IDE_OPERATIONS, ideMethod, withIdeCapability, type IdeLocation, type IdeOperation } from '../../src/protocol/ideOperations';
import { conductorArgs, tempDir } from './harness';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';

type Answer = (operation: IdeOperation, params: Record<string, unknown>) => unknown;

interface Editor {
  child: ChildProcessWithoutNullStreams;
  conn: acp.ClientConnection;
  updates: acp.SessionNotification[];
  received: { operation: IdeOperation; params: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** The conductor with its default chain and ElizACP; `answer` (if any) serves _symposium/ide/*. */
function start(answer?: Answer): Editor {
  const argv = conductorArgs({ log: 'warn' });
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const updates: acp.SessionNotification[] = [];
  const received: Editor['received'] = [];
  let app = acp.client().onNotification('session/update', ({ params }) => void updates.push(params));
  if (answer) {
    for (const operation of IDE_OPERATIONS) {
      app = app.onRequest(
        ideMethod(operation),
        (raw: unknown) => raw as Record<string, unknown>,
        ({ params }) => {
          received.push({ operation, params });
          return answer(operation, params);
        },
      );
    }
  }
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return {
    child,
    conn,
    updates,
    received,
    async close() {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}

async function ask(e: Editor, sessionId: string, text: string): Promise<string> {
  const from = e.updates.length;
  await e.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  await new Promise((r) => setImmediate(r));
  // Sparkle's embodiment turn (default chain) is not part of the answer.
  return e.updates
    .slice(from)
    .map((u) =>
      u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' && !sparkleMarkOf(u.update)
        ? u.update.content.text
        : '',
    )
    .join('');
}

const loc = (file: string, line: number, column: number, extra: Partial<IdeLocation> = {}): IdeLocation => ({
  file,
  line,
  column,
  endLine: line,
  endColumn: column + 6,
  ...extra,
});

describe('ide-operations (real conductor process, ElizACP)', function () {
  this.timeout(30_000);
  let e: Editor | undefined;
  afterEach(async () => {
    await e?.close();
    e = undefined;
  });

  it('an editor that answers none of the operations: the tools answer "no IDE available" at once; bad programs are explained without an IDE', async () => {
    // (An editor without _meta.symposium.ide gets the ide-lsp adapter instead: ideLsp.process.spec.ts.)
    e = start();
    await e.conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { _meta: withIdeCapability(undefined, { operations: [] }) },
    });
    const { sessionId } = await e.conn.agent.request('session/new', { cwd: tempDir('symposium-ide-'), mcpServers: [] });
    const tools = await ask(e, sessionId, 'list tools from symposium-ide');
    assert.equal(
      tools,
      'Tools from symposium-ide: ide_operation, find_definitions, find_references, workspace_symbols, document_symbols, hover, diagnostics, search_text',
    );
    const started = Date.now();
    const reply = await ask(e, sessionId, 'find definition of Parser');
    assert.match(
      reply,
      /^Tool error: find_definitions: no IDE available for workspaceSymbols: the editor answers IDE operations but not _symposium\/ide\/workspaceSymbols/,
    );
    assert.ok(Date.now() - started < 5000, 'answered without waiting for a timeout');
    const program = JSON.stringify({ program: 'findReferences(findDefinitions("Parser")[0]' });
    assert.equal(
      await ask(e, sessionId, `use tool symposium-ide::ide_operation with ${program}`),
      `Tool error: Parse error at column 44: expected "," or ")" after an item of the arguments of findReferences, found the end of the program\n  findReferences(findDefinitions("Parser")[0]\n  ${' '.repeat(43)}^`,
    );
    const unknown = await ask(
      e,
      sessionId,
      `use tool symposium-ide::ide_operation with ${JSON.stringify({ program: 'gotoDefinition("x")' })}`,
    );
    assert.match(
      unknown,
      /^Tool error: Error at column 1: unknown function gotoDefinition\. Known functions: findDefinitions, findReferences, /,
    );
  });

  it('with an editor that answers: requests carry the session id; results are relative, 1-based, capped with the total; the card gets the locations', async () => {
    const cwd = tempDir('symposium-ide-');
    const parserTs = join(cwd, 'src', 'parser.ts');
    const uses = Array.from({ length: 250 }, (_, i) => loc(join(cwd, 'src', 'main.ts'), i + 1, 5));
    e = start((operation, params) => {
      switch (operation) {
        case 'workspaceSymbols':
          return {
            items: [
              loc(parserTs, 3, 14, { name: 'Parser', kind: 'class', snippet: 'export class Parser {' }),
              loc(parserTs, 9, 3, { name: 'ParserError', kind: 'class' }),
            ],
            total: 2,
          };
        case 'references':
          return { items: uses, total: 250 };
        case 'hover':
          return { hover: { ...loc('/elsewhere/lib.d.ts', 1, 1), contents: `hover at ${JSON.stringify(params.position)}` } };
        default:
          throw acp.RequestError.methodNotFound(ideMethod(operation));
      }
    });
    await e.conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { _meta: withIdeCapability(undefined, { operations: [...IDE_OPERATIONS] }) },
    });
    const { sessionId } = await e.conn.agent.request('session/new', { cwd, mcpServers: [] });

    const defs = JSON.parse(await ask(e, sessionId, 'find definition of Parser')) as { total: number; results: IdeLocation[] };
    assert.deepEqual(defs, {
      total: 1,
      results: [
        {
          file: 'src/parser.ts',
          line: 3,
          column: 14,
          endLine: 3,
          endColumn: 20,
          name: 'Parser',
          kind: 'class',
          snippet: 'export class Parser {',
        },
      ],
    });
    // Each request carries a fresh progress token (ideProgress.process.spec.ts); the editor may ignore it.
    const token = (e.received[0]?.params._meta as { symposium?: { progressToken?: unknown } } | undefined)?.symposium?.progressToken;
    assert.match(String(token), /^[0-9a-f-]{36}$/);
    assert.deepEqual(e.received[0], {
      operation: 'workspaceSymbols',
      params: { query: 'Parser', sessionId, _meta: { symposium: { progressToken: token } } },
    });
    const card = e.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'tool_call_update').pop()!
      .update as acp.ToolCallUpdate;
    assert.deepEqual(card.locations, [{ path: parserTs, line: 3 }]);

    const refs = JSON.parse(await ask(e, sessionId, 'find references to Parser')) as {
      total: number;
      results: IdeLocation[];
      notes: string[];
    };
    assert.equal(refs.total, 250);
    assert.equal(refs.results.length, 200);
    assert.deepEqual(refs.notes, ['showing the first 200 of 250 results']);
    assert.deepEqual(refs.results[199], { file: 'src/main.ts', line: 200, column: 5, endLine: 200, endColumn: 11 });
    const last = e.received.at(-1)!;
    assert.deepEqual(
      { operation: last.operation, params: { ...last.params, _meta: undefined } },
      {
        operation: 'references',
        params: { position: { file: parserTs, line: 3, column: 14 }, sessionId, _meta: undefined },
      },
    );

    const hover = JSON.parse(
      await ask(e, sessionId, `use tool symposium-ide::hover with ${JSON.stringify({ file: 'src/main.ts', line: 12, column: 5 })}`),
    ) as Record<string, unknown>;
    assert.equal(hover.file, '/elsewhere/lib.d.ts', 'files outside the session folder stay absolute');
    assert.equal(hover.contents, 'hover at {"file":"src/main.ts","line":12,"column":5}');

    const err = await ask(e, sessionId, `use tool symposium-ide::document_symbols with ${JSON.stringify({ file: 'src/parser.ts' })}`);
    assert.match(err, /^Tool error: document_symbols: .*_symposium\/ide\/documentSymbols/);
  });

  it("a session the editor marks as a crate researcher's gets no symposium-ide server", async () => {
    e = start(() => ({ items: [], total: 0 }));
    await e.conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const cwd = tempDir('symposium-ide-');
    const research = await e.conn.agent.request('session/new', {
      cwd,
      mcpServers: [],
      _meta: { symposium: { research: { crate: 'serde' } } },
    });
    assert.match(await ask(e, research.sessionId, 'list tools from symposium-ide'), /^No MCP server named 'symposium-ide' in this session/);
    const user = await e.conn.agent.request('session/new', { cwd, mcpServers: [] });
    assert.match(await ask(e, user.sessionId, 'list tools from symposium-ide'), /^Tools from symposium-ide: ide_operation/);
  });
});
