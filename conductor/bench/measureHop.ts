// One benchmark sample: spawn a configuration (an agent, alone or behind a hop), and measure,
// over real pipes with the ACP SDK's client as the extension uses it:
// - cold start: spawn → `initialize` answered;
// - idle RSS of the hop process (conductor, relay) after a session is set up;
// - throughput: one prompt "stream N chunks", chunks per second from request to response;
// - latency: P prompts "stream 1 chunks" one after another, each round trip.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

export interface Sample {
  coldStartMs: number;
  rssMb: number | undefined;
  chunksPerSecond: number;
  latenciesMs: number[];
}

export interface MeasureOptions {
  chunks: number;
  prompts: number;
  /** The spawned process is a hop in front of the agent (its RSS is reported). */
  isHop: boolean;
  /** Added to the spawned process's environment. */
  env?: Record<string, string>;
  /**
   * The conductor traces to a pipe on its fd 3 (SYMPOSIUM_TRACE_FD), read here line by line the
   * way the extension reads it (src/agents/conductorProcess.ts: split into lines, kept as text).
   */
  traceFd?: boolean;
}

function rssMbOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export async function measure(argv: string[], o: MeasureOptions): Promise<Sample> {
  const t0 = performance.now();
  const child = spawn(process.execPath, argv, {
    stdio: o.traceFd ? ['pipe', 'pipe', 'inherit', 'pipe'] : ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...o.env, ...(o.traceFd ? { SYMPOSIUM_TRACE_FD: '3' } : {}) },
  });
  if (o.traceFd) {
    let partial = '';
    const kept: string[] = [];
    (child.stdio[3] as Readable).setEncoding('utf8').on('data', (text: string) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (kept.push(line) > 10_000) kept.splice(0, 5_000);
    });
  }
  let chunks = 0;
  const conn = acp
    .client()
    .onNotification('session/update', () => void chunks++)
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
      ),
    );
  try {
    await conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const coldStartMs = performance.now() - t0;
    const { sessionId } = await conn.agent.request('session/new', { cwd: mkdtempSync(join(tmpdir(), 'bench-')), mcpServers: [] });
    // Warm up the JIT on every side.
    for (let i = 0; i < 20; i++)
      await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'stream 5 chunks' }] });
    await new Promise((r) => setTimeout(r, 200)); // idle: let the hop settle before reading its memory
    const rssMb = o.isHop ? rssMbOf(child.pid) : undefined;
    chunks = 0;
    const s0 = performance.now();
    await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `stream ${o.chunks} chunks` }] });
    const seconds = (performance.now() - s0) / 1000;
    if (chunks < o.chunks) throw new Error(`${argv.join(' ')}: ${chunks} of ${o.chunks} chunks arrived`);
    const chunksPerSecond = chunks / seconds;
    const latenciesMs: number[] = [];
    for (let i = 0; i < o.prompts; i++) {
      const s = performance.now();
      await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'stream 1 chunks' }] });
      latenciesMs.push(performance.now() - s);
    }
    return { coldStartMs, rssMb, chunksPerSecond, latenciesMs };
  } finally {
    child.stdin!.end();
    const exited = new Promise((r) => child.once('exit', r));
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}
