// A raw ACP agent for the language-server fallback bench (ide-lsp-bench.ts): no SDK, lines
// written and read by hand, so that the time it measures is the conductor's and the adapter's,
// not an ACP library's. It answers `initialize`, `session/new`, and `session/prompt` whose text is
// a JSON order {acp: {method, params}, count}: that request is sent to the client side `count`
// times, one after another (as ide-operations sends it), each timed from the write of the request
// to the parse of its response; the reply is one text chunk {times, last}.
import { createInterface } from 'node:readline';

const out = process.stdout;
const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
let nextId = 1;
let sessions = 0;

function request(method: string, params: unknown): Promise<{ result?: unknown; error?: unknown }> {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    out.write(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}\n`);
  });
}

async function prompt(id: string, params: { sessionId: string; prompt: { text?: string }[] }): Promise<void> {
  const order = JSON.parse(params.prompt[0]?.text ?? '') as { acp: { method: string; params: object }; count: number };
  const times: number[] = [];
  let last = '';
  for (let i = 0; i < order.count; i++) {
    const t0 = performance.now();
    const answer = await request(order.acp.method, { ...order.acp.params, sessionId: params.sessionId });
    times.push(performance.now() - t0);
    if (answer.error !== undefined) throw new Error(`${order.acp.method} failed: ${JSON.stringify(answer.error)}`);
    last = JSON.stringify(answer.result);
  }
  const update = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: JSON.stringify({ times, last }) } };
  out.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: params.sessionId, update } })}\n`);
  out.write(`{"jsonrpc":"2.0","id":${id},"result":{"stopReason":"end_turn"}}\n`);
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (text) => {
  if (!text.trim()) return;
  const msg = JSON.parse(text) as { id?: number | string; method?: string; params?: unknown; result?: unknown; error?: unknown };
  if (msg.method === undefined) {
    if (typeof msg.id !== 'number') return;
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
    return;
  }
  if (msg.id === undefined) return; // notifications: nothing to do
  const id = JSON.stringify(msg.id);
  switch (msg.method) {
    case 'initialize':
      out.write(`{"jsonrpc":"2.0","id":${id},"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[]}}\n`);
      break;
    case 'session/new':
      out.write(`{"jsonrpc":"2.0","id":${id},"result":{"sessionId":"raw-${++sessions}"}}\n`);
      break;
    case 'session/prompt':
      void prompt(id, msg.params as { sessionId: string; prompt: { text?: string }[] });
      break;
    default:
      out.write(`{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"method not found"}}\n`);
  }
});
rl.on('close', () => process.exit(0));
