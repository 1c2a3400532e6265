// Test support (not a test file): spawns ElizACP as a real child process over real pipes and
// drives it with the SDK's client app. The client side implements permission, fs and terminal
// requests for real (temp files, child_process) so the agent's calls can be checked end to end.
import { spawn } from 'node:child_process';
import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const STANDALONE = path.join(__dirname, 'standalone.ts');
/** Absolute loader URL, so fixtures run with tsx from any cwd (e.g. a temp session cwd). */
export const TSX_IMPORT = pathToFileURL(require.resolve('tsx')).href;

export type PermissionAnswer = { optionId: string } | 'cancelled' | 'hang';

interface Terminal {
  child: ChildProcess;
  output: string;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  exitStatus?: { exitCode: number | null; signal: string | null };
}

export interface TurnResult {
  response: acp.PromptResponse;
  updates: acp.SessionUpdate[];
  /** Concatenated text of the turn's agent_message_chunk updates. */
  text: string;
}

export function messageText(updates: readonly acp.SessionUpdate[]): string {
  return updates.map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '')).join('');
}

export async function waitFor(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export class ElizaHarness {
  readonly updates = new Map<string, acp.SessionUpdate[]>();
  readonly pongs: unknown[] = [];
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  readonly terminals = new Map<string, Terminal>();
  readonly releasedTerminals: string[] = [];
  /** Paths the agent asked to read with fs/read_text_file, in order. */
  readonly fileReads: string[] = [];
  permissionAnswer: PermissionAnswer = { optionId: 'allow-once' };
  stderr = '';
  initializeResponse!: acp.InitializeResponse;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly connection: acp.ClientConnection;
  private terminalCounter = 0;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
    this.connection = this.clientApp().connect(stream);
  }

  static async start(args: string[] = ['--deterministic']): Promise<ElizaHarness> {
    // ELIZACP_BUNDLE=out/conductor.js runs the same tests against the bundled conductor.
    const bundle = process.env['ELIZACP_BUNDLE'];
    const argv = bundle ? [path.resolve(REPO_ROOT, bundle), 'eliza', ...args] : ['--import', TSX_IMPORT, STANDALONE, ...args];
    const child = spawn(process.execPath, argv, {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const harness = new ElizaHarness(child);
    harness.initializeResponse = await harness.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: 'eliza-test-client', version: '0.0.0' },
    });
    return harness;
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  sessionUpdates(sessionId: string): acp.SessionUpdate[] {
    let list = this.updates.get(sessionId);
    if (!list) {
      list = [];
      this.updates.set(sessionId, list);
    }
    return list;
  }

  /** session/new, then waits for the available_commands_update that must follow it. */
  async newSession(cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    const response = await this.agent.request('session/new', { cwd, mcpServers });
    const list = this.sessionUpdates(response.sessionId);
    await waitFor(() => list.some((u) => u.sessionUpdate === 'available_commands_update'), 5000, 'available commands');
    return response;
  }

  /** Sends a prompt and returns the response with the updates that arrived during the turn. */
  async prompt(sessionId: string, prompt: string | acp.ContentBlock[], meta?: Record<string, unknown>): Promise<TurnResult> {
    const list = this.sessionUpdates(sessionId);
    const start = list.length;
    const blocks: acp.ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    const response = await this.agent.request('session/prompt', {
      sessionId,
      prompt: blocks,
      ...(meta ? { _meta: meta } : {}),
    });
    const updates = list.slice(start);
    return { response, updates, text: messageText(updates) };
  }

  async cancel(sessionId: string): Promise<void> {
    await this.agent.notify('session/cancel', { sessionId });
  }

  /** Closes the connection (stdin EOF) and waits for the process, killing it if it lingers. */
  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.connection.close();
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    const result = await this.exited;
    clearTimeout(timer);
    for (const t of this.terminals.values()) t.child.kill();
    return result;
  }

  private clientApp(): acp.ClientApp {
    return acp
      .client({ name: 'eliza-test-client' })
      .onNotification('session/update', ({ params }) => {
        this.sessionUpdates(params.sessionId).push(params.update);
      })
      .onNotification(
        '_eliza/pong',
        (p: unknown) => p,
        ({ params }) => {
          this.pongs.push(params);
        },
      )
      .onRequest('session/request_permission', ({ params }) => {
        this.permissionRequests.push(params);
        const answer = this.permissionAnswer;
        if (answer === 'hang') return new Promise<acp.RequestPermissionResponse>(() => undefined);
        if (answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
        return { outcome: { outcome: 'selected', optionId: answer.optionId } };
      })
      .onRequest('fs/read_text_file', ({ params }) => {
        this.fileReads.push(params.path);
        const content = readFileSync(params.path, 'utf8');
        if (params.line == null && params.limit == null) return { content };
        const lines = content.split('\n');
        const from = (params.line ?? 1) - 1;
        return { content: lines.slice(from, params.limit == null ? undefined : from + params.limit).join('\n') };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        mkdirSync(path.dirname(params.path), { recursive: true });
        writeFileSync(params.path, params.content);
        return {};
      })
      .onRequest('terminal/create', ({ params }) => {
        const terminalId = `term-${++this.terminalCounter}`;
        const env = { ...process.env };
        for (const e of params.env ?? []) env[e.name] = e.value;
        const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, env });
        const terminal: Terminal = {
          child,
          output: '',
          exit: new Promise((resolve) => {
            child.on('error', (err) => {
              terminal.output += String(err);
              resolve((terminal.exitStatus = { exitCode: 127, signal: null }));
            });
            child.on('close', (exitCode, signal) => resolve((terminal.exitStatus = { exitCode, signal })));
          }),
        };
        child.stdout.on('data', (d: Buffer) => (terminal.output += d.toString()));
        child.stderr.on('data', (d: Buffer) => (terminal.output += d.toString()));
        this.terminals.set(terminalId, terminal);
        return { terminalId };
      })
      .onRequest('terminal/wait_for_exit', async ({ params }) => {
        const status = await this.terminal(params.terminalId).exit;
        return { exitCode: status.exitCode, signal: status.signal };
      })
      .onRequest('terminal/output', ({ params }) => {
        const t = this.terminal(params.terminalId);
        return { output: t.output, truncated: false, ...(t.exitStatus ? { exitStatus: t.exitStatus } : {}) };
      })
      .onRequest('terminal/kill', ({ params }) => {
        this.terminal(params.terminalId).child.kill();
        return {};
      })
      .onRequest('terminal/release', ({ params }) => {
        this.terminal(params.terminalId).child.kill();
        this.terminals.delete(params.terminalId);
        this.releasedTerminals.push(params.terminalId);
        return {};
      });
  }

  private terminal(id: string): Terminal {
    const t = this.terminals.get(id);
    if (!t) throw acp.RequestError.resourceNotFound(id);
    return t;
  }
}
