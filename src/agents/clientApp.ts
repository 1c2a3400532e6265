// What the editor's end of an ACP connection answers: the agent's requests (permissions, and the
// files, terminals, IDE questions and elicitations the editor offers: each only when its handler
// exists) and the notifications it takes (session updates, and the conductor's reports that its
// agent exited, that a proxy of its chain ended, and an MCP tool's progress). The requests the
// editor makes are acpClient.ts's. vscode-free.
import type * as Sdk from '@agentclientprotocol/sdk';
import type { RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import {
  AGENT_EXITED_METHOD,
  COMPONENT_EXITED_METHOD,
  parseComponentExited,
  parseToolProgress,
  TOOL_PROGRESS_METHOD,
  type AgentExitedParams,
  type ComponentExitedParams,
  type ToolProgressParams,
} from '../protocol/symposium-ext';
import { IDE_OPERATIONS, ideMethod } from '../protocol/ideOperations';
import type { ClientHandlers, ClientRequestContext } from './clientHandlers';

export interface SessionUpdateEvent {
  sessionId: string;
  update: SessionUpdate;
}

/** What the editor answers with, and where the notifications go (AcpClientOptions extends it). */
export interface ClientAppOptions {
  /** Where requests come from, as the editor's handlers see it (the actor's key and agent name). */
  actorKey: string;
  agentName: string;
  log: Log;
  onSessionUpdate: (e: SessionUpdateEvent) => void;
  /** The conductor's `_symposium/component_exited`: a proxy in its chain ended; the chain cannot serve any more. */
  onComponentExited?: (p: ComponentExitedParams) => void;
  /** The conductor's `_symposium/tool_progress` (an in-process MCP tool's progress; toolProgress.ts). */
  onToolProgress?: (p: ToolProgressParams) => void;
  /** Answers session/request_permission; the agent waits on the promise, `signal` aborts when it withdraws. */
  onPermissionRequest: (params: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;
  /** Files and terminals the editor offers; each advertised only when its handler exists. */
  client?: ClientHandlers;
}

/** The SDK's client app with every handler of `options`; `onExitReport` takes the conductor's report of its agent's exit. */
export function clientApp(sdk: typeof Sdk, options: ClientAppOptions, onExitReport: (report: AgentExitedParams) => void) {
  const app = sdk
    .client()
    .onNotification('session/update', ({ params }) => options.onSessionUpdate({ sessionId: params.sessionId, update: params.update }))
    .onNotification(
      AGENT_EXITED_METHOD,
      (raw: unknown) => raw as AgentExitedParams,
      ({ params }) => onExitReport(params),
    )
    .onNotification(
      COMPONENT_EXITED_METHOD,
      (raw: unknown) => raw,
      ({ params }) => {
        const p = parseComponentExited(params);
        if (p) options.onComponentExited?.(p);
        else options.log.warn('agent', `malformed ${COMPONENT_EXITED_METHOD} ignored`);
      },
    )
    .onNotification(
      TOOL_PROGRESS_METHOD,
      (raw: unknown) => raw,
      ({ params }) => {
        const p = parseToolProgress(params);
        if (p) options.onToolProgress?.(p);
      },
    )
    // Never answered here: the broker decides (user, bypass or a rule) while the agent waits.
    .onRequest('session/request_permission', ({ params, signal }) => options.onPermissionRequest(params, signal));
  const { files, terminals, ide, elicitation } = options.client ?? {};
  const ctx = (signal: AbortSignal): ClientRequestContext => ({ actorKey: options.actorKey, agentName: options.agentName, signal });
  if (elicitation) {
    app
      .onRequest('elicitation/create', ({ params, signal }) => elicitation.create(params, ctx(signal)))
      .onNotification('elicitation/complete', ({ params }) =>
        elicitation.complete(params, { actorKey: options.actorKey, agentName: options.agentName }),
      );
  }
  if (files) {
    app
      .onRequest('fs/read_text_file', ({ params, signal }) => files.readTextFile(params, ctx(signal)))
      .onRequest('fs/write_text_file', ({ params, signal }) => files.writeTextFile(params, ctx(signal)));
  }
  if (terminals) {
    app
      .onRequest('terminal/create', ({ params, signal }) => terminals.create(params, ctx(signal)))
      .onRequest('terminal/output', ({ params, signal }) => terminals.output(params, ctx(signal)))
      .onRequest('terminal/wait_for_exit', ({ params, signal }) => terminals.waitForExit(params, ctx(signal)))
      .onRequest('terminal/kill', ({ params, signal }) => terminals.kill(params, ctx(signal)))
      .onRequest('terminal/release', ({ params, signal }) => terminals.release(params, ctx(signal)));
  }
  if (ide) {
    // The conductor's ide-operations component asks these for the agent's `ide` tools.
    for (const operation of IDE_OPERATIONS)
      app.onRequest(
        ideMethod(operation),
        (raw: unknown) => raw,
        ({ params, signal }) => ide.answer(operation, params, ctx(signal)),
      );
  }
  return app;
}
