// How the end of one agent process becomes one failure for the chat. The process can end on its own
// (a crash, the agent exited), be stopped, or stay up with a broken chain (a proxy of the conductor
// exited): each is reported once, as one AgentFailure, and every request still waiting on the
// process fails with AgentExitedError instead of hanging. agentActor.ts decides when the process
// starts and stops; this file only follows its end.
import type { Log } from '../log/logEvent';
import type { AgentFailure } from '../protocol/webview';
import type { ComponentExitedParams } from '../protocol/symposium-ext';
import { ErrorCodes } from '../protocol/errorCodes';
import { Emitter } from '../util/emitter';
import type { AcpClient } from './acpClient';
import { chainBrokenFailure, exitFailure } from './agentFailure';
import type { ConductorProcess, ProcessExit } from './conductorProcess';

/** A request or start failed because the agent's process is gone (or its chain broke). */
export class AgentExitedError extends Error {
  constructor(readonly failure: AgentFailure) {
    super(failure.message);
    this.name = 'AgentExitedError';
  }
}

export interface AgentEndOptions {
  agentName: string;
  log: Log;
  process: ConductorProcess;
  /** The ACP connection, once there is one. */
  connection: () => AcpClient | undefined;
  onStateChange?: () => void;
}

export class AgentEnd {
  private known: AgentFailure | undefined;
  private crashed = false;
  private chainBroken: ((failure: AgentFailure) => void) | undefined;
  /** Resolves when a proxy of the chain ended: the process lives on, but serves nothing. */
  private readonly whenChainBroken = new Promise<AgentFailure>((resolve) => (this.chainBroken = resolve));
  private readonly failures = new Emitter<AgentFailure>();
  /** The process ended without being stopped (crash, agent exit, broken chain). Fires once. */
  readonly onDidFail = this.failures.event;

  constructor(private readonly options: AgentEndOptions) {
    options.process.processScope.add(this.failures);
  }

  /** Why the process ended on its own, once it has. */
  get failure(): AgentFailure | undefined {
    return this.crashed ? this.known : undefined;
  }

  /** What to tell a caller whose request met the end: the reported failure, or one built now. */
  current(override?: string): AgentFailure {
    return (override === undefined ? this.known : undefined) ?? this.build(override);
  }

  private build(override?: string): AgentFailure {
    const { process, connection, agentName } = this.options;
    const exit = { info: process.exitInfo, agentExit: connection()?.agentExit, conductorStderr: process.stderrText() };
    return exitFailure(agentName, exit, override);
  }

  /**
   * The conductor reports that a proxy of its chain ended. The conductor keeps running and refuses
   * everything with that reason; for the chat this is a crash of this agent configuration (the
   * tabs show the reason and offer Restart, which starts a new conductor).
   */
  chainBroke(p: ComponentExitedParams): void {
    if (this.crashed) return;
    const failure = chainBrokenFailure(this.options.agentName, p);
    this.known = failure;
    this.crashed = true;
    this.options.log.error('agent', 'a proxy in the chain exited', { agent: this.options.agentName, proxy: p.component, failure });
    this.chainBroken?.(failure);
    this.options.onStateChange?.();
    this.failures.fire(failure);
  }

  /** The process ended (`expected` when stop() asked for it); its connection ends with it. */
  exited(exit: ProcessExit): void {
    const { expected, ...info } = exit;
    const agent = this.options.agentName;
    const level = expected ? 'info' : 'error';
    const message = expected ? 'exited' : 'exited unexpectedly';
    if (this.crashed) {
      // Already reported (its chain broke); this is the end of that conductor.
      this.options.log[level]('agent', message, { agent, ...info, after: 'a proxy in its chain exited' });
      this.options.onStateChange?.();
      this.options.connection()?.close();
      return;
    }
    const failure = this.build();
    this.known = failure;
    this.crashed = !expected;
    this.options.onStateChange?.();
    this.options.log[level]('agent', message, { agent, ...info, failure: expected ? undefined : failure });
    this.options.connection()?.close();
    if (!expected) this.failures.fire(failure);
  }

  /**
   * Rejects with AgentExitedError as soon as the process is gone, instead of hanging. Errors that
   * mean "the process is going away" (the conductor's agent-exited error, a closed connection) also
   * become AgentExitedError, once the exit is known, so callers see one kind of failure.
   */
  async guard<T>(p: Promise<T>): Promise<T> {
    const { process, connection } = this.options;
    try {
      return await Promise.race([
        p,
        process.whenExited().then((): never => {
          throw new AgentExitedError(this.current());
        }),
      ]);
    } catch (e) {
      if (e instanceof AgentExitedError) throw e;
      const dying =
        process.exitInfo !== undefined ||
        connection()?.closed === true ||
        (e as { code?: unknown } | null)?.code === ErrorCodes.agentExited;
      if (this.crashed && this.known) throw new AgentExitedError(this.known);
      if (dying) {
        // The process going away, or (conductor still up) the report that its chain broke.
        const broken = await Promise.race([
          process.exitedWithin(3_000).then((exited) => (exited ? this.current() : undefined)),
          this.whenChainBroken,
        ]);
        if (broken) throw new AgentExitedError(broken);
      }
      throw e;
    }
  }
}
