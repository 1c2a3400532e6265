// What particular agents do differently, absorbed once, nearest the agent, so that every editor
// (VS Code through the extension, or any ACP client in front of the conductor) gets the same fix.
//
// Gemini CLI reads a file through `fs/read_text_file` before it writes it, to tell a new file
// from an existing one. It would treat a "not found" answer as a new file, but it cannot see one:
// the ACP library it uses rejects with a plain error object, and Gemini only recognises a Node
// error with `code: "ENOENT"`, so every "not found" answer (the spec's resource-not-found
// included) makes it abandon the write, and it can never create a file through the editor. For
// Gemini alone, a read of a missing file is answered as an empty file: the write then goes ahead,
// and Gemini's own read tool checks files itself, so its reads are not affected. Other agents
// keep the error (an empty answer would tell them the file exists).
import type { Component, ComponentFactory, Direction, IncomingRequest } from '../chain/component';
import type { RpcError, RpcOutcome } from '../jsonrpc/message';
import { isObject } from '../../src/protocol/guards';

/** The `agentInfo.name`s that need a missing file read as empty. */
const READS_MISSING_AS_EMPTY = new Set(['gemini-cli']);

/** A "the file does not exist" answer, whoever gave it (the editor's resource-not-found, a Node ENOENT message). */
export function isNotFound(error: RpcError): boolean {
  return error.code === -32002 || /ENOENT|not found|no such file|does not exist/i.test(error.message);
}

/** The answer an agent gets for a read of a missing file; unchanged unless the agent needs it empty. Pure. */
export function readOutcomeFor(agentName: string | undefined, outcome: RpcOutcome): RpcOutcome {
  if (agentName === undefined || !READS_MISSING_AS_EMPTY.has(agentName)) return outcome;
  return 'error' in outcome && isNotFound(outcome.error) ? { result: { content: '' } } : outcome;
}

class AgentQuirks implements Component {
  readonly name = 'agent-quirks';
  private agentName: string | undefined;

  wantsRequest(method: string, direction: Direction): boolean {
    return (method === 'initialize' && direction === 'toAgent') || (method === 'fs/read_text_file' && direction === 'toClient');
  }

  wantsNotification(): boolean {
    return false;
  }

  onRequest(request: IncomingRequest): void {
    if (request.method === 'initialize')
      return request.forwardThen(undefined, (outcome) => {
        const info = 'result' in outcome && isObject(outcome.result) ? outcome.result.agentInfo : undefined;
        this.agentName = isObject(info) && typeof info.name === 'string' ? info.name : undefined;
        return outcome;
      });
    if (this.agentName !== undefined && READS_MISSING_AS_EMPTY.has(this.agentName))
      return request.forwardThen(undefined, (outcome) => readOutcomeFor(this.agentName, outcome));
    request.forward();
  }
}

export const agentQuirksFactory: ComponentFactory = {
  name: 'agent-quirks',
  description:
    'Absorbs what particular agents do differently (Gemini CLI: a read of a missing file before a write is answered as an empty file).',
  kind: 'component',
  create: () => new AgentQuirks(),
};
