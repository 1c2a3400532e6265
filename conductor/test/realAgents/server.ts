// A scripted model server on 127.0.0.1: the endpoints the real agent CLIs call (Anthropic
// Messages, OpenAI Chat Completions and Responses, the Gemini API), answered from a ModelScript,
// so that Claude Code, Codex, Gemini CLI, Qwen Code and OpenCode run offline and deterministically.
// Every request is logged in the script for the test to read.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelScript, type Reply, type Rule, type Turn } from './script';
import {
  anthropicReply,
  anthropicTurn,
  geminiReply,
  geminiTurn,
  openAiChatReply,
  openAiChatTurn,
  openAiResponsesReply,
  openAiResponsesTurn,
} from './wire';

export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>` (no trailing slash, no `/v1`). */
  url: string;
  script: ModelScript;
  /** Requests the server could not route (path and method), for a test to show. */
  unknown: string[];
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  try {
    const v = JSON.parse(text || '{}') as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function startScriptedModelServer(rules: Rule[] = []): Promise<ScriptedModelServer> {
  const script = new ModelScript(rules);
  const unknown: string[] = [];
  /** The script's reply, once the pause it asks for (a tool called again a moment later) is over. */
  const answer = async (turn: Turn, path: string): Promise<Reply> => {
    const reply = script.answer(turn, path);
    if (reply.kind === 'tool' && reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    return reply;
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (process.env.SCRIPTED_MODEL_DEBUG) console.error(`[scripted model] ${new Date().toISOString()} ${req.method} ${req.url}`);
      const body = req.method === 'POST' ? await readJson(req) : {};
      if (process.env.SCRIPTED_MODEL_DEBUG === 'body') console.error(JSON.stringify(body.tools ?? body.messages));
      if (req.method === 'GET' && /\/models\/?$/.test(path)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'test' }], models: [] }));
      } else if (path.endsWith('/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 10 }));
      } else if (path.endsWith('/messages')) {
        await anthropicReply(await answer(anthropicTurn(body), path), body, res);
      } else if (path.endsWith('/chat/completions')) {
        await openAiChatReply(await answer(openAiChatTurn(body), path), body, res);
      } else if (path.endsWith('/responses')) {
        await openAiResponsesReply(await answer(openAiResponsesTurn(body), path), body, res);
      } else if (/:countTokens$/.test(path)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ totalTokens: 10 }));
      } else if (/:(stream)?generateContent$/i.test(path)) {
        await geminiReply(await answer(geminiTurn(body), path), body, /:streamGenerateContent$/.test(path), res);
      } else {
        unknown.push(`${req.method} ${path}`);
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted model server: no route for ${req.method} ${path}` } }));
      }
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    unknown,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
