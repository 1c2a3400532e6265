// A raw, fast ACP agent for the benchmark: no SDK, no validation, prebuilt lines. It answers
// `initialize`, `session/new` and `session/prompt`; a prompt "stream N chunks" is answered with N
// `session/update` lines written as fast as the pipe takes them (batched, honouring
// backpressure), then the response. This is the agent that shows per-message cost in whatever
// sits between it and the client, as a model streaming tokens quickly does.
import { createInterface } from 'node:readline';

const out = process.stdout;

function write(text: string): Promise<void> {
  return out.write(text) ? Promise.resolve() : new Promise((r) => out.once('drain', () => r()));
}

async function stream(sessionId: string, n: number): Promise<void> {
  const line = (i: number): string =>
    `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${sessionId}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"chunk ${i} "}}}}\n`;
  let batch = '';
  for (let i = 0; i < n; i++) {
    batch += line(i);
    if (batch.length > 16_384) {
      await write(batch);
      batch = '';
    }
  }
  if (batch) await write(batch);
}

let sessions = 0;
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
rl.on('line', (text) => {
  if (!text.trim()) return;
  const msg = JSON.parse(text) as { id?: number | string; method?: string; params?: Record<string, unknown> };
  if (msg.id === undefined || !msg.method) return; // notifications (cancel) and responses: nothing to do
  const id = JSON.stringify(msg.id);
  queue = queue.then(async () => {
    switch (msg.method) {
      case 'initialize':
        await write(`{"jsonrpc":"2.0","id":${id},"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[]}}\n`);
        break;
      case 'session/new':
        await write(`{"jsonrpc":"2.0","id":${id},"result":{"sessionId":"raw-${++sessions}"}}\n`);
        break;
      case 'session/prompt': {
        const params = msg.params as { sessionId: string; prompt: { type: string; text?: string }[] };
        const m = /stream (\d+) chunks/.exec(params.prompt[0]?.text ?? '');
        await stream(params.sessionId, m ? Number(m[1]) : 1);
        await write(`{"jsonrpc":"2.0","id":${id},"result":{"stopReason":"end_turn"}}\n`);
        break;
      }
      default:
        await write(`{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"method not found"}}\n`);
    }
  });
});
rl.on('close', () => process.exit(0));
