// The IDE backend of one tool call: every operation becomes a `_symposium/ide/<operation>` request
// sent upstream (toward the editor) from the ide-operations component's position, carrying the
// agent's session id. Whoever is upstream answers: the extension (it advertises
// `_meta.symposium.ide`) or an IDE adapter in the chain. When nobody does, the editor edge's
// editor answers "method not found", and the tool says "no IDE available" — with a timeout so a
// silent editor cannot hang the agent's tool call.
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { isObject } from '../../../src/protocol/guards';
import {
  IDE_OPERATIONS,
  ideCapabilityOf,
  ideMethod,
  type IdeOperation,
  type IdeParams,
  type IdeResult,
  withIdeProgressToken,
} from '../../../src/protocol/ideOperations';
import type { ComponentContext } from '../../chain/component';
import type { IdeCallProgress } from './callProgress';
import { IdeCallError, type IdeBackend } from './values';
import { errorText } from '../../../src/protocol/errorText';

export interface ChainBackendOptions {
  sessionId: string;
  timeoutMs: number;
  /** The MCP tool call's signal: the agent gave up on the call. */
  signal?: AbortSignal;
  /** Remarks for the result, e.g. that the IDE cut a list short. */
  notes: string[];
  /** The tool call's progress: each request carries a token the answerer may report progress with. */
  progress?: IdeCallProgress;
}

/** Operations whose result is a (capped) list; the others answer one value. */
const SINGLE_VALUE_OPERATIONS: ReadonlySet<IdeOperation> = new Set<IdeOperation>(['hover', 'lines', 'selection']);
const LIST_OPERATIONS: ReadonlySet<IdeOperation> = new Set(IDE_OPERATIONS.filter((o) => !SINGLE_VALUE_OPERATIONS.has(o)));

export class ChainIdeBackend implements IdeBackend {
  constructor(
    private readonly cx: ComponentContext,
    private readonly options: ChainBackendOptions,
  ) {}

  async call<O extends IdeOperation>(operation: O, params: Omit<IdeParams<O>, 'sessionId'>): Promise<IdeResult<O>> {
    const method = ideMethod(operation);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
    let result: unknown;
    const tracked = this.options.progress?.openRequest();
    const sent = { ...params, sessionId: this.options.sessionId };
    try {
      result = await this.cx.request('toClient', method, tracked ? withIdeProgressToken(sent, tracked.token) : sent, { signal });
    } catch (err) {
      if (timeout.aborted) throw new IdeCallError(`the IDE did not answer ${method} within ${Math.round(this.options.timeoutMs / 1000)} s`);
      if (this.options.signal?.aborted) throw new IdeCallError(`${method} was cancelled`);
      const code = (err as { error?: { code?: unknown } }).error?.code;
      if (code === ErrorCodes.methodNotFound) throw new IdeCallError(this.unavailable(operation), true);
      throw new IdeCallError(errorText(err));
    } finally {
      tracked?.release();
    }
    if (LIST_OPERATIONS.has(operation)) {
      if (!isObject(result) || !Array.isArray(result.items))
        throw new IdeCallError(`the IDE answered ${method} with something that is not a list ({items, total})`);
      const total = typeof result.total === 'number' ? result.total : result.items.length;
      if (total > result.items.length) this.options.notes.push(`${operation}: the IDE returned ${result.items.length} of ${total} results`);
    } else if (!isObject(result)) {
      throw new IdeCallError(`the IDE answered ${method} with ${JSON.stringify(result)}, not an object`);
    }
    return result as IdeResult<O>;
  }

  private unavailable(operation: IdeOperation): string {
    const method = ideMethod(operation);
    const editor = ideCapabilityOf(this.cx.info.clientCapabilities);
    if (editor && !editor.operations.includes(operation))
      return `no IDE available for ${operation}: the editor answers IDE operations but not ${method}`;
    return (
      `no IDE available: nothing upstream answers ${method}. The editor does not advertise _meta.symposium.ide ` +
      "(Symposium for VS Code does; other editors need an IDE adapter in the conductor's chain, which starts language servers)"
    );
  }
}
