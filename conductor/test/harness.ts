// Drives the built conductor (out/conductor.js) as a real child process over real pipes with
// the ACP SDK's client, the way the extension does.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';

export const CONDUCTOR_JS = resolve(__dirname, '../../out/conductor.js');

export function elizaCommand(extra: string[] = []): string[] {
  return [process.execPath, CONDUCTOR_JS, 'eliza', '--deterministic', ...extra];
}

export function conductorArgs(options: { components?: string[]; traceDir?: string; agent?: string[]; log?: string } = {}): string[] {
  const args = [process.execPath, CONDUCTOR_JS];
  if (options.components) args.push('--components', options.components.join(','));
  if (options.traceDir) args.push('--trace-dir', options.traceDir);
  args.push('--log', options.log ?? 'debug');
  return [...args, '--', ...(options.agent ?? elizaCommand())];
}

export interface ClientHandlers {
  readTextFile?: (p: acp.ReadTextFileRequest) => Promise<acp.ReadTextFileResponse>;
  writeTextFile?: (p: acp.WriteTextFileRequest) => Promise<acp.WriteTextFileResponse>;
  permission?: (p: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse>;
  elicitation?: (p: acp.CreateElicitationRequest) => Promise<acp.CreateElicitationResponse>;
}

export interface Harness {
  child: ChildProcessWithoutNullStreams;
  conn: acp.ClientConnection;
  updates: acp.SessionNotification[];
  notifications: { method: string; params: unknown }[];
  stderr(): string;
  exited: Promise<number | null>;
  /** Concatenated agent_message_chunk text of a session since the last `take`. */
  takeText(sessionId: string): string;
  close(): Promise<void>;
}

let sparkleDir: string | undefined;
/**
 * The Sparkle home (SPARKLE_DIR) of conductors the tests start: one temp folder per test run, so
 * the default chain's Sparkle component never writes into the real ~/.sparkle. Tests of Sparkle
 * itself pass their own HOME and an empty SPARKLE_DIR. Also set for this process (tests that spawn
 * the conductor themselves inherit it), even when a file runs alone without .mocharc's setup.
 */
export function testSparkleDir(): string {
  return (sparkleDir ??= process.env.SPARKLE_DIR || tempDir('symposium-sparkle-home-'));
}

export function tempDir(prefix = 'symposium-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(dir, { recursive: true });
  return dir;
}

process.env.SPARKLE_DIR = testSparkleDir();

export function startProcess(argv: string[], handlers: ClientHandlers = {}, env: Record<string, string> = {}): Harness {
  const child = spawn(argv[0]!, argv.slice(1), {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { SPARKLE_DIR: testSparkleDir(), ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (t: string) => (stderr += t));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const updates: acp.SessionNotification[] = [];
  const notifications: { method: string; params: unknown }[] = [];
  const taken = new Map<string, number>();
  const app = acp
    .client()
    .onNotification('session/update', ({ params }) => void updates.push(params))
    .onNotification('*', ({ method, params }) => void notifications.push({ method, params }))
    .onRequest('session/request_permission', ({ params }) =>
      handlers.permission
        ? handlers.permission(params)
        : Promise.resolve({ outcome: { outcome: 'selected', optionId: params.options[0]!.optionId } }),
    )
    .onRequest('elicitation/create', ({ params }) => {
      if (!handlers.elicitation) throw acp.RequestError.methodNotFound('elicitation/create');
      return handlers.elicitation(params);
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      if (!handlers.readTextFile) throw acp.RequestError.methodNotFound('fs/read_text_file');
      return handlers.readTextFile(params);
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      if (!handlers.writeTextFile) throw acp.RequestError.methodNotFound('fs/write_text_file');
      return handlers.writeTextFile(params);
    });
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  return {
    child,
    conn,
    updates,
    notifications,
    exited,
    stderr: () => stderr,
    takeText(sessionId) {
      const from = taken.get(sessionId) ?? 0;
      const mine = updates.map((u, i) => [u, i] as const).filter(([u, i]) => u.sessionId === sessionId && i >= from);
      taken.set(sessionId, updates.length);
      // Sparkle's embodiment turn is not an answer to anyone's prompt (a chat shows it apart too).
      return mine
        .map(([u]) =>
          u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' && !sparkleMarkOf(u.update)
            ? u.update.content.text
            : '',
        )
        .join('');
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function initialize(h: Harness, clientCapabilities: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
  return h.conn.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities,
    clientInfo: { name: 'symposium-tests', version: '0' },
  });
}

export async function newSession(h: Harness, cwd: string): Promise<string> {
  const r = await h.conn.agent.request('session/new', { cwd, mcpServers: [] });
  return r.sessionId;
}

export async function prompt(
  h: Harness,
  sessionId: string,
  text: string,
  _meta?: Record<string, unknown>,
): Promise<{ stopReason: string; text: string }> {
  const r = await h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }], ...(_meta ? { _meta } : {}) });
  // Notification handlers may still be queued behind the response; let them run.
  await new Promise((res) => setImmediate(res));
  return { stopReason: r.stopReason, text: h.takeText(sessionId) };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
