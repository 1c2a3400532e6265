// Per-session state: what session/new told us (cwd, MCP servers), what the client picked since
// (mode, model), the MCP clients we opened for it, and the machinery that keeps prompts
// sequential and cancellable.
import { randomUUID } from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk';
import { McpPool } from './mcp';
import type { SavedSession } from './sessionState';
import { SteeringInbox } from './steering';

export const MODES: readonly acp.SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Answer questions without touching files.' },
  { id: 'code', name: 'Code', description: 'Pretend to write code.' },
  { id: 'architect', name: 'Architect', description: 'Pretend to plan a design.' },
];
export const DEFAULT_MODE = 'ask';

export const MODEL_CONFIG_ID = 'model';
export const MODELS: ReadonlyArray<{ value: string; name: string; description: string }> = [
  { value: 'eliza-classic', name: 'ELIZA classic', description: 'One reflective sentence per reply.' },
  { value: 'eliza-verbose', name: 'ELIZA verbose', description: 'Adds an extra remark to every reply.' },
];
export const DEFAULT_MODEL = 'eliza-classic';

/** The boolean config option `offer a toggle` adds (ACP `SessionConfigBoolean`). */
export const BRIEF_CONFIG_ID = 'brief';

/**
 * The older `models` field of session/new (`--legacy-models`). It left the ACP schema, so the SDK
 * has no type for it; clients that still read it expect this shape.
 */
export interface LegacyModelState {
  currentModelId: string;
  availableModels: Array<{ modelId: string; name: string }>;
}

export const COMMANDS: readonly acp.AvailableCommand[] = [
  { name: 'help', description: 'List what ElizACP can do (all test hooks).' },
  { name: 'story', description: 'Tell a long, slowly streamed story (good for testing cancel).' },
  { name: 'plan', description: 'Show a three-step plan that progresses to completion.' },
];

/** Thrown inside a turn once it has been cancelled; the turn then ends with stopReason 'cancelled'. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export class Session {
  readonly id: string;
  modeId = DEFAULT_MODE;
  model = DEFAULT_MODEL;
  /** The boolean option, once `offer a toggle` added it to the session (undefined before). */
  brief: boolean | undefined;
  mcp: McpPool;
  /** Input steered into the running turn (`--steering`). */
  readonly steering = new SteeringInbox();
  /** The text blocks of the prompt before the running one (`what was my previous prompt`). */
  previousPromptTexts: string[] | undefined;
  /** The text blocks of the running prompt. */
  promptTexts: string[] | undefined;
  /** Prompts this session has seen (the `session info` hook reports it). */
  prompts = 0;
  /** Every session/update sent for this session, in order (what session/load replays). */
  readonly history: acp.SessionUpdate[] = [];
  title: string | undefined;
  /**
   * The folders besides cwd the client opened the session with (`additionalDirectories`): each
   * new, load, resume or fork sets the whole list (none given: none).
   */
  additionalDirectories: string[] = [];
  updatedAt = new Date().toISOString();
  // One controller per prompt that has arrived and not finished (running or queued): session/cancel
  // aborts all of them, so a queued prompt does not start work the user already cancelled.
  private readonly turns = new Set<AbortController>();
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly cwd: string,
    mcpServers: readonly acp.McpServer[],
    saved?: SavedSession,
  ) {
    this.id = saved?.id ?? randomUUID();
    this.mcp = new McpPool(mcpServers, cwd);
    if (saved) {
      this.modeId = saved.modeId;
      this.model = saved.model;
      this.prompts = saved.prompts;
      this.title = saved.title;
      this.additionalDirectories = [...(saved.additionalDirectories ?? [])];
      this.updatedAt = saved.updatedAt;
      this.history.push(...saved.history);
    }
  }

  /** Remembers an update sent for this session (for session/load's replay). */
  record(update: acp.SessionUpdate): void {
    this.history.push(update);
    this.updatedAt = new Date().toISOString();
  }

  /** Session/load or resume gives the session the MCP servers of the new connection. */
  async attach(mcpServers: readonly acp.McpServer[]): Promise<void> {
    const old = this.mcp;
    this.mcp = new McpPool(mcpServers, this.cwd);
    await old.closeAll();
  }

  saved(): SavedSession {
    return {
      id: this.id,
      cwd: this.cwd,
      modeId: this.modeId,
      model: this.model,
      prompts: this.prompts,
      updatedAt: this.updatedAt,
      ...(this.title !== undefined ? { title: this.title } : {}),
      ...(this.additionalDirectories.length ? { additionalDirectories: [...this.additionalDirectories] } : {}),
      history: [...this.history],
    };
  }

  modes(): acp.SessionModeState {
    return { currentModeId: this.modeId, availableModes: [...MODES] };
  }

  configOptions(): acp.SessionConfigOption[] {
    return [
      {
        type: 'select',
        id: MODEL_CONFIG_ID,
        name: 'Model',
        description: 'Which ELIZA personality answers.',
        category: 'model',
        currentValue: this.model,
        options: MODELS.map((m) => ({ ...m })),
      },
      ...(this.brief === undefined
        ? []
        : [
            {
              type: 'boolean' as const,
              id: BRIEF_CONFIG_ID,
              name: 'Brief replies',
              description: 'A toggle, so clients can show and set a boolean option.',
              currentValue: this.brief,
            },
          ]),
    ];
  }

  legacyModels(): LegacyModelState {
    return { currentModelId: this.model, availableModels: MODELS.map((m) => ({ modelId: m.value, name: m.name })) };
  }

  /**
   * Runs `fn` after every earlier prompt of this session has finished (prompts are sequential per
   * session). `signal` fires on session/cancel, on session/close, or when `external` (the request's
   * own signal: $/cancel_request or connection loss) aborts.
   */
  async runTurn<T>(external: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onExternal = (): void => controller.abort();
    if (external.aborted) controller.abort();
    else external.addEventListener('abort', onExternal, { once: true });
    this.turns.add(controller);
    this.prompts++;

    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    try {
      await previous;
      return await this.steering.during(() => fn(controller.signal));
    } finally {
      this.turns.delete(controller);
      external.removeEventListener('abort', onExternal);
      release();
    }
  }

  cancel(): void {
    for (const turn of this.turns) turn.abort(new CancelledError());
  }

  async close(): Promise<void> {
    this.cancel();
    await this.mcp.closeAll();
  }
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  create(cwd: string, mcpServers: readonly acp.McpServer[], saved?: SavedSession): Session {
    const session = new Session(cwd, mcpServers, saved);
    this.sessions.set(session.id, session);
    return session;
  }

  all(): Session[] {
    return [...this.sessions.values()];
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /**
   * A new session that starts as a copy of `source` as it is now: its history (what session/load
   * would replay, and what `did I say` searches), picks and prompt count; its own folder and MCP servers.
   */
  fork(source: Session, cwd: string, mcpServers: readonly acp.McpServer[]): Session {
    // As a saved session is restored, under a new id (the toggle is not saved: copied here).
    const copy = this.create(cwd, mcpServers, { ...source.saved(), id: randomUUID(), cwd, updatedAt: new Date().toISOString() });
    copy.brief = source.brief;
    return copy;
  }

  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    await session.close();
    return true;
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.close()));
  }
}
