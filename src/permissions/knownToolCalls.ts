// What a session's tool calls said about themselves before the agent asks permission for one. ACP's
// session/request_permission carries a tool call *update*: fields it leaves out keep the values the
// earlier tool_call / tool_call_update gave (Claude Code sends only the id, title and input, not the
// kind). The approval card shows the merged call (webview/mappers/permission.ts does the same
// merge), so the rules that read the request (auto-approval by kind, an approved command covering
// its terminal) must read the same merged call. Bounded per session. Pure.
import type { SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk';

type Known = Pick<ToolCallUpdate, 'kind' | 'title' | 'rawInput'>;

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

export class KnownToolCalls {
  private readonly sessions = new Map<string, Map<string, Known>>();

  constructor(private readonly maxPerSession = 200) {}

  /** Remembers the kind, title and input a tool_call / tool_call_update gives (later values win). */
  record(key: string, update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    let calls = this.sessions.get(key);
    if (!calls) this.sessions.set(key, (calls = new Map()));
    const known = { ...calls.get(update.toolCallId) };
    if (present(update.kind)) known.kind = update.kind;
    if (present(update.title)) known.title = update.title;
    if (present(update.rawInput)) known.rawInput = update.rawInput;
    calls.delete(update.toolCallId); // re-insert: the newest stays longest
    calls.set(update.toolCallId, known);
    if (calls.size > this.maxPerSession) calls.delete(calls.keys().next().value!);
  }

  /** The request's tool call with the fields it leaves out taken from what the session said before. */
  complete<T extends ToolCallUpdate>(key: string, toolCall: T): T {
    const known = this.sessions.get(key)?.get(toolCall.toolCallId);
    if (!known) return toolCall;
    const given = Object.fromEntries(Object.entries(toolCall).filter(([, v]) => present(v)));
    return { ...known, ...given } as T;
  }

  forget(key: string): void {
    this.sessions.delete(key);
  }
}
