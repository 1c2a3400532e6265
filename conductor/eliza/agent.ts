// The ACP surface of ElizACP: which methods it answers and with what. One app instance serves one
// connection (it remembers the client's capabilities from initialize).
import * as acp from '@agentclientprotocol/sdk';
import { COMMANDS, MODEL_CONFIG_ID, MODELS, MODES, SessionStore } from './session';
import type { LegacyModelState, Session } from './session';
import { runTurn } from './turn';
import { withoutSparkleNudges } from './sparkle';
import { promptText } from './hooks';
import type { AgentOptions } from './turn-context';
import { logDebug } from './log';
import { ELIZA_NAME, ELIZA_VERSION } from './version';

export type { AgentOptions } from './turn-context';

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

export function createElizaAgent(options: AgentOptions): ElizaAgent {
  const sessions = new SessionStore();
  let clientCapabilities: acp.ClientCapabilities | undefined;

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
          loadSession: false,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities: { http: options.httpMcp, sse: false },
          sessionCapabilities: { close: {} },
        },
        authMethods: [],
      };
    })
    .onRequest('authenticate', () => ({}))
    .onRequest('session/new', ({ params, client }) => {
      const s = sessions.create(params.cwd, params.mcpServers);
      logDebug(`session ${s.id} in ${params.cwd} with ${params.mcpServers.length} MCP server(s)`);
      // The commands belong to the session, so announce them only once the client knows its id:
      // setImmediate runs after the SDK has written the session/new response.
      setImmediate(() => {
        void client
          .notify('session/update', {
            sessionId: s.id,
            update: { sessionUpdate: 'available_commands_update', availableCommands: [...COMMANDS] },
          })
          .catch(() => undefined);
      });
      const response: acp.NewSessionResponse & { models?: LegacyModelState } = options.legacyModels
        ? { sessionId: s.id, modes: s.modes(), models: s.legacyModels() }
        : { sessionId: s.id, modes: s.modes(), configOptions: s.configOptions() };
      return response;
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
      const stopReason = await s.runTurn(signal, (turnSignal) =>
        runTurn({
          session: s,
          client,
          signal: turnSignal,
          request: params,
          text: promptText(withoutSparkleNudges(params.prompt)),
          options,
          clientCapabilities,
        }),
      );
      return { stopReason };
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
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
