// The four streaming APIs the real agent CLIs call, as a scripted model server speaks them: each
// turns a request body into a Turn (script.ts) and writes a Reply as that API's server-sent
// events (or one JSON body when the request did not ask for a stream). Only the parts the agents
// read are produced; shapes follow the public API references.
import type { ServerResponse } from 'node:http';
import { chunks, resultText, sampleOf, type Reply, type Turn } from './script';

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sse(res: ServerResponse): (event: string | undefined, data: unknown) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  };
}

async function eachChunk(reply: Extract<Reply, { kind: 'text' }>, res: ServerResponse, f: (piece: string) => void): Promise<void> {
  for (const piece of chunks(reply.text)) {
    if (res.destroyed) return;
    f(piece);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  }
}

/** The last message that is not a system message (some agents append system context after the user's turn). */
const lastTurn = (messages: unknown): Json | undefined =>
  [...arr(messages)].reverse().find((m) => m.role !== 'system' && m.role !== 'developer');

/** Everything before the last message, as text: what the agent sent of the conversation so far. */
const earlierOf = (messages: unknown[]): string => JSON.stringify(messages.slice(0, -1));

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : arr(content)
        .map((b) => (typeof b.text === 'string' ? b.text : ''))
        .join('\n');

// ---- Anthropic Messages (Claude Code) ----

export function anthropicTurn(body: Json): Turn {
  const tools = new Map(arr(body.tools).map((t) => [String(t.name), t.input_schema as Json | undefined]));
  const last = lastTurn(body.messages);
  const blocks = arr(last?.content);
  const result = blocks.find((b) => b.type === 'tool_result');
  if (last?.role === 'user' && result)
    return { api: 'anthropic', tools, userText: '', toolResult: { callId: String(result.tool_use_id), text: resultText(result.content) } };
  return { api: 'anthropic', tools, userText: last?.role === 'user' ? textOf(last.content) : '', earlier: earlierOf(arr(body.messages)) };
}

