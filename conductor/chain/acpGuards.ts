// Typed views of the ACP params that components read. The chain hands every message on as raw
// JSON (`params: unknown`), so that fields nobody reads survive forwarding unchanged; a component
// that reads some params asks the guard of that method, which checks the fields the conductor
// relies on and returns the params typed with the ACP SDK's own types, or undefined when they do
// not have that shape. One check per method, so a method's params are read the same way
// everywhere, and the editor edge refuses malformed ones with the same rule (paramsProblem).
//
// Only the top-level fields each check names are validated. Nested values (content blocks, tool
// calls, MCP server entries, capabilities) carry the SDK's types but are not checked: whatever
// the conductor reads inside them it reads defensively. Where the conductor accepts less than
// the SDK type promises (`mcpServers` may be missing; `line`/`limit` are read leniently), the
// returned type says so.
import type * as acp from '@agentclientprotocol/sdk';
import type * as acpUnstable from '@agentclientprotocol/sdk/unstable';
import { isAbsolute } from 'node:path';
import { isObject, type JsonObject } from '../../src/protocol/guards';

/** What is wrong with a method's params, or undefined when they are fine. */
type Check = (p: JsonObject) => string | undefined;

/** `session/new` params as the conductor accepts them: `mcpServers` may be left out. */
export type SessionNewParams = Omit<acp.NewSessionRequest, 'mcpServers'> & { mcpServers?: acp.McpServer[] };
export type SessionLoadParams = Omit<acp.LoadSessionRequest, 'mcpServers'> & { mcpServers?: acp.McpServer[] };
/** `session/fork` (unstable in the schema): the session to copy, the fork's folder, MCP servers if any. */
export type SessionForkParams = acpUnstable.ForkSessionRequest;
/** `fs/read_text_file` params: `line` and `limit` are read leniently (src/node/textFiles.ts readLines). */
export type ReadTextFileParams = Omit<acp.ReadTextFileRequest, 'line' | 'limit'> & { line?: unknown; limit?: unknown };

const isAbsolutePath = (path: string): boolean => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);

const needsSessionId =
  (method: string): Check =>
  (p) =>
    typeof p.sessionId === 'string' ? undefined : `${method} needs a "sessionId"`;

/** `session/new`, `session/load`, `session/resume` and `session/fork`: an absolute folder, MCP servers if any. */
const sessionSetup =
  (method: string): Check =>
  (p) => {
    if (typeof p.cwd !== 'string' || !isAbsolutePath(p.cwd)) return `${method} needs an absolute "cwd"`;
    if (p.mcpServers !== undefined && !Array.isArray(p.mcpServers)) return '"mcpServers" must be an array';
    if (method !== 'session/new') return needsSessionId(method)(p);
    return undefined;
  };

const CHECKS: ReadonlyMap<string, Check> = new Map(
  Object.entries({
    initialize: (p) => {
      if (typeof p.protocolVersion !== 'number') return 'initialize needs a numeric "protocolVersion"';
      if (p.clientCapabilities !== undefined && !isObject(p.clientCapabilities)) return '"clientCapabilities" must be an object';
      return undefined;
    },
    'session/new': sessionSetup('session/new'),
    'session/load': sessionSetup('session/load'),
    'session/resume': sessionSetup('session/resume'),
    'session/fork': sessionSetup('session/fork'),
    'session/prompt': (p) => {
      if (typeof p.sessionId !== 'string') return 'session/prompt needs a "sessionId"';
      if (!Array.isArray(p.prompt)) return 'session/prompt needs a "prompt" array of content blocks';
      return undefined;
    },
    'session/cancel': needsSessionId('session/cancel'),
    'session/close': needsSessionId('session/close'),
    'session/request_permission': (p) => {
      if (typeof p.sessionId !== 'string') return 'session/request_permission needs a "sessionId"';
      if (!isObject(p.toolCall)) return 'session/request_permission needs a "toolCall" object';
      if (!Array.isArray(p.options)) return 'session/request_permission needs an "options" array';
      return undefined;
    },
    'fs/read_text_file': (p) => {
      if (typeof p.path !== 'string') return '"path" must be a string';
      return needsSessionId('fs/read_text_file')(p);
    },
    'fs/write_text_file': (p) => {
      if (typeof p.path !== 'string') return '"path" must be a string';
      if (typeof p.content !== 'string') return '"content" must be a string';
      return needsSessionId('fs/write_text_file')(p);
    },
  } satisfies Record<string, Check>),
);

