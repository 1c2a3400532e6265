// The agent pool: one agent actor per agent configuration, so tabs with equal configurations share
// a process (each with its own session). Spawns lazily on first use; a dead or stopping actor is
// replaced on the next use. Created at activation with the editor's handlers and the permission
// broker; the chat controller subscribes to each new actor (onDidCreateActor). vscode-free.
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { ClientHandlers } from './clientHandlers';
import { Emitter } from '../util/emitter';
import { AgentActor } from './agentActor';
import { conductorSpawnSpec, configurationKey, type AgentConfiguration, type Runtime } from './agentConfiguration';

export interface AgentPoolOptions {
  runtime: Runtime;
  log: Log;
  clientInfo: { name: string; version: string };
  onStderrLine?: (agentName: string, line: string) => void;
  /** Every line of a conductor's protocol trace, with its configuration key (src/traffic/). */
  onTraceLine?: (key: string, line: string) => void;
  /** Answers an actor's session/request_permission (the agent waits on the promise). */
  onPermissionRequest: (actor: AgentActor, params: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;
  graceMs?: number;
  /** Files and terminals offered to agents (advertised only when present). */
  client?: ClientHandlers;
  /** The editor can run `terminal` auth methods (sign-in). */
  authTerminal?: boolean;
}

export class AgentPool {
  private readonly actors = new Map<string, AgentActor>();
  private disposed = false;
  private readonly created = new Emitter<AgentActor>();
  private readonly changed = new Emitter<AgentActor>();

  /** A new actor, before it starts: subscribe to its events here. */
  readonly onDidCreateActor = this.created.event;
  /** An actor's state or running-prompt count changed (starting, running, working, exited). */
  readonly onDidChangeActorState = this.changed.event;

  constructor(private readonly options: AgentPoolOptions) {}

  /** The actor serving `config`, created (not yet started) if there is none usable. */
  acquire(config: AgentConfiguration): AgentActor {
    if (this.disposed) throw new Error('the extension is shutting down');
    const key = configurationKey(config);
    const existing = this.actors.get(key);
    if (existing?.usable) return existing;
    const { runtime, log, clientInfo, graceMs, onStderrLine, onTraceLine } = this.options;
    const actor: AgentActor = new AgentActor({
      key,
      agentName: config.agent.name,
      spec: conductorSpawnSpec(config, runtime),
      log,
      clientInfo,
      graceMs,
      onStderrLine: onStderrLine && ((line) => onStderrLine(config.agent.name, line)),
      onTraceLine: onTraceLine && ((line) => onTraceLine(key, line)),
      onPermissionRequest: (params, signal) => this.options.onPermissionRequest(actor, params, signal),
      client: this.options.client,
      authTerminal: this.options.authTerminal,
      onStateChange: () => this.changed.fire(actor),
    });
    this.actors.set(key, actor);
    this.created.fire(actor);
    this.changed.fire(actor);
    return actor;
  }

  get(key: string): AgentActor | undefined {
    return this.actors.get(key);
  }

  /** Forgets the actor (if it is still the one registered for its key). */
  remove(actor: AgentActor): void {
    if (this.actors.get(actor.key) === actor) this.actors.delete(actor.key);
  }

  all(): AgentActor[] {
    return [...this.actors.values()];
  }

  /** Stops every process; used at deactivation. */
  async stopAll(reason: string): Promise<void> {
    this.disposed = true;
    const actors = this.all();
    this.actors.clear();
    await Promise.allSettled(actors.map((a) => a.stop(reason)));
  }
}
