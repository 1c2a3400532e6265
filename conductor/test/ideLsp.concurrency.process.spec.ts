// Many IDE requests at once: the ide-lsp adapter, driven directly at its chain position (the
// requests ide-operations would send upstream), with the real typescript-language-server and
// pyright on test-fixtures/workspace. Three sessions of the same folder send 20 requests together; every
// answer equals the one asked alone, and one server process per language serves them all. Then a
// file is changed on disk: the next question sees the change (didChange, a new version) and the
// diagnostics wait until the server has published for it.
import * as assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { groupAlive } from '../../src/node/processGroup';
import { ideMethod, type IdeOperation } from '../../src/protocol/ideOperations';
import type { Component, ComponentContext, IncomingRequest } from '../chain/component';
import { defaultIdeLspOptions, ideLspFactory } from '../components/ide-lsp/component';
import type { RpcOutcome } from '../jsonrpc/message';
import { createLogger } from '../log';
import { serverPids, testWorkspaceServers } from './languageServerLog';
import { tempDir } from './harness';

const WORKSPACE = resolve(__dirname, '../../test-fixtures/workspace');

function harness(): { adapter: Component; cx: ComponentContext; log: string[] } {
  const log: string[] = [];
  const logger = createLogger('debug', 'ide-lsp', (l) => log.push(l));
  const cx = {
    name: 'ide-lsp',
    log: logger,
    info: { clientCapabilities: {}, agentCapabilities: undefined },
    request: () => Promise.reject(new Error('not used')),
    notify: () => undefined,
    injectMcpServers: () => Promise.reject(new Error('not used')),
  } satisfies ComponentContext;
  return { adapter: ideLspFactory(defaultIdeLspOptions()).create(), cx, log };
}

/** A request crossing the adapter's position; resolves with how it was answered. */
function send(
  adapter: Component,
  cx: ComponentContext,
  method: string,
  params: unknown,
  direction: 'toAgent' | 'toClient',
): Promise<RpcOutcome> {
  return new Promise((done) => {
    const request: IncomingRequest = {
      method,
      params,
      direction,
      signal: new AbortController().signal,
      forward: () => done({ error: { code: 0, message: 'forwarded' } }),
      // session/new: the agent's answer comes back through the adapter.
      forwardThen: (_p, map) => done(map({ result: { sessionId: (params as { _id: string })._id } })),
      respond: (result) => done({ result }),
      fail: (error) => done({ error }),
    };
    void adapter.onRequest!(request, cx);
  });
}

async function newSession(adapter: Component, cx: ComponentContext, id: string, cwd: string): Promise<string> {
  await send(adapter, cx, 'session/new', { cwd, mcpServers: [], _id: id }, 'toAgent');
  return id;
}

const ask = (adapter: Component, cx: ComponentContext, sessionId: string, op: IdeOperation, params: Record<string, unknown>) =>
  send(adapter, cx, ideMethod(op), { sessionId, ...params }, 'toClient');

describe('ide-lsp: concurrent requests and changing files (real servers)', function () {
  this.timeout(120_000);

  it('20 requests from 3 sessions at once: the answers asked alone, one server per language', async () => {
    const { adapter, cx, log } = harness();
    try {
      const sessions: string[] = [];
      for (const id of ['s1', 's2', 's3']) sessions.push(await newSession(adapter, cx, id, WORKSPACE));
      const questions: [IdeOperation, Record<string, unknown>][] = [
        ['references', { position: { file: 'ts-project/src/parser.ts', line: 4, column: 14 } }],
        ['definitions', { position: { file: 'ts-project/src/main.ts', line: 4, column: 46 } }],
        ['hover', { position: { file: 'ts-project/src/main.ts', line: 8, column: 16 } }],
        ['documentSymbols', { file: 'ts-project/src/report.ts' }],
        ['workspaceSymbols', { query: 'Circle' }],
        ['definitions', { position: { file: 'py-package/geometry/report.py', line: 6, column: 14 } }],
        ['references', { position: { file: 'py-package/geometry/shapes.py', line: 13, column: 5 } }],
      ];
      const alone: RpcOutcome[] = [];
      for (const [op, params] of questions) alone.push(await ask(adapter, cx, 's1', op, params));
      for (const a of alone) assert.ok('result' in a, JSON.stringify(a));
      const together = await Promise.all(
        Array.from({ length: 20 }, (_, i) => ask(adapter, cx, sessions[i % 3]!, ...questions[i % questions.length]!)),
      );
      together.forEach((answer, i) => assert.deepEqual(answer, alone[i % questions.length], `request ${i}`));
      assert.deepEqual(
        serverPids(log.join('\n'))
          .map((s) => s.name)
          .sort(),
        testWorkspaceServers(),
      );
    } finally {
      await adapter.dispose?.();
    }
    for (const { pid } of serverPids(log.join('\n'))) assert.equal(groupAlive(pid), false, `server ${pid} stopped with the adapter`);
  });

  it('a file changed on disk: the next answer sees it (didChange), and its diagnostics are waited for', async () => {
    const ws = tempDir('ide-lsp-change-');
    cpSync(join(WORKSPACE, 'ts-project'), ws, { recursive: true });
    const { adapter, cx } = harness();
    try {
      const s = await newSession(adapter, cx, 's', ws);
      const report = join(ws, 'src/report.ts');
      const first = await ask(adapter, cx, s, 'diagnostics', { file: 'src/report.ts' });
      assert.deepEqual(
        (first as { result: { items: { line: number; code: string }[] } }).result.items.map((d) => [d.line, d.code]),
        [[9, '2322']],
      );
      writeFileSync(report, "import { Parser } from './parser';\n\nexport const fine: number = new Parser(false).parse('1');\n");
      const fixed = await ask(adapter, cx, s, 'diagnostics', { file: 'src/report.ts' });
      assert.deepEqual((fixed as { result: { total: number } }).result.total, 0, JSON.stringify(fixed));
      const symbols = await ask(adapter, cx, s, 'documentSymbols', { file: 'src/report.ts' });
      assert.deepEqual(
        (symbols as { result: { items: { name: string; line: number }[] } }).result.items.map((x) => [x.name, x.line]),
        [['fine', 3]],
      );
    } finally {
      await adapter.dispose?.();
    }
  });
});
