import * as assert from 'node:assert/strict';
import {
  displayJson,
  MASKED,
  parseTraceLine,
  parseTrafficToHost,
  RowBuilder,
  rowMatches,
  savedLine,
  SessionFilter,
  type TrafficEntry,
} from './traffic';

let seq = 0;
const at = (from: string, to: string, message: Record<string, unknown>, time = 1000 + seq, conductor = 1): TrafficEntry => ({
  seq: ++seq,
  conductor,
  time,
  from,
  to,
  message: { jsonrpc: '2.0', ...message },
  bytes: JSON.stringify(message).length,
});

describe('traffic viewer model', () => {
  it('reads trace lines and refuses what is not one', () => {
    const e = parseTraceLine(
      '{"timestamp":"2026-11-23T10:00:00.000Z","from":"editor","to":"editor-edge","message":{"jsonrpc":"2.0","method":"x"}}',
      7,
      2,
    );
    assert.equal(e?.length, 1);
    assert.equal(e[0]!.seq, 7);
    assert.equal(e[0]!.conductor, 2);
    assert.equal(e[0]!.time, Date.parse('2026-11-23T10:00:00.000Z'));
    // A notification the components passed on unchanged: one line, every hop.
    const passed = parseTraceLine(
      '{"timestamp":"2026-11-23T10:00:00.000Z","from":"agent","to":"editor","via":["agent-edge","sparkle","editor-edge"],"message":{"jsonrpc":"2.0","method":"session/update","params":{}}}',
      8,
      2,
    );
    assert.deepEqual(
      passed?.map((h) => `${h.seq} ${h.from} → ${h.to} ${String(h.message.method)}`),
      [
        '8 agent → agent-edge session/update',
        '8 agent-edge → sparkle session/update',
        '8 sparkle → editor-edge session/update',
        '8 editor-edge → editor session/update',
      ],
    );
    for (const bad of [
      'not json',
      '{}',
      '{"timestamp":"x","from":"a","to":"b","message":{}}',
      '{"timestamp":"2026-11-23T10:00:00Z","from":1,"to":"b","message":{}}',
      '{"timestamp":"2026-11-23T10:00:00Z","from":"a","to":"b","via":"c","message":{}}',
      '{"timestamp":"2026-11-23T10:00:00Z","from":"a","to":"b","via":[1],"message":{}}',
    ])
      assert.equal(parseTraceLine(bad, 1, 1), undefined, bad);
  });

  it("keeps one session's messages: initialize, its session/new (once answered), requests naming it and their responses", () => {
    const filter = new SessionFilter('s1');
    const stream = [
      at('editor', 'editor-edge', { id: 1, method: 'initialize', params: {} }),
      at('editor-edge', 'editor', { id: 1, result: {} }),
      at('editor', 'editor-edge', { id: 2, method: 'session/new', params: { cwd: '/' } }),
      at('editor', 'editor-edge', { id: 3, method: 'session/new', params: { cwd: '/' } }),
      at('editor-edge', 'editor', { id: 3, result: { sessionId: 's2' } }),
      at('editor-edge', 'editor', { id: 2, result: { sessionId: 's1' } }),
      at('editor', 'editor-edge', { id: 4, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } }),
      at('agent', 'agent-edge', { method: 'session/update', params: { sessionId: 's2' } }),
      at('agent', 'agent-edge', { method: 'session/update', params: { sessionId: 's1' } }),
      at('editor', 'editor-edge', { method: '$/cancel_request', params: { requestId: 4 } }),
      at('editor-edge', 'editor', { id: 4, result: { stopReason: 'cancelled' } }),
      at('editor', 'editor-edge', { id: 5, method: 'session/prompt', params: { sessionId: 's2', prompt: [] } }),
      at('editor-edge', 'editor', { id: 5, result: { stopReason: 'end_turn' } }),
    ];
    const kept = stream.flatMap((e) => filter.accept(e)).map((e) => e.seq - stream[0]!.seq);
    assert.deepEqual(kept, [0, 1, 2, 5, 6, 8, 9, 10]);
  });

  it("two processes of one configuration (a stopping one replaced) number their requests alike: each answer pairs with its own process's request", () => {
    // Both processes' lines in one history, interleaved as their pipes delivered them.
    const old = (from: string, to: string, message: Record<string, unknown>) => at(from, to, message, 1000 + seq, 1);
    const next = (from: string, to: string, message: Record<string, unknown>) => at(from, to, message, 1000 + seq, 2);
    const stream = [
      old('agent-edge', 'agent', { id: 1, method: 'session/new', params: { cwd: '/' } }),
      next('agent-edge', 'agent', { id: 1, method: 'session/new', params: { cwd: '/', mcpServers: [] } }),
      old('agent', 'agent-edge', { id: 1, result: { sessionId: 'old' } }),
      next('agent', 'agent-edge', { id: 1, result: { sessionId: 's1' } }),
      next('agent-edge', 'agent', { id: 2, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } }),
      old('agent', 'agent-edge', { id: 2, result: { stopReason: 'cancelled' } }),
      next('agent', 'agent-edge', { id: 2, result: { stopReason: 'end_turn' } }),
    ];
    const filter = new SessionFilter('s1');
    const kept = stream.flatMap((e) => filter.accept(e));
    assert.deepEqual(
      kept.map((e) => e.seq - stream[0]!.seq),
      [1, 3, 4, 6],
      'the new session/new and its answer, the prompt and its own answer',
    );
    const rows = new RowBuilder();
    const shown = stream.map((e) => rows.row(e));
    assert.deepEqual([shown[3]!.method, shown[6]!.method], ['session/new', 'session/prompt']);
    assert.equal(shown[5]!.method, '', "the old process's answer is not paired with the new process's prompt");
  });

  it('a fork shows in both sessions: the session/fork request names the one it copies, its answer the fork', () => {
    const request = at('editor', 'editor-edge', { id: 1, method: 'session/fork', params: { sessionId: 's1', cwd: '/' } });
    const answer = at('editor-edge', 'editor', { id: 1, result: { sessionId: 's2' } });
    for (const sessionId of ['s1', 's2']) {
      const filter = new SessionFilter(sessionId);
      assert.deepEqual(
        [request, answer].flatMap((e) => filter.accept(e)).map((e) => e.seq),
        [request.seq, answer.seq],
        sessionId,
      );
    }
  });

  it("follows the session through a proxy's own wire (successor envelopes)", () => {
    const filter = new SessionFilter('s1');
    const stream = [
      at('rw', 'rw (process)', { id: 1, method: 'proxy/initialize', params: {} }),
      at('rw (process)', 'rw', { id: 7, method: 'proxy/successor', params: { method: 'initialize', params: {} } }),
      at('rw', 'rw (process)', { id: 7, result: {} }),
      at('rw (process)', 'rw', { id: 8, method: '_proxy/successor', params: { method: 'session/new', params: { cwd: '/' } } }),
      at('rw', 'rw (process)', { id: 8, result: { sessionId: 's1' } }),
      at('rw (process)', 'rw', { method: 'proxy/successor', params: { method: 'session/cancel', params: { sessionId: 's1' } } }),
      at('rw (process)', 'rw', { method: 'proxy/successor', params: { method: 'session/cancel', params: { sessionId: 's2' } } }),
    ];
    assert.deepEqual(
      stream.flatMap((e) => filter.accept(e)).map((e) => e.seq - stream[0]!.seq),
      [0, 1, 2, 3, 4, 5],
    );
  });

  it('pairs each response with the request that crossed the same hop, with its duration; errors named', () => {
    const rows = new RowBuilder();
    const req = rows.row(at('a', 'b', { id: 9, method: 'session/prompt', params: {} }, 100));
    rows.row(at('b', 'c', { id: 9, method: 'other', params: {} }, 110)); // same id, another hop
    const res = rows.row(at('b', 'a', { id: 9, result: {} }, 142));
    const err = rows.row(at('c', 'b', { id: 9, error: { code: -1, message: 'nope' } }, 150));
    assert.equal(req.kind, 'request');
    assert.deepEqual([res.kind, res.method, res.durationMs], ['response', 'session/prompt', 42]);
    assert.deepEqual([err.method, err.durationMs, err.error], ['other', 40, 'nope']);
    assert.equal(rows.row(at('x', 'y', { method: 'n' })).kind, 'notification');
    rows.row(at('p (process)', 'p', { id: 3, method: '_proxy/successor', params: { method: 'session/prompt', params: {} } }));
    assert.equal(rows.row(at('p', 'p (process)', { id: 3, result: {} })).method, '_proxy/successor ▸ session/prompt');
  });

  it('masks credentials by name and by shape in the row, its preview and the saved line (a trace from any conductor)', () => {
    const secrets = ['hunter2', 'sk-proj-Q1w2E3r4T5y6U7i8O9p0', 'pat-value', 'ghp_0123456789abcdefghijABCDEFGHIJ0123'];
    const message = {
      method: 'session/new',
      params: {
        remote: 'https://u:hunter2@git.example/r.git',
        note: 'key sk-proj-Q1w2E3r4T5y6U7i8O9p0',
        headers: [{ name: 'GH_PAT', value: 'pat-value' }],
        args: ['--token', 'ghp_0123456789abcdefghijABCDEFGHIJ0123'],
      },
    };
    const row = new RowBuilder().row(at('editor', 'agent', message));
    const saved = savedLine(at('editor', 'agent', message));
    for (const shown of [row.payload, row.preview, saved])
      for (const secret of secrets) assert.ok(!shown.includes(secret), `${secret} shown in ${shown}`);
    assert.match(row.payload, /"remote": "https:\/\/\[redacted\]@git\.example\/r\.git"/);
  });

  it('masks env values for display and collapses large payloads; the saved line too', () => {
    const decl = {
      method: 'session/new',
      params: {
        mcpServers: [
          { name: 's', env: [{ name: 'PATH', value: '/usr/bin' }], headers: [{ name: 'Authorization', value: 'Bearer [redacted]' }] },
        ],
        env: { KEY: 'v' },
      },
    };
    const text = displayJson(decl);
    assert.ok(!text.includes('/usr/bin') && text.includes(MASKED) && text.includes('"PATH"'), text);
    assert.ok(!text.includes('"v"'));
    const saved = savedLine(at('a', 'b', decl));
    assert.ok(!saved.includes('/usr/bin') && saved.includes(MASKED));
    const big = new RowBuilder().row(at('a', 'b', { method: 'big', params: { text: 'x'.repeat(5000), env: { K: 'secret' } } }));
    assert.equal(big.large, true);
    assert.ok(big.preview.startsWith('{"text":"xxx') && big.preview.endsWith('…') && big.preview.length < 200);
    assert.equal(new RowBuilder().row(at('a', 'b', { method: 'small' })).large, false);
  });

  it('filters rows by words of hop, kind, method or id', () => {
    const row = { from: 'agent', to: 'agent-edge', kind: 'notification' as const, method: 'session/update' };
    assert.ok(rowMatches(row, ''));
    assert.ok(rowMatches(row, 'update agent-edge'));
    assert.ok(rowMatches(row, 'NOTIFICATION'));
    assert.ok(!rowMatches(row, 'prompt'));
  });

  it('validates what the viewer sends', () => {
    assert.deepEqual(parseTrafficToHost({ type: 'save' }), { ok: true, message: { type: 'save' } });
    const row = { seq: 1, hop: 'a → b', kind: 'request', method: 'm', payload: '{}', collapsed: false };
    assert.equal(parseTrafficToHost({ type: 'rendered', filter: '', rows: [row] }).ok, true);
    assert.equal(parseTrafficToHost({ type: 'rendered', filter: '', rows: [{ ...row, kind: 'other' }] }).ok, false);
    assert.equal(parseTrafficToHost({ type: 'eval' }).ok, false);
    assert.equal(parseTrafficToHost(null).ok, false);
  });
});
