// The ACP surface of ElizACP: which methods it answers and with what. One app instance serves one
// connection (it remembers the client's capabilities from initialize).
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { BRIEF_CONFIG_ID, COMMANDS, MODEL_CONFIG_ID, MODELS, MODES, SessionStore } from './session';
import type { LegacyModelState, Session } from './session';
import { runTurn } from './turn';
import { withoutSparkleNudges } from './sparkle';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';
import { promptText } from './hooks';
import type { AgentOptions } from './turn-context';
import { logDebug } from './log';
import { ELIZA_NAME, ELIZA_VERSION } from './version';
import { defaultAuthFile, ElizaAuth } from './auth';
import { SessionStateDir } from './sessionState';
import { STEERING_METHOD } from '../../src/protocol/steering';
import { parseSteering } from './steering';

export type { AgentOptions } from './turn-context';

/** What `--fail-delete` makes session/delete answer (in the error's data.details). */
export const FAIL_DELETE_REASON = 'ElizACP keeps its sessions as asked (--fail-delete)';

export interface ElizaAgent {
  app: acp.AgentApp;
  /** Cancels running prompts and closes every session's MCP clients. */
  shutdown(): Promise<void>;
}

// Extension methods take raw params: no schema, so nothing the peer sent is stripped or coerced.
const raw = (params: unknown): unknown => params;

function setModelParams(params: unknown): { sessionId: string; modelId: string } {
  const p = params as { sessionId?: unknown; modelId?: unknown } | null;
  if (!p || typeof p.sessionId !== 'string' || typeof p.modelId !== 'string') {
    throw acp.RequestError.invalidParams(undefined, 'session/set_model needs sessionId and modelId');
  }
  return { sessionId: p.sessionId, modelId: p.modelId };
}

/** `session/fork` is unstable (not in the SDK's stable agent methods): its params are checked here. */
function forkParams(params: unknown): { sessionId: string; cwd: string; mcpServers: acp.McpServer[]; additionalDirectories?: unknown } {
  const p = params as { sessionId?: unknown; cwd?: unknown; mcpServers?: unknown; additionalDirectories?: unknown } | null;
  if (!p || typeof p.sessionId !== 'string' || typeof p.cwd !== 'string') {
    throw acp.RequestError.invalidParams(undefined, 'session/fork needs sessionId and cwd');
  }
  const mcpServers = Array.isArray(p.mcpServers) ? (p.mcpServers as acp.McpServer[]) : [];
  return { sessionId: p.sessionId, cwd: p.cwd, mcpServers, additionalDirectories: p.additionalDirectories };
}

/**
 * The session's folders besides cwd from a new/load/resume/fork request: each must be absolute
 * (the schema says so, and a relative one would be resolved against whatever folder the agent runs
 * in). Withheld (`--no-additional-directories`), the field is ignored, as by an agent that never
 * heard of it.
 */
function additionalDirectoriesOf(raw: unknown, withheld: boolean | undefined): string[] {
  if (withheld || raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.some((d) => typeof d !== 'string' || !path.isAbsolute(d))) {
    throw acp.RequestError.invalidParams({ additionalDirectories: raw }, '"additionalDirectories" must be a list of absolute paths');
  }
  return [...(raw as string[])];
}

