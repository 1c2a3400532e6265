// The client side of ACP that the editor provides to agents: files and terminals. The actor
// advertises exactly the capabilities for which handlers exist and routes the agent's requests
// here, tagged with where they came from. vscode-free interface; the implementations live in
// src/editor/ (they use the VS Code API).
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  ReadTextFileRequest,
  ReadTextFileResponse,
  ReleaseTerminalRequest,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import type { CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse } from '@agentclientprotocol/sdk';
import type { IdeOperation, IdeResult } from '../protocol/ideOperations';
import type { TabId } from '../protocol/webview';

/** Where a request comes from: the actor (one conductor process) and the agent's name. */
export interface ClientRequestContext {
  actorKey: string;
  agentName: string;
  /** Aborted when the agent withdraws the request ($/cancel_request) or the connection ends. */
  signal: AbortSignal;
}

export interface FileHandlers {
  readTextFile(params: ReadTextFileRequest, ctx: ClientRequestContext): Promise<ReadTextFileResponse>;
  writeTextFile(params: WriteTextFileRequest, ctx: ClientRequestContext): Promise<Record<string, never>>;
}

export interface TerminalHandlers {
  create(params: CreateTerminalRequest, ctx: ClientRequestContext): Promise<CreateTerminalResponse>;
  output(params: TerminalOutputRequest, ctx: ClientRequestContext): Promise<TerminalOutputResponse>;
  waitForExit(params: WaitForTerminalExitRequest, ctx: ClientRequestContext): Promise<WaitForTerminalExitResponse>;
  kill(params: KillTerminalRequest, ctx: ClientRequestContext): Promise<Record<string, never>>;
  release(params: ReleaseTerminalRequest, ctx: ClientRequestContext): Promise<Record<string, never>>;
}

/**
 * The editor's answer to the conductor's `_symposium/ide/*` requests: one call per operation,
 * tagged with where the request came from like fs/* and terminal/*. The implementation
 * (src/ide/editorIde.ts) answers from VS Code's language features.
 */
export interface IdeHandlers {
  /** Checks `params` (unvalidated JSON from the conductor) and answers `operation`. */
  answer<O extends IdeOperation>(operation: O, params: unknown, ctx: ClientRequestContext): Promise<IdeResult<O>>;
}

/** What the editor's handlers know of the session a request came from. */
export interface SessionInfo {
  tabId: TabId;
  cwd: string;
  /** The other folders the agent was given with the session (ACP `additionalDirectories`). */
  additionalDirectories?: readonly string[];
  agentName: string;
}

/** Where a session works: its cwd first (relative paths resolve there), then its additional directories. */
export function sessionFolders(session: Pick<SessionInfo, 'cwd' | 'additionalDirectories'>): string[] {
  return [session.cwd, ...(session.additionalDirectories ?? [])];
}

export interface ClientHandlers {
  files?: FileHandlers;
  terminals?: TerminalHandlers;
  /** Answers the conductor's `_symposium/ide/*` requests (advertised as `_meta.symposium.ide`). */
  ide?: IdeHandlers;
  /** Asks the user for input (`elicitation/create`; advertised as `elicitation: {form, url}`). */
  elicitation?: ElicitationHandlers;
}

export interface ElicitationHandlers {
  create(params: CreateElicitationRequest, ctx: ClientRequestContext): Promise<CreateElicitationResponse>;
  complete(params: CompleteElicitationNotification, ctx: Omit<ClientRequestContext, 'signal'>): void;
}