/**
 * What is wrong with `params` for `method`, as a message for an invalid-params error; undefined
 * when they are fine or `method` is not one the conductor reads. Params that are not an object
 * fail like an empty object (the first field missing).
 */
export function paramsProblem(method: string, params: unknown): string | undefined {
  return CHECKS.get(method)?.(isObject(params) ? params : {});
}

/** A guard that lets through exactly the params paramsProblem(method) finds nothing wrong with. */
const guard =
  <T>(method: string) =>
  (params: unknown): T | undefined =>
    isObject(params) && paramsProblem(method, params) === undefined ? (params as T) : undefined;

export const asInitialize = guard<acp.InitializeRequest>('initialize');
export const asSessionNew = guard<SessionNewParams>('session/new');
export const asSessionLoad = guard<SessionLoadParams>('session/load');
export const asSessionResume = guard<acp.ResumeSessionRequest>('session/resume');
export const asSessionFork = guard<SessionForkParams>('session/fork');

/** Params of the four requests that set a session up, each with its folder and MCP servers. */
export type SessionSetupParams = SessionNewParams | SessionLoadParams | acp.ResumeSessionRequest | SessionForkParams;
const SESSION_SETUP = new Map<string, (params: unknown) => SessionSetupParams | undefined>([
  ['session/new', asSessionNew],
  ['session/load', asSessionLoad],
  ['session/resume', asSessionResume],
  ['session/fork', asSessionFork],
]);

/** Whether `method` sets a session up (`session/new`, `session/load`, `session/resume`, `session/fork`). */
export const isSessionSetup = (method: string): boolean => SESSION_SETUP.has(method);

/** The params of a `session/new`, `session/load`, `session/resume` or `session/fork` (named by `method`). */
export function asSessionSetup(method: string, params: unknown): SessionSetupParams | undefined {
  return SESSION_SETUP.get(method)?.(params);
}

/**
 * Whether `method` makes a session with a new id, which its result names (`session/new`, and
 * `session/fork`, whose params name the session it copies); load and resume reopen the one named.
 */
export const createsSession = (method: string): boolean => method === 'session/new' || method === 'session/fork';

/** The session a successful setup request set up: new and fork answer its id, load and resume name it. */
export function setUpSessionId(method: string, params: unknown, result: unknown): string | undefined {
  return createsSession(method) ? sessionIdOf(result) : sessionIdOf(params);
}
export const asPrompt = guard<acp.PromptRequest>('session/prompt');
export const asCancel = guard<acp.CancelNotification>('session/cancel');
export const asSessionClose = guard<acp.CloseSessionRequest>('session/close');
export const asRequestPermission = guard<acp.RequestPermissionRequest>('session/request_permission');
export const asReadTextFile = guard<ReadTextFileParams>('fs/read_text_file');
export const asWriteTextFile = guard<acp.WriteTextFileRequest>('fs/write_text_file');

/**
 * The `sessionId` of anything that names one: the params of any session-scoped request or
 * notification (`session/update`, `fs/*`, `terminal/*`…) or a `session/new` result.
 */
export function sessionIdOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.sessionId === 'string' ? value.sessionId : undefined;
}

/**
 * A session's folders: its cwd, and the `additionalDirectories` the client gave it when the agent
 * takes them (an agent that does not was never told of them, so they are not its to reach).
 */
export function sessionRoots(
  params: { cwd: string; additionalDirectories?: unknown },
  agentCapabilities: JsonObject | undefined,
): string[] {
  const caps = isObject(agentCapabilities?.sessionCapabilities) ? agentCapabilities.sessionCapabilities : {};
  const extra = isObject(caps.additionalDirectories) && Array.isArray(params.additionalDirectories) ? params.additionalDirectories : [];
  return [params.cwd, ...extra.filter((d): d is string => typeof d === 'string' && isAbsolute(d))];
}