export async function anthropicReply(reply: Reply, body: Json, res: ServerResponse): Promise<void> {
  const id = `msg_${Math.random().toString(36).slice(2, 12)}`;
  const model = String(body.model ?? 'claude-sonnet-4-5');
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const stop = reply.kind === 'tool' ? 'tool_use' : 'end_turn';
  if (body.stream !== true) {
    const content =
      reply.kind === 'tool'
        ? [{ type: 'tool_use', id: reply.callId, name: reply.name, input: reply.args }]
        : [{ type: 'text', text: reply.text }];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage }));
    return;
  }
  const send = sse(res);
  send('message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  if (reply.kind === 'tool') {
    send('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: reply.callId, name: reply.name, input: {} },
    });
    send('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.args) },
    });
  } else {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    await eachChunk(reply, res, (text) =>
      send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    );
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

// ---- OpenAI Chat Completions (Qwen Code, OpenCode) ----

export function openAiChatTurn(body: Json): Turn {
  const tools = new Map(
    arr(body.tools).map((t) => [
      String((t.function as Json | undefined)?.name),
      (t.function as Json | undefined)?.parameters as Json | undefined,
    ]),
  );
  const last = lastTurn(body.messages);
  if (last?.role === 'tool')
    return { api: 'openai-chat', tools, userText: '', toolResult: { callId: String(last.tool_call_id), text: resultText(last.content) } };
  return { api: 'openai-chat', tools, userText: last?.role === 'user' ? textOf(last.content) : '', earlier: earlierOf(arr(body.messages)) };
}

export async function openAiChatReply(reply: Reply, body: Json, res: ServerResponse): Promise<void> {
  const id = `chatcmpl-${Math.random().toString(36).slice(2, 12)}`;
  const model = String(body.model ?? 'scripted');
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const toolCall =
    reply.kind === 'tool'
      ? { id: reply.callId, type: 'function', function: { name: reply.name, arguments: JSON.stringify(reply.args) } }
      : undefined;
  if (body.stream !== true) {
    const message = toolCall
      ? { role: 'assistant', content: null, tool_calls: [toolCall] }
      : { role: 'assistant', content: reply.kind === 'text' ? reply.text : '' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: toolCall ? 'tool_calls' : 'stop' }],
        usage,
      }),
    );
    return;
  }
  const send = sse(res);
  const chunk = (delta: Json, finish: string | null, extra: Json = {}) =>
    send(undefined, {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  chunk({ role: 'assistant', content: '' }, null);
  if (toolCall) chunk({ tool_calls: [{ index: 0, ...toolCall }] }, null);
  else if (reply.kind === 'text') await eachChunk(reply, res, (content) => chunk({ content }, null));
  chunk({}, toolCall ? 'tool_calls' : 'stop', { usage });
  send(undefined, '[DONE]');
  res.end();
}

// ---- OpenAI Responses (Codex) ----

interface ResponsesTool {
  schema: Json | undefined;
  name: string;
  namespace?: string;
}

/** Codex groups an MCP server's tools in a namespace (`mcp__symposium_ide` → `diagnostics`, …): listed here as `<namespace>__<tool>`. */
function responsesTools(body: Json): Map<string, ResponsesTool> {
  const out = new Map<string, ResponsesTool>();
  for (const t of arr(body.tools)) {
    if (t.type === 'namespace')
      for (const inner of arr(t.tools))
        out.set(`${String(t.name)}__${String(inner.name)}`, {
          schema: inner.parameters as Json | undefined,
          name: String(inner.name),
          namespace: String(t.name),
        });
    else {
      const name = String(t.name ?? (t.function as Json | undefined)?.name);
      out.set(name, { schema: (t.parameters ?? (t.function as Json | undefined)?.parameters) as Json | undefined, name });
    }
  }
  return out;
}

export function openAiResponsesTurn(body: Json): Turn {
  const tools = new Map([...responsesTools(body)].map(([k, v]) => [k, v.schema]));
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : arr(body.input);
  const last = input.at(-1);
  if (last?.type === 'function_call_output' || last?.type === 'custom_tool_call_output')
    return { api: 'openai-responses', tools, userText: '', toolResult: { callId: String(last.call_id), text: resultText(last.output) } };
  const lastUser = [...input].reverse().find((m) => m.role === 'user');
  return { api: 'openai-responses', tools, userText: last?.role === 'user' ? textOf(lastUser?.content) : '', earlier: earlierOf(input) };
}

export async function openAiResponsesReply(reply: Reply, body: Json, res: ServerResponse): Promise<void> {
  const id = `resp_${Math.random().toString(36).slice(2, 12)}`;
  const model = String(body.model ?? 'scripted');
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const tool = reply.kind === 'tool' ? responsesTools(body).get(reply.name) : undefined;
  const item =
    reply.kind === 'tool'
      ? {
          type: 'function_call',
          id: `fc_${reply.callId}`,
          call_id: reply.callId,
          name: tool?.name ?? reply.name,
          ...(tool?.namespace ? { namespace: tool.namespace } : {}),
          arguments: JSON.stringify(reply.args),
          status: 'completed',
        }
      : {
          type: 'message',
          id: `msg_${id}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: reply.text, annotations: [] }],
        };
  const response = (status: string, output: Json[]) => ({
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    usage: status === 'completed' ? usage : null,
  });
  if (body.stream === false) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response('completed', [item])));
    return;
  }
  const send = sse(res);
  let seq = 0;
  const ev = (type: string, data: Json) => send(type, { type, sequence_number: seq++, ...data });
  ev('response.created', { response: response('in_progress', []) });
  if (reply.kind === 'tool') {
    ev('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
    const args = JSON.stringify(reply.args);
    ev('response.function_call_arguments.delta', { output_index: 0, item_id: item.id, delta: args });
    ev('response.function_call_arguments.done', { output_index: 0, item_id: item.id, arguments: args });
  } else {
    ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    ev('response.content_part.added', {
      output_index: 0,
      item_id: item.id,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    await eachChunk(reply, res, (delta) =>
      ev('response.output_text.delta', { output_index: 0, item_id: item.id, content_index: 0, delta }),
    );
    ev('response.output_text.done', { output_index: 0, item_id: item.id, content_index: 0, text: reply.text });
    ev('response.content_part.done', {
      output_index: 0,
      item_id: item.id,
      content_index: 0,
      part: { type: 'output_text', text: reply.text, annotations: [] },
    });
  }
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', { response: response('completed', [item]) });
  res.end();
}

// ---- Gemini API (Gemini CLI) ----

export function geminiTurn(body: Json): Turn {
  const decls = arr(body.tools).flatMap((t) => arr(t.functionDeclarations ?? t.function_declarations));
  const tools = new Map(decls.map((d) => [String(d.name), (d.parametersJsonSchema ?? d.parameters) as Json | undefined]));
  const last = arr(body.contents).at(-1);
  const parts = arr(last?.parts);
  const fr = parts.find((p) => p.functionResponse)?.functionResponse as Json | undefined;
  if (fr) return { api: 'gemini', tools, userText: '', toolResult: { callId: String(fr.id ?? fr.name), text: resultText(fr.response) } };
  return { api: 'gemini', tools, userText: last?.role === 'user' ? textOf(parts) : '', earlier: earlierOf(arr(body.contents)) };
}

export async function geminiReply(reply: Reply, body: Json, streaming: boolean, res: ServerResponse): Promise<void> {
  const config = (body.generationConfig ?? {}) as Json;
  if (reply.kind === 'text' && config.responseMimeType === 'application/json')
    reply = { kind: 'text', text: JSON.stringify(sampleOf(config.responseJsonSchema ?? config.responseSchema)) };
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  const candidate = (parts: Json[], finishReason?: string) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata,
    modelVersion: 'scripted',
  });
  // Gemini matches a functionResponse to its call by name (and id where it has one).
  const call = reply.kind === 'tool' ? [{ functionCall: { id: reply.callId, name: reply.name, args: reply.args } }] : undefined;
  if (!streaming) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(candidate(call ?? [{ text: reply.kind === 'text' ? reply.text : '' }], 'STOP')));
    return;
  }
  const send = sse(res);
  if (call) send(undefined, candidate(call, 'STOP'));
  else if (reply.kind === 'text') {
    const pieces = chunks(reply.text);
    let i = 0;
    await eachChunk(reply, res, (text) => send(undefined, candidate([{ text }], ++i === pieces.length ? 'STOP' : undefined)));
  }
  res.end();
}
