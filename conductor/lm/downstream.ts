// One downstream agent for the `vscodelm` mode: an in-process Conductor (the normal chain, so
// crate sources, Sparkle, IDE operations… apply exactly as in the chat) spawning the agent, and
// an ACP client connection to that conductor over in-memory streams. Several conversations share
// it, one ACP session each; updates and permission requests are routed by session id.
// When the agent exits, every session's listener hears the exit reason and the downstream is dead:
// the next request builds a new one (the chat's conductors restart the same way).
// The editor here is VS Code, whose language features answer IDE questions in the chat; its LM
// API has no way to answer `_symposium/ide/*`, and starting language servers inside VS Code is
// what the chat never does (they would run programs of the open workspace). So the
// language-server fallback is withheld, and the `ide` tools say that no IDE is available.
import { PassThrough, Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { AGENT_EXITED_METHOD, sparkleMarkOf } from '../../src/protocol/symposium-ext';
import type { AgentDefinition } from '../../src/protocol/lm';
import { Conductor } from '../conductor';
import { DEFAULT_COMPONENTS, loadComponents } from '../components/registry';
import type { Logger } from '../log';

export interface SessionListener {
  update(update: acp.SessionUpdate): void;
  permission(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
  /** The agent (or the conductor) is gone; `reason` says why. */
  exited(reason: string): void;
}

/** Components the LM provider's conductors never place, with why. */
export const WITHHELD_IN_VSCODE: ReadonlyMap<string, string> = new Map([
  ['ide-lsp', 'the language-server fallback does not run inside VS Code (the LM provider answers no IDE operations)'],
]);

export class Downstream {
  private readonly listeners = new Map<string, SessionListener>();
  private readonly conductor: Conductor;
  private readonly conn: acp.ClientConnection;
  private exitReason: string | undefined;
  private capabilities: acp.AgentCapabilities | undefined;
  private readonly ready: Promise<void>;

  constructor(agent: AgentDefinition, components: string[] | undefined, self: string, log: Logger) {
    const toConductor = new PassThrough();
    const fromConductor = new PassThrough();
    const [command, args, env] =
      'eliza' in agent
        ? [process.execPath, [self, 'eliza', ...(agent.eliza.deterministic ? ['--deterministic'] : [])], {}]
        : [agent.mcp_server.command, agent.mcp_server.args, Object.fromEntries(agent.mcp_server.env.map((e) => [e.name, e.value]))];
    this.conductor = new Conductor({
      agentCommand: command,
      agentArgs: args,
      agentEnv: env,
      components: components ?? DEFAULT_COMPONENTS,
      registry: loadComponents(components ?? DEFAULT_COMPONENTS),
      log: log.child('conductor'),
      self: { command: process.execPath, args: [self], env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }] },
      withheld: WITHHELD_IN_VSCODE,
      input: toConductor,
      output: fromConductor,
    });
    this.conductor.start();
    void this.conductor.done.then((code) => this.die(this.exitReason ?? `the conductor stopped (exit code ${code})`));
    const app = acp
      .client()
      .onNotification('session/update', ({ params }) => {
        // Sparkle's embodiment turn answers nobody's prompt: it is not part of any LM response.
        if (sparkleMarkOf(params.update)) return;
        this.listeners.get(params.sessionId)?.update(params.update);
      })
      .onNotification('*', ({ method, params }) => {
        if (method === AGENT_EXITED_METHOD) this.exitReason = (params as { message?: string }).message ?? 'the agent exited';
      })
      .onRequest('session/request_permission', ({ params }) => {
        const listener = this.listeners.get(params.sessionId);
        return listener ? listener.permission(params) : Promise.resolve({ outcome: { outcome: 'cancelled' } });
      });
    this.conn = app.connect(
      acp.ndJsonStream(
        Writable.toWeb(toConductor) as WritableStream<Uint8Array>,
        Readable.toWeb(fromConductor) as ReadableStream<Uint8Array>,
      ),
    );
    this.ready = this.conn.agent
      .request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
        clientInfo: { name: 'symposium-vscodelm', version: '0' },
      })
      .then((r) => void (this.capabilities = r.agentCapabilities));
  }

  private died = false;
  get dead(): boolean {
    return this.died;
  }

  /** Whether prompts may carry embedded resources (the priming transcript goes there if so). */
  get embeddedContext(): boolean {
    return this.capabilities?.promptCapabilities?.embeddedContext === true;
  }

  async newSession(cwd: string, mcpServers: acp.McpServer[], listener: SessionListener): Promise<string> {
    await this.ready;
    const { sessionId } = await this.conn.agent.request('session/new', { cwd, mcpServers });
    this.listeners.set(sessionId, listener);
    return sessionId;
  }

  prompt(sessionId: string, prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.conn.agent.request('session/prompt', { sessionId, prompt });
  }

  cancel(sessionId: string): void {
    void this.conn.agent.notify('session/cancel', { sessionId }).catch(() => undefined);
  }

  close(sessionId: string): void {
    this.listeners.delete(sessionId);
    this.cancel(sessionId);
  }

  async stop(): Promise<void> {
    await this.conductor.stop('vscodelm is shutting down', 0);
  }

  private die(reason: string): void {
    if (this.died) return;
    this.died = true;
    for (const l of this.listeners.values()) l.exited(reason);
    this.listeners.clear();
  }
}
