// The script a scripted model server answers from, independent of any wire format: match the
// last user message, answer with text or with a call of one of the agent's own tools, and once the
// tool's result comes back, answer with text that quotes it. The wire modules (wire*.ts) turn a
// request into a Turn and a Reply into the API's stream. Anything unscripted (agents make extra
// calls: titles, routing, memory, suggestions) gets a short plain answer.

/** A tool call the script wants: the first of `names` the request's tool list offers. */
export interface ToolStep {
  /** Candidate tool names, in order of preference (e.g. `Read`, `read_file`, `read`). */
  names: string[];
  /** The call's arguments, given the chosen name, the tool's declared input schema and the previous step's result. */
  args: (name: string, schema: Record<string, unknown> | undefined, previous: string | undefined) => Record<string, unknown>;
  /** The text that follows the tool's result (`result` is the result's text). */
  after: (result: string) => string;
  /**
   * As a model would, calls the tool again (after `delayMs`, at most `times` more) while its result
   * does not satisfy `until`: a tool search made before the agent has discovered its MCP servers'
   * tools (Qwen Code connects them in the background) finds nothing the first time.
   */
  retry?: { until: (result: string) => boolean; times: number; delayMs: number };
}

export interface Rule {
  /** Matched against the text of the last user message (a substring, or a pattern). */
  when: string | RegExp;
  /** Plain text to answer with (or made from the request); long answers are streamed in several chunks. */
  text?: string | ((turn: Turn) => string);
  tool?: ToolStep;
  /**
   * Tool calls in order, each made only when the request offers one of its names (a step no
   * request offers is skipped): e.g. a tool search first, for the agents that show MCP tools only
   * once the model looked them up, then the MCP tool. The last call's `after` gives the answer.
   */
  steps?: ToolStep[];
  /** Delay between streamed chunks (ms), to let a test press Stop mid-answer. */
  chunkDelayMs?: number;
}

/** What a request boils down to, whatever the API. */
export interface Turn {
  api: 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';
  /** The tools the agent offers its model, by name, with their input schemas. */
  tools: Map<string, Record<string, unknown> | undefined>;
  /** The last user message's text (empty when the last message is a tool result). */
  userText: string;
  /** The last message is a tool's result: the call's id (as this server made it) and the result's text. */
  toolResult?: { callId: string; text: string };
  /** The conversation before the last message, as the agent sent it (JSON text): what it remembers. */
  earlier?: string;
}

export type Reply =
  | { kind: 'text'; text: string; chunkDelayMs?: number }
  | { kind: 'tool'; callId: string; name: string; args: Record<string, unknown>; delayMs?: number };

export interface LoggedRequest {
  api: Turn['api'];
  path: string;
  userText: string;
  toolNames: string[];
  toolResult?: Turn['toolResult'];
  reply: Reply;
}

export const UNSCRIPTED_ANSWER = 'OK.';

/** Answers turns from the rules; remembers which rule made each tool call, for the answer after its result. */
export class ModelScript {
  readonly log: LoggedRequest[] = [];
  private readonly calls = new Map<string, ScriptCall>();
  /** The latest call of each tool name: an API that matches results to calls by name (Gemini without ids). */
  private readonly callsByName = new Map<string, ScriptCall>();
  private nextCall = 1;

  constructor(public rules: Rule[] = []) {}

  answer(turn: Turn, path: string): Reply {
    const reply = this.decide(turn);
    this.log.push({ api: turn.api, path, userText: turn.userText, toolNames: [...turn.tools.keys()], toolResult: turn.toolResult, reply });
    return reply;
  }

  /** The names of the tools the agent offered in its requests (all requests so far). */
  toolsSeen(): Set<string> {
    return new Set(this.log.flatMap((r) => r.toolNames));
  }

  private decide(turn: Turn): Reply {
    if (turn.toolResult) {
      const call = this.calls.get(turn.toolResult.callId) ?? this.callsByName.get(turn.toolResult.callId);
      if (!call) return { kind: 'text', text: UNSCRIPTED_ANSWER };
      const retry = stepsOf(call.rule)[call.step]!.retry;
      if (retry && call.attempt < retry.times && !retry.until(turn.toolResult.text)) {
        const again = this.call(turn, call.rule, call.step, call.previous, call.attempt + 1);
        if (again?.kind === 'tool') return { ...again, delayMs: retry.delayMs };
      }
      const next = this.call(turn, call.rule, call.step + 1, turn.toolResult.text);
      return next ?? { kind: 'text', text: stepsOf(call.rule)[call.step]!.after(turn.toolResult.text) };
    }
    const rule = this.rules.find((r) => (typeof r.when === 'string' ? turn.userText.includes(r.when) : r.when.test(turn.userText)));
    if (!rule) return { kind: 'text', text: UNSCRIPTED_ANSWER };
    if (stepsOf(rule).length) {
      // A side call (a title, a summary) carries the user's words without the tools: plain answer.
      return this.call(turn, rule, 0) ?? { kind: 'text', text: UNSCRIPTED_ANSWER };
    }
    const text = typeof rule.text === 'function' ? rule.text(turn) : rule.text;
    return { kind: 'text', text: text ?? UNSCRIPTED_ANSWER, ...(rule.chunkDelayMs ? { chunkDelayMs: rule.chunkDelayMs } : {}) };
  }

  /** The call of the first step from `from` on whose tool the request offers; undefined when none. */
  private call(turn: Turn, rule: Rule, from: number, previous?: string, attempt = 0): Reply | undefined {
    const steps = stepsOf(rule);
    for (let step = from; step < steps.length; step++) {
      const name = steps[step]!.names.find((n) => turn.tools.has(n));
      if (!name) continue;
      const callId = `call_${String(this.nextCall++).padStart(4, '0')}_${Math.random().toString(36).slice(2, 8)}`;
      const made: ScriptCall = { rule, step, attempt, ...(previous !== undefined ? { previous } : {}) };
      this.calls.set(callId, made);
      this.callsByName.set(name, made);
      return { kind: 'tool', callId, name, args: steps[step]!.args(name, turn.tools.get(name), previous) };
    }
    return undefined;
  }
}

/** A tool call the script made: its rule and step, which try of that step, and the previous step's result. */
interface ScriptCall {
  rule: Rule;
  step: number;
  attempt: number;
  previous?: string;
}

const stepsOf = (rule: Rule): ToolStep[] => rule.steps ?? (rule.tool ? [rule.tool] : []);

/** Splits text into streaming chunks of about `size` characters, at word boundaries where possible. */
export function chunks(text: string, size = 24): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const cut = rest.lastIndexOf(' ', size);
    const at = cut > 0 ? cut + 1 : size;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest) out.push(rest);
  return out.length ? out : [''];
}

/** The text of a tool result, whatever shape the API gave it (string, blocks, objects). */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(resultText).join('');
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.text === 'string') return o.text;
    if ('content' in o) return resultText(o.content);
    if ('output' in o) return resultText(o.output);
    return JSON.stringify(o);
  }
  return value === undefined || value === null ? '' : String(value);
}

/**
 * A value that fits a JSON schema (enum → its first value, objects with their required keys): the
 * answer to a side call that asks for structured output (Gemini CLI's model router, a title), which
 * an agent retries, with back-off, when the answer does not parse.
 */
export function sampleOf(schema: unknown): unknown {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.anyOf) && s.anyOf.length) return sampleOf(s.anyOf[0]);
  const type = String(Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : 'string'))).toLowerCase();
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sampleOf(v)]));
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return UNSCRIPTED_ANSWER;
  }
}
