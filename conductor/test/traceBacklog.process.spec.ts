// The editor's trace pipe (fd 3, the traffic viewer's source) when the editor stops reading it:
// the conductor drops trace lines past its backlog bound instead of holding them in memory, says
// so in its log, says how many when the reader catches up, marks the gap in the trace itself
// (one line that the traffic viewer counts), and the protocol is not affected.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { traceGapSize } from '../../src/protocol/traffic';
import { tempDir } from './harness';
import { builtBundle } from './builtBundle';

const CONDUCTOR = resolve(__dirname, '../../out/conductor.js');

describe('the editor’s trace pipe when the editor stops reading it (real processes)', function () {
  this.timeout(60_000);

  it('drops trace lines past the backlog and says so; every protocol message still arrives', async function () {
    builtBundle('conductor.js');
    const child = spawn(
      process.execPath,
      [CONDUCTOR, '--log', 'warn', '--components', '', '--', process.execPath, CONDUCTOR, 'eliza', '--deterministic'],
      { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: { ...process.env, SYMPOSIUM_TRACE_FD: '3' } },
    );
    const exited = new Promise((r) => child.once('exit', r));
    const trace = child.stdio[3] as Readable;
    trace.pause(); // the editor is not reading the trace
    let traceText = '';
    trace.setEncoding('utf8');
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (t: string) => (stderr += t));
    let buffered = '';
    let updates = 0;
    const waiting = new Map<number, (m: { result?: { sessionId?: string } }) => void>();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const m = JSON.parse(buffered.slice(0, nl)) as { id?: number; method?: string; result?: { sessionId?: string } };
        buffered = buffered.slice(nl + 1);
        if (m.method === 'session/update') updates++;
        else if (m.id !== undefined && !m.method) waiting.get(m.id)?.(m);
      }
    });
    let id = 0;
    const request = (method: string, params: unknown): Promise<{ result?: { sessionId?: string } }> =>
      new Promise((done) => {
        waiting.set(++id, done);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    try {
      await request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const { result } = await request('session/new', { cwd: join(tempDir('trace-backlog-')), mcpServers: [] });
      // A streamed chunk is one trace line (it crosses the edges untouched: one line names them), ~330 bytes: 60000 pass the 16 MB bound.
      await request('session/prompt', { sessionId: result!.sessionId, prompt: [{ type: 'text', text: 'stream 60000 chunks' }] });
      assert.ok(updates >= 60000, `every streamed update arrived (${updates})`);
      assert.match(stderr, /not reading the protocol trace; trace lines are dropped until it catches up/);
      trace.on('data', (t: string) => (traceText += t));
      trace.resume(); // the editor reads again
      const gapLine = (): string | undefined => traceText.split('\n').find((l) => traceGapSize(l) !== undefined);
      for (let i = 0; i < 200 && !(/caught up with the protocol trace/.test(stderr) && gapLine()); i++)
        await new Promise((r) => setTimeout(r, 50));
      const dropped = Number(/caught up with the protocol trace; (\d+) trace line/.exec(stderr)?.[1]);
      assert.ok(dropped > 0, `says how many lines were dropped: ${stderr.slice(-400)}`);
      // The gap is marked in the trace, with the same count, and nothing else is missing.
      const gap = gapLine();
      assert.ok(gap, 'a gap line in the trace');
      assert.equal(traceGapSize(gap), dropped);
      const chunkLines = traceText.split('\n').filter((l) => l.includes('"agent_message_chunk"')).length;
      assert.ok(
        chunkLines + dropped >= 60000 && chunkLines + dropped <= 60000 + 5,
        `the chunks traced (${chunkLines}) and the lines left out (${dropped}) account for the 60000 chunks`,
      );
    } finally {
      child.stdin.end();
      trace.resume();
      await exited;
    }
  });
});
