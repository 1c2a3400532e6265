// Raw-pipe tests: what the conductor does with bad input, and the exact order of its output.
import * as assert from 'node:assert/strict';
import { conductorArgs, tempDir, waitFor } from './harness';
import { rawConductor } from './rawClient';

describe('conductor on raw pipes', function () {
  this.timeout(30000);

  it('answers malformed input with JSON-RPC errors and keeps serving', async () => {
    const c = rawConductor();
    try {
      c.send('this is not json');
      c.send('[{"jsonrpc":"2.0","id":1,"method":"initialize"}]');
      c.send({ jsonrpc: '2.0', id: 'early', method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } });
      const parseErr = await waitFor(
        () => c.lines.find((l) => (l.error as { code?: number } | undefined)?.code === -32700),
        3000,
        'parse error',
      );
      assert.equal(parseErr.id, null);
      await waitFor(
        () => c.lines.find((l) => (l.error as { code?: number } | undefined)?.code === -32600 && l.id === null),
        3000,
        'batch error',
      );
      const early = await c.response('early');
      assert.match(JSON.stringify(early.error), /before \\"initialize\\"/);
      c.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
      await c.response(1);
      c.send({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: 'relative/path', mcpServers: [] } });
      assert.equal(((await c.response(2)).error as { code: number }).code, -32602);
      c.send({ jsonrpc: '2.0', id: 3, method: 'session/new', params: { cwd: tempDir(), mcpServers: [] } });
      assert.ok(((await c.response(3)).result as { sessionId: string }).sessionId);
      assert.match(c.stderr(), /invalid message from the editor/);
    } finally {
      c.child.kill();
    }
  });

  it('never lets a prompt response overtake the updates streamed before it', async () => {
    const c = rawConductor(conductorArgs({ components: ['passthrough', 'passthrough', 'passthrough', 'symposium-info'], log: 'warn' }));
    try {
      c.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
      await c.response(1);
      c.send({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: tempDir(), mcpServers: [] } });
      const sessionId = ((await c.response(2)).result as { sessionId: string }).sessionId;
      const n = 3000;
      c.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: `stream ${n} chunks` }] },
      });
      await c.response(3);
      const responseIndex = c.lines.findIndex((l) => l.id === 3);
      const chunks = c.lines
        .map((l, i) => [l, i] as const)
        .filter(([l]) => l.method === 'session/update' && JSON.stringify(l).includes('"chunk '));
      assert.equal(chunks.length, n);
      assert.ok(
        chunks.every(([, i]) => i < responseIndex),
        'an update arrived after the prompt response',
      );
      const texts = chunks.map(([l]) => (l.params as { update: { content: { text: string } } }).update.content.text);
      assert.ok(
        texts.join('') === Array.from({ length: n }, (_, i) => `chunk ${i + 1} `).join(''),
        'chunks arrived out of order or altered',
      );
    } finally {
      c.child.kill();
    }
  });
});
