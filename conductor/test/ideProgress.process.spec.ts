// Progress of `ide` tool calls on their cards, over real processes: the conductor with
// ElizACP, played by this test as the editor. (1) No `ide` in the editor's capabilities, so the
// ide-lsp adapter answers from the real typescript-language-server, started cold by the question:
// the server's start and its own `$/progress` (project load) reach the editor as
// `_symposium/tool_progress` while the call waits, and the extension's mapper
// (src/protocol/toolProgressMapper.ts, the one the chat uses) turns them into an `in_progress`
// tool_call_update of that card before its `completed` one. (2) An editor that answers IDE
// operations itself but slowly: after 1 s the card says it waits for the editor, once a second;
// a quick answer shows nothing.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { ToolProgressMapper } from '../../src/protocol/toolProgressMapper';
import { IDE_OPERATIONS, ideMethod, withIdeCapability } from '../../src/protocol/ideOperations';
import {
  PROGRESS_META_FIELD,
  SYMPOSIUM_META_KEY,
  TOOL_PROGRESS_METHOD,
  parseToolProgress,
  withToolProgressCapability,
} from '../../src/protocol/symposium-ext';
import { conductorArgs, sleep } from './harness';

const WORKSPACE = resolve(__dirname, '../../test-fixtures/workspace');

interface Editor {
  conn: acp.ClientConnection;
  /** Every notification from the conductor, in arrival order. */
  notifications: { method: string; params: unknown }[];
  close(): Promise<void>;
}

/** The conductor (`--components ide-operations`) and ElizACP; `answer`, if given, serves `_symposium/ide/*`. */
function start(answer?: (params: Record<string, unknown>) => Promise<unknown>): Editor {
  const argv = conductorArgs({ components: ['ide-operations'], log: 'info' });
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const notifications: Editor['notifications'] = [];
  let app = acp.client().onNotification('*', ({ method, params }) => void notifications.push({ method, params }));
  if (answer)
    for (const operation of IDE_OPERATIONS)
      app = app.onRequest(
        ideMethod(operation),
        (raw: unknown) => raw as Record<string, unknown>,
        ({ params }) => answer(params),
      );
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return {
    conn,
    notifications,
    async close() {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** The session's tool-card updates as the chat would get them: the agent's own, and progress mapped onto its cards. */
function cardUpdates(e: Editor, sessionId: string): acp.SessionUpdate[] {
  const mapper = new ToolProgressMapper();
  const out: acp.SessionUpdate[] = [];
  for (const n of e.notifications) {
    if (n.method === 'session/update') {
      const { sessionId: id, update } = n.params as acp.SessionNotification;
      if (id !== sessionId || (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update')) continue;
      mapper.observe(id, update);
      out.push(update);
    } else if (n.method === TOOL_PROGRESS_METHOD) {
      const p = parseToolProgress(n.params);
      const mapped = p && p.sessionId === sessionId ? mapper.toUpdate(p) : undefined;
      if (mapped) out.push(mapped);
    }
  }
  return out;
}

const progressText = (u: acp.SessionUpdate): string | undefined =>
  (u as { _meta?: Record<string, Record<string, { message?: string }>> })._meta?.[SYMPOSIUM_META_KEY]?.[PROGRESS_META_FIELD]?.message;

const toolProgress = (e: Editor): { tool: string; message: string }[] =>
  e.notifications.filter((n) => n.method === TOOL_PROGRESS_METHOD).map((n) => n.params as { tool: string; message: string });

describe('ide tool calls show progress on their cards', function () {
  this.timeout(90_000);
  let e: Editor | undefined;
  afterEach(async () => {
    await e?.close();
    e = undefined;
  });

  it('a cold typescript-language-server: its start and $/progress are on the card, in_progress before completed', async () => {
    e = start();
    // As the extension does: it shows `_symposium/tool_progress` on its cards itself.
    await e.conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { _meta: withToolProgressCapability(undefined) },
    });
    const { sessionId } = await e.conn.agent.request('session/new', { cwd: WORKSPACE, mcpServers: [] });
    const args = JSON.stringify({ file: 'ts-project/src/main.ts', line: 4, column: 46 });
    await e.conn.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `use tool symposium-ide::hover with ${args}` }],
    });
    await sleep(50);
    const messages = toolProgress(e).map((p) => p.message);
    assert.ok(
      messages.some((m) => /^typescript-language-server: starting…$/.test(m)),
      `the start: ${JSON.stringify(messages)}`,
    );
    const loading = messages.findIndex((m) => /^typescript-language-server: Initializing JS\/TS language features…/.test(m));
    const loaded = messages.indexOf('typescript-language-server: Initializing JS/TS language features: done');
    assert.ok(loading >= 0 && loaded > loading, `the server's own $/progress, begin then end: ${JSON.stringify(messages)}`);
    assert.ok(toolProgress(e).every((p) => p.tool === 'hover'));
    const updates = cardUpdates(e, sessionId);
    const progressAt = updates.findIndex(
      (u) =>
        u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress' && /typescript-language-server/.test(progressText(u) ?? ''),
    );
    const completedAt = updates.findIndex((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    assert.ok(progressAt >= 0, `an in_progress update with the server's progress: ${JSON.stringify(updates)}`);
    assert.ok(completedAt > progressAt, `…before the completed one: ${JSON.stringify(updates)}`);
    assert.equal(
      (updates[progressAt] as { toolCallId: string }).toolCallId,
      (updates[completedAt] as { toolCallId: string }).toolCallId,
      'on the same card',
    );
    // Warm: a second question waits on nothing, so it shows no progress.
    const before = toolProgress(e).length;
    await e.conn.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `use tool symposium-ide::hover with ${args}` }],
    });
    await sleep(50);
    assert.deepEqual(toolProgress(e).slice(before), []);
  });

  it("an editor slow to answer: after 1 s the card says it waits for the editor's language features; a quick answer shows nothing", async () => {
    let delayMs = 2600;
    e = start(async (params) => {
      await sleep(delayMs);
      return {
        hover: { file: String((params.position as { file: string }).file), line: 1, column: 1, endLine: 1, endColumn: 2, contents: 'x' },
      };
    });
    await e.conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { _meta: withToolProgressCapability(withIdeCapability(undefined, { operations: [...IDE_OPERATIONS] })) },
    });
    const { sessionId } = await e.conn.agent.request('session/new', { cwd: WORKSPACE, mcpServers: [] });
    const ask = (): Promise<unknown> =>
      e!.conn.agent.request('session/prompt', {
        sessionId,
        prompt: [
          {
            type: 'text',
            text: `use tool symposium-ide::hover with ${JSON.stringify({ file: 'ts-project/src/main.ts', line: 1, column: 1 })}`,
          },
        ],
      });
    await ask();
    await sleep(50);
    const messages = toolProgress(e).map((p) => p.message);
    assert.deepEqual(messages, ["Waiting for the editor's language features… 1 s", "Waiting for the editor's language features… 2 s"]);
    const updates = cardUpdates(e, sessionId);
    const progressAt = updates.findIndex(
      (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress' && progressText(u) !== undefined,
    );
    const completedAt = updates.findIndex((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    assert.ok(progressAt >= 0 && completedAt > progressAt, JSON.stringify(updates));
    delayMs = 0;
    const before = toolProgress(e).length;
    await ask();
    await sleep(1200);
    assert.deepEqual(toolProgress(e).slice(before), [], 'a quick answer shows no progress, nor a late one');
  });
});
