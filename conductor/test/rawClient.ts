// A raw-pipe editor for the hardening tests: spawns the built conductor (out/conductor.js) in
// front of the hostile test agent, writes JSON lines, and reads the conductor's stdout line by
// line, or deliberately not at all (pauseReading), the way a stuck editor would. rawConductor: the
// same for any command line, for tests of the exact output order and of start-up.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { conductorArgs, testSparkleDir, waitFor } from './harness';

export const HOSTILE_AGENT = resolve(__dirname, 'fixtures/hostileAgent.ts');
const REPO = resolve(__dirname, '../..');

export function hostileAgentCommand(): string[] {
  return [process.execPath, '--import', 'tsx', HOSTILE_AGENT];
}

type Line = Record<string, unknown>;

export interface RawClient {
  child: ChildProcessWithoutNullStreams;
  /** Parsed lines kept so far (only when `keep` allows; see onLine). */
  lines: Line[];
  /** Called for every line read; return false to not keep it in `lines`. */
  onLine?: (line: Line, text: string) => boolean | void;
  send(message: unknown): boolean;
  request(id: string | number, method: string, params: unknown, timeoutMs?: number): Promise<Line>;
  response(id: string | number, timeoutMs?: number): Promise<Line>;
  pauseReading(): void;
  resumeReading(): void;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
}

/**
 * A conductor started with `argv` (conductorArgs()), its stdout read as JSON lines: for tests of
 * its exact output order and of how it starts and ends.
 */
export function rawConductor(argv = conductorArgs()) {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (t: string) => {
    buffer += t;
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const p of parts) lines.push(JSON.parse(p) as Record<string, unknown>);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (t: string) => (stderr += t));
  child.stdin.on('error', () => undefined); // the conductor may have exited (a refused command line)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const send = (m: unknown): void => void child.stdin.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n');
  const response = (id: unknown, timeoutMs = 10000) =>
    waitFor(() => lines.find((l) => l.id === id && !('method' in l)), timeoutMs, `response ${String(id)}`);
  return { child, lines, send, response, exited, stderr: () => stderr };
}

export function startRaw(options: { components?: string[]; env?: Record<string, string>; log?: string } = {}): RawClient {
  const argv = conductorArgs({ components: options.components, log: options.log ?? 'warn', agent: hostileAgentCommand() });
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { SPARKLE_DIR: testSparkleDir(), ...process.env, ...options.env },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (t: string) => (stderr += t).length > 1e6 && (stderr = stderr.slice(-5e5)));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  const client: RawClient = {
    child,
    lines: [],
    exited,
    send: (m) => child.stdin.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n'),
    async request(id, method, params, timeoutMs) {
      client.send({ jsonrpc: '2.0', id, method, params });
      return client.response(id, timeoutMs);
    },
    response: (id, timeoutMs = 10000) =>
      waitFor(() => client.lines.find((l) => l.id === id && !('method' in l)), timeoutMs, `response ${String(id)}`),
    pauseReading: () => void child.stdout.pause(),
    resumeReading: () => void child.stdout.resume(),
    stderr: () => stderr,
    kill: () => void child.kill('SIGKILL'),
  };
  // Lines are split on raw bytes (a 64 KB chunk may end mid-character).
  let parts: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, nl));
      const text = Buffer.concat(parts).toString('utf8');
      parts = [];
      start = nl + 1;
      const line = JSON.parse(text) as Line;
      if (client.onLine?.(line, text) !== false) client.lines.push(line);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  return client;
}

/** Resident set size of a live process, in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** Whether a pid is a live (not zombie) process. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function initSession(
  c: RawClient,
  clientCapabilities: Record<string, unknown> = {},
): Promise<{ sessionId: string; agentPid: number }> {
  const init = await c.request('init', 'initialize', { protocolVersion: 1, clientCapabilities });
  const agentPid = (init.result as { _meta: { pid: number } })._meta.pid;
  const s = await c.request('new', 'session/new', { cwd: REPO, mcpServers: [] });
  return { sessionId: (s.result as { sessionId: string }).sessionId, agentPid };
}

export function promptParams(sessionId: string, text: string): Record<string, unknown> {
  return { sessionId, prompt: [{ type: 'text', text }] };
}

export const MB = 1024 * 1024;
