// The agent pool: one agent actor per agent configuration, so tabs with equal configurations share
// a process (each with its own session). Spawns lazily on first use; a dead or stopping actor is
// replaced on the next use. Created at activation with the editor's handlers and the permission
// broker; the chat controller subscribes to each new actor (onDidCreateActor). A process no tab
// uses any more ends after a short idle time (`release`): closing a chat leaves nothing running,
// while closing one tab and opening the next one still finds the agent warm. vscode-free.
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { ClientHandlers } from './clientHandlers';
import { Emitter } from '../util/emitter';
import { AgentActor } from './agentActor';
import { conductorSpawnSpec, configurationKey, type AgentConfiguration } from './agentConfiguration';
import { type Runtime } from '../settings/agentDefinition';
import { DisposableBase } from '../node/disposable';

export interface AgentPoolOptions {
  runtime: Runtime;
  log: Log;
  clientInfo: { name: string; version: string };
  onStderrLine?: (agentName: string, line: string) => void;
  /**
   * Every line of a conductor's protocol trace, with its configuration key and which process of the
   * pool wrote it (numbered from 1: processes of one key can overlap, src/traffic/).
   */
  onTraceLine?: (key: string, line: string, conductor: number) => void;
  /** Answers an actor's session/request_permission (the agent waits on the promise). */
  onPermissionRequest: (actor: AgentActor, params: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;
  graceMs?: number;
  /** Files and terminals offered to agents (advertised only when present). */
  client?: ClientHandlers;
  /** The editor can run `terminal` auth methods (sign-in). */
  authTerminal?: boolean;
  /** How long a released actor (no tab uses it) keeps running before it is stopped. */
  idleStopMs?: number;
}

/** Long enough for "close this tab, open a new one" to reuse the process; short enough that nothing lingers. */
export const IDLE_STOP_MS = 10_000;

export class AgentPool extends DisposableBase {
  private readonly actors = new Map<string, AgentActor>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private readonly created = new Emitter<AgentActor>();
  private readonly changed = new Emitter<AgentActor>();
  private actorsCreated = 0;

  /** A new actor, before it starts: subscribe to its events here. */
  readonly onDidCreateActor = this.created.event;
  /** An actor's state or running-prompt count changed (starting, running, working, exited). */
  readonly onDidChangeActorState = this.changed.event;

  constructor(private readonly options: AgentPoolOptions) {
    super();
  }

  /** The actor serving `config`, created (not yet started) if there is none usable. */
  acquire(config: AgentConfiguration): AgentActor {
    if (this.isDisposed) throw new Error('the extension is shutting down');
    const key = configurationKey(config);
    this.keep(key);
    const existing = this.actors.get(key);
    if (existing?.usable) return existing;
    const { runtime, log, clientInfo, graceMs, onStderrLine, onTraceLine } = this.options;
    const conductor = ++this.actorsCreated;
    const actor: AgentActor = new AgentActor({
      key,
      agentName: config.agent.name,
      spec: conductorSpawnSpec(config, runtime),
      log,
      clientInfo,
      graceMs,
      onStderrLine: onStderrLine && ((line) => onStderrLine(config.agent.name, line)),
      onTraceLine: onTraceLine && ((line) => onTraceLine(key, line, conductor)),
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

  /**
   * Nothing uses the actor of `key` any more (its last tab closed, a listing is done): it is
   * stopped after the idle time unless `acquire` wants it again meanwhile.
   */
  release(key: string): void {
    this.keep(key);
    const actor = this.actors.get(key);
    if (!actor || this.isDisposed) return;
    const timer = setTimeout(() => {
      this.idleTimers.delete(key);
      if (this.actors.get(key) !== actor) return;
      this.actors.delete(key);
      void actor.stop('no tab uses the agent any more');
    }, this.options.idleStopMs ?? IDLE_STOP_MS);
    timer.unref();
    this.idleTimers.set(key, timer);
  }

  /** Whether the actor of `key` waits out its idle time before it is stopped. */
  stoppingWhenIdle(key: string): boolean {
    return this.idleTimers.has(key);
  }

  /** Cancels a pending idle stop of `key`. */
  private keep(key: string): void {
    clearTimeout(this.idleTimers.get(key));
    this.idleTimers.delete(key);
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
    super.dispose();
    for (const key of [...this.idleTimers.keys()]) this.keep(key);
    const actors = this.all();
    this.actors.clear();
    await Promise.allSettled(actors.map((a) => a.stop(reason)));
  }
}