export function createElizaAgent(options: AgentOptions): ElizaAgent {
  const sessions = new SessionStore();
  const stateDir = options.stateDir ? new SessionStateDir(options.stateDir) : undefined;
  const persist = (s: Session): void => stateDir?.save(s.saved());
  let clientCapabilities: acp.ClientCapabilities | undefined;
  const canContinue = !!(options.loadSession || options.resume);
  // session/delete forgets sessions that session/list shows: offered with it unless withheld.
  const canDelete = canContinue && !options.noDelete;
  const auth = new ElizaAuth(
    options.requireAuth ? 'required' : options.offerAuth ? 'offered' : 'none',
    options.authFile ?? defaultAuthFile(),
  );

  /** A session to continue: this process's, else one a previous ElizACP saved in --state-dir. */
  const reopen = async (params: {
    sessionId: string;
    cwd: string;
    mcpServers?: acp.McpServer[] | null;
    additionalDirectories?: string[] | null;
  }): Promise<Session> => {
    const additionalDirectories = additionalDirectoriesOf(params.additionalDirectories, options.noAdditionalDirectories);
    let s = sessions.get(params.sessionId);
    if (s) await s.attach(params.mcpServers ?? []);
    else {
      const saved = stateDir?.load(params.sessionId);
      if (!saved) throw acp.RequestError.sessionNotFound(params.sessionId);
      s = sessions.create(saved.cwd, params.mcpServers ?? [], saved);
    }
    // The request's list is the session's whole list from now on (none given: none).
    s.additionalDirectories = additionalDirectories;
    return s;
  };
  const announceCommands = (client: acp.AgentContext, s: Session): void => {
    // The commands belong to the session, so announce them only once the client knows its id:
    // setImmediate runs after the SDK has written the response.
    setImmediate(() => {
      void client
        .notify('session/update', {
          sessionId: s.id,
          update: { sessionUpdate: 'available_commands_update', availableCommands: [...COMMANDS] },
        })
        .catch(() => undefined);
    });
  };
  const setupResponse = (s: Session): acp.LoadSessionResponse =>
    options.legacyModels ? { modes: s.modes() } : { modes: s.modes(), configOptions: s.configOptions() };

  const session = (id: string): Session => {
    const s = sessions.get(id);
    if (!s) throw acp.RequestError.sessionNotFound(id);
    return s;
  };

  const setModel = async (client: acp.AgentContext, s: Session, model: string): Promise<void> => {
    if (!MODELS.some((m) => m.value === model)) {
      throw acp.RequestError.invalidParams({ model }, `unknown model '${model}'`);
    }
    s.model = model;
    // With --legacy-models there are no config options to update, and ACP has no model update
    // notification: the set_model response is the whole answer.
    if (options.legacyModels) return;
    await client.notify('session/update', {
      sessionId: s.id,
      update: { sessionUpdate: 'config_option_update', configOptions: s.configOptions() },
    });
  };

  const app = acp
    .agent({ name: ELIZA_NAME })
    .onRequest('initialize', ({ params }) => {
      clientCapabilities = params.clientCapabilities;
      return {
        // We only speak v1; per the spec we answer with our latest version whatever was asked.
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: ELIZA_NAME, title: 'ElizACP', version: ELIZA_VERSION },
        agentCapabilities: {
          loadSession: !!options.loadSession,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities: { http: options.httpMcp, sse: false },
          sessionCapabilities: {
            close: {},
            ...(options.resume ? { resume: {} } : {}),
            ...(options.fork ? { fork: {} } : {}),
            ...(canContinue ? { list: {} } : {}),
            ...(canDelete ? { delete: {} } : {}),
            ...(options.noAdditionalDirectories ? {} : { additionalDirectories: {} }),
          },
          // Sign-out is offered wherever sign-in is (`--require-auth`, `--offer-auth`).
          ...(auth.offersSignIn ? { auth: { logout: {} } } : {}),
        },
        authMethods: auth.methods(params.clientCapabilities),
        // Where Claude's adapter advertises steering: beside agentCapabilities, not in them.
        ...(options.steering ? { _meta: { steering: { supported: true } } } : {}),
      };
    })
    .onRequest('authenticate', ({ params }) => {
      auth.authenticate(params.methodId);
      return {};
    })
    .onRequest('logout', () => {
      auth.logout();
      return {};
    })
    .onRequest('session/new', ({ params, client }) => {
      auth.requireSignedIn();
      const additionalDirectories = additionalDirectoriesOf(params.additionalDirectories, options.noAdditionalDirectories);
      const s = sessions.create(params.cwd, params.mcpServers);
      s.additionalDirectories = additionalDirectories;
      logDebug(`session ${s.id} in ${params.cwd} with ${params.mcpServers.length} MCP server(s)`);
      persist(s);
      announceCommands(client, s);
      const response: acp.NewSessionResponse & { models?: LegacyModelState } = options.legacyModels
        ? { sessionId: s.id, modes: s.modes(), models: s.legacyModels() }
        : { sessionId: s.id, modes: s.modes(), configOptions: s.configOptions() };
      return response;
    })
    .onRequest('session/load', async ({ params, client }) => {
      if (!options.loadSession) throw acp.RequestError.methodNotFound('session/load');
      const s = await reopen(params);
      logDebug(`session ${s.id} loaded: replaying ${s.history.length} update(s)`);
      // ACP: the whole conversation again as session/update, in order, before the response.
      for (const update of s.history) await client.notify('session/update', { sessionId: s.id, update });
      announceCommands(client, s);
      return setupResponse(s);
    })
    .onRequest('session/resume', async ({ params, client }) => {
      if (!options.resume) throw acp.RequestError.methodNotFound('session/resume');
      const s = await reopen(params);
      logDebug(`session ${s.id} resumed (no replay)`);
      announceCommands(client, s);
      return setupResponse(s);
    })
    .onRequest('session/fork', forkParams, ({ params, client }) => {
      if (!options.fork) throw acp.RequestError.methodNotFound('session/fork');
      const additionalDirectories = additionalDirectoriesOf(params.additionalDirectories, options.noAdditionalDirectories);
      const s = sessions.fork(session(params.sessionId), params.cwd, params.mcpServers);
      s.additionalDirectories = additionalDirectories;
      logDebug(`session ${params.sessionId} forked as ${s.id} (${s.history.length} update(s) copied)`);
      persist(s);
      announceCommands(client, s);
      return { sessionId: s.id, ...setupResponse(s) };
    })
    .onRequest('session/list', ({ params }) => {
      if (!canContinue) throw acp.RequestError.methodNotFound('session/list');
      if (options.hangList) return new Promise<never>(() => undefined);
      const byId = new Map<string, acp.SessionInfo & { updatedAt: string }>();
      const info = (s: { id: string; cwd: string; title?: string; updatedAt: string; additionalDirectories?: string[] }) => ({
        sessionId: s.id,
        cwd: s.cwd,
        title: s.title ?? null,
        updatedAt: s.updatedAt,
        ...(s.additionalDirectories?.length ? { additionalDirectories: [...s.additionalDirectories] } : {}),
      });
      for (const saved of stateDir?.list() ?? []) byId.set(saved.id, info(saved));
      for (const live of sessions.all()) byId.set(live.id, info(live));
      const list = [...byId.values()]
        .filter((x) => !params.cwd || x.cwd === params.cwd)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      return { sessions: list };
    })
    .onRequest('session/delete', async ({ params }) => {
      if (!canDelete) throw acp.RequestError.methodNotFound('session/delete');
      // As agents report their failures: "Internal error", the reason in data.details.
      if (options.failDelete) throw acp.RequestError.internalError({ details: FAIL_DELETE_REASON });
      // A live session stops first (its running prompt is cancelled), then its saved copy goes.
      const live = await sessions.close(params.sessionId);
      const saved = stateDir?.delete(params.sessionId) ?? false;
      // -32002 (clients take it as "already gone"), with the id in the message for whoever reads it.
      if (!live && !saved)
        throw new acp.RequestError(-32002, `Resource not found: no session ${params.sessionId} to delete`, { sessionId: params.sessionId });
      logDebug(`session ${params.sessionId} deleted`);
      return {};
    })
    .onRequest('session/set_mode', async ({ params, client }) => {
      const s = session(params.sessionId);
      if (!MODES.some((m) => m.id === params.modeId)) {
        throw acp.RequestError.invalidParams({ modeId: params.modeId }, `unknown mode '${params.modeId}'`);
      }
      s.modeId = params.modeId;
      await client.notify('session/update', {
        sessionId: s.id,
        update: { sessionUpdate: 'current_mode_update', currentModeId: s.modeId },
      });
      return {};
    })
    .onRequest('session/set_config_option', async ({ params, client }) => {
      const s = session(params.sessionId);
      // With --legacy-models the session has no config options at all, so none can be set.
      if (params.configId === BRIEF_CONFIG_ID && s.brief !== undefined) {
        if (!('type' in params) || params.type !== 'boolean' || typeof params.value !== 'boolean')
          throw acp.RequestError.invalidParams({ value: params.value }, 'the brief option takes {type: "boolean", value}');
        s.brief = params.value;
        await client.notify('session/update', {
          sessionId: s.id,
          update: { sessionUpdate: 'config_option_update', configOptions: s.configOptions() },
        });
        return { configOptions: s.configOptions() };
      }
      if (options.legacyModels || params.configId !== MODEL_CONFIG_ID) {
        throw acp.RequestError.invalidParams({ configId: params.configId }, `unknown config option '${params.configId}'`);
      }
      if (typeof params.value !== 'string') {
        throw acp.RequestError.invalidParams({ value: params.value }, 'the model option takes a value id');
      }
      await setModel(client, s, params.value);
      return { configOptions: s.configOptions() };
    })
    // The older, unstable model picker; still used by several clients.
    .onRequest('session/set_model', setModelParams, async ({ params, client }) => {
      await setModel(client, session(params.sessionId), params.modelId);
      return {};
    })
    .onRequest('session/close', async ({ params }) => {
      if (!(await sessions.close(params.sessionId))) throw acp.RequestError.sessionNotFound(params.sessionId);
      return {};
    })
    .onRequest('session/prompt', async ({ params, client, signal }) => {
      const s = session(params.sessionId);
      // The prompt is part of what session/load replays (as the user's message).
      const text = promptText(withoutSparkleNudges(params.prompt));
      s.previousPromptTexts = s.promptTexts;
      s.promptTexts = params.prompt.flatMap((b) => (b.type === 'text' ? [b.text] : []));
      if (!sparkleMarkOf(params)) s.title ??= text.split('\n')[0]?.slice(0, 80);
      s.record({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text }, ...(params._meta ? { _meta: params._meta } : {}) });
      const stopReason = await s
        .runTurn(signal, (turnSignal) =>
          runTurn({
            session: s,
            client,
            signal: turnSignal,
            request: params,
            text,
            options,
            clientCapabilities,
            signInStatus: () => auth.status(),
          }),
        )
        .finally(() => persist(s));
      return { stopReason };
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest(STEERING_METHOD, raw, ({ params }) => {
      if (!options.steering) throw acp.RequestError.methodNotFound(STEERING_METHOD);
      const { sessionId, text } = parseSteering(params);
      // No turn running: the text stays the client's, to send as a prompt.
      return session(sessionId).steering.accept(text) ? { outcome: 'injected' } : { outcome: 'promptRequired', reason: 'noRunningTurn' };
    })
    .onRequest('_eliza/echo', raw, ({ params }) => ({ echoed: params ?? null }))
    .onNotification('_eliza/ping', raw, async ({ params, client }) => {
      await client.notify('_eliza/pong', params);
    })
    .onRequest('*', ({ method }) => {
      throw acp.RequestError.methodNotFound(method);
    })
    .onNotification('*', ({ method }) => {
      // Unknown notifications SHOULD be ignored (ACP extensibility rules).
      logDebug(`ignoring notification ${method}`);
    });

  return { app, shutdown: () => sessions.closeAll() };
}
