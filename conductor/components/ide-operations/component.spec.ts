// The ide-operations component's routing rules, with fake requests: `_symposium/ide/*` from the
// agent is refused (only the component speaks it), a crate researcher's session/new passes without
// an `ide` server, a user's session gets one; and results are shaped for the agent (results.ts).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ComponentContext, IncomingRequest, McpServerSpec } from '../../chain/component';
import type { RpcError } from '../../jsonrpc/message';
import { IdeOperations } from './component';
import { formatResult, sessionRoots } from './results';

interface Seen {
  forwarded?: unknown[];
  failed?: RpcError;
  injected?: string[];
}

function fakeRequest(method: string, direction: 'toAgent' | 'toClient', params: unknown, seen: Seen): IncomingRequest {
  return {
    method,
    direction,
    params,
    signal: new AbortController().signal,
    forward: (p?: unknown) => void (seen.forwarded = [p]),
    forwardThen: (p: unknown) => void (seen.forwarded = [p]),
    respond: () => assert.fail('respond'),
    fail: (error: RpcError) => void (seen.failed = error),
  };
}

function fakeContext(seen: Seen): ComponentContext {
  const log = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  return {
    name: 'ide-operations',
    log: log as unknown as ComponentContext['log'],
    info: { clientCapabilities: {}, agentCapabilities: undefined },
    request: () => Promise.reject(new Error('not used')),
    notify: () => undefined,
    injectMcpServers: async (params: Record<string, unknown>, servers: readonly McpServerSpec[]) => {
      seen.injected = servers.map((s) => s.name);
      return { params, bind: () => undefined, close: async () => undefined };
    },
  };
}

describe('ide-operations component', () => {
  it('refuses _symposium/ide/* requests coming from the agent', () => {
    const seen: Seen = {};
    new IdeOperations().onRequest(
      fakeRequest('_symposium/ide/lines', 'toClient', { sessionId: 's', file: '/etc/passwd', start: 1, end: 9 }, seen),
      fakeContext(seen),
    );
    assert.equal(seen.failed?.code, -32601);
    assert.match(seen.failed!.message, /sent by Symposium's ide-operations component only/);
    assert.equal(seen.forwarded, undefined);
  });

  it('passes other agent requests (fs/*, permissions) on', () => {
    const seen: Seen = {};
    new IdeOperations().onRequest(fakeRequest('fs/read_text_file', 'toClient', { sessionId: 's', path: '/x' }, seen), fakeContext(seen));
    assert.deepEqual(seen.forwarded, [undefined]);
  });

  it('injects "symposium-ide" into user sessions and nothing into a crate researcher\'s', async () => {
    const user: Seen = {};
    new IdeOperations().onRequest(fakeRequest('session/new', 'toAgent', { cwd: '/w', mcpServers: [] }, user), fakeContext(user));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(user.injected, ['symposium-ide']);
    const research: Seen = {};
    new IdeOperations().onRequest(
      fakeRequest(
        'session/new',
        'toAgent',
        { cwd: '/w', mcpServers: [], _meta: { symposium: { research: { crate: 'serde' } } } },
        research,
      ),
      fakeContext(research),
    );
    await new Promise((r) => setImmediate(r));
    assert.equal(research.injected, undefined);
    assert.deepEqual(research.forwarded, [undefined]);
  });
});

describe('ide results for the agent (results.ts)', () => {
  const loc = (file: string, line: number) => ({ file, line, column: 1, endLine: line, endColumn: 4 });

  it('lists: {total, results}, one item per line, files relative inside the session folder only', () => {
    const r = formatResult([loc('/w/src/a.ts', 3), loc('/w-other/b.ts', 1), loc('/w', 1)], ['/w']);
    assert.deepEqual(r.structured, { total: 3, results: [loc('src/a.ts', 3), loc('/w-other/b.ts', 1), loc('.', 1)] });
    assert.equal(
      r.text,
      `{"total": 3, "results": [\n  ${JSON.stringify(loc('src/a.ts', 3))},\n  ${JSON.stringify(loc('/w-other/b.ts', 1))},\n  ${JSON.stringify(loc('.', 1))}\n]}`,
    );
    assert.deepEqual(JSON.parse(r.text), r.structured);
  });

  it('caps lists and reports the total; keeps notes', () => {
    const many = Array.from({ length: 7 }, (_, i) => loc('/w/a.ts', i + 1));
    const r = formatResult(many, ['/w'], 5, ['references: the IDE returned 7 of 9 results']);
    assert.equal((r.structured.results as unknown[]).length, 5);
    assert.equal(r.structured.total, 7);
    assert.deepEqual(r.structured.notes, ['references: the IDE returned 7 of 9 results', 'showing the first 5 of 7 results']);
    assert.deepEqual(JSON.parse(r.text), r.structured);
    assert.deepEqual(formatResult([], ['/w']).structured, { total: 0, results: [] });
    assert.equal(formatResult([], ['/w']).text, '{"total": 0, "results": []}');
  });

  it('objects and scalars: nested files relative too; null becomes {result: null}', () => {
    assert.deepEqual(formatResult({ file: '/w/x.ts', line: 2, contents: 'c' }, ['/w']).structured, {
      file: 'x.ts',
      line: 2,
      contents: 'c',
    });
    assert.deepEqual(formatResult(null, ['/w']).structured, { result: null });
    assert.deepEqual(formatResult([[loc('/w/q.ts', 1)]], ['/w']).structured, { total: 1, results: [[loc('q.ts', 1)]] });
  });

  it('a session folder reached through a symlink: answers with the real path are relative too', () => {
    const base = mkdtempSync(join(tmpdir(), 'symposium-ide-roots-'));
    mkdirSync(join(base, 'real'));
    symlinkSync(join(base, 'real'), join(base, 'link'));
    const roots = sessionRoots(join(base, 'link'));
    assert.deepEqual(roots, [join(base, 'link'), join(base, 'real')]);
    assert.equal((formatResult(loc(join(base, 'real', 'm.ts'), 1), roots).structured as { file: string }).file, 'm.ts');
  });
});
