// The editor's answer to the conductor's `_symposium/ide/*` requests, as the ACP client
// sees it: one call per operation, tagged with where the request came from like fs/* and
// terminal/*. vscode-free interface; the implementation (src/ide/editorIde.ts) answers from VS
// Code's language features. The request and result types live in src/protocol/ideOperations.ts.
import type { ClientRequestContext } from '../agents/clientHandlers';
import type { IdeOperation, IdeResult } from '../protocol/ideOperations';

export interface IdeHandlers {
  /** Checks `params` (unvalidated JSON from the conductor) and answers `operation`. */
  answer<O extends IdeOperation>(operation: O, params: unknown, ctx: ClientRequestContext): Promise<IdeResult<O>>;
}
