// For exploring an agent by hand (not a test): drives one real agent directly, or through the
// conductor, against the scripted model server and prints what came back: its capabilities, modes,
// updates, the tools it offered its model. `npx tsx conductor/test/realAgents/tryAgent.ts <agent>
// [conductor]`; SCRIPTED_MODEL_DEBUG=1 prints each model request.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { conductorArgs, startProcess, tempDir } from '../harness';
import { agentLaunch, type AgentId } from './agents';
import { startScriptedModelServer } from './server';

async function main(): Promise<void> {
  const id = process.argv[2] as AgentId;
  const through = process.argv[3] === 'conductor';
  const model = await startScriptedModelServer([
    { when: 'say hello', text: 'Hello from the scripted model, streamed in several chunks for you.' },
    {
      when: 'read notes',
      tool: {
        names: ['mcp__acp__Read', 'Read', 'read_file', 'read'],
        args: (name, schema) => {
          const props = Object.keys((schema?.properties as Record<string, unknown>) ?? {});
          const key = props.find((p) => /path/i.test(p)) ?? 'file_path';
          return { [key]: join(ws, 'notes.txt') };
        },
        after: (r) => `The file says: ${r.slice(0, 200)}`,
      },
    },
  ]);
  const ws = tempDir('symposium-ws-');
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'notes.txt'), 'the secret word is pelican\n');
  const launch = agentLaunch(id, model.url);
  const argv = through ? conductorArgs({ agent: launch.command, log: 'info' }) : launch.command;
  const h = startProcess(
    argv,
    {
      readTextFile: async (p) => {
        console.log('fs/read_text_file', p.path);
        return { content: readFileSync(p.path, 'utf8') };
      },
      writeTextFile: async (p) => {
        console.log('fs/write_text_file', p.path);
        writeFileSync(p.path, p.content);
        return {};
      },
    },
    launch.env,
  );
  const t0 = Date.now();
  const init = await h.conn.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    clientInfo: { name: 'try', version: '0' },
  });
  console.log('init', Date.now() - t0, 'ms', JSON.stringify(init).slice(0, 600));
  const s = await h.conn.agent.request('session/new', { cwd: ws, mcpServers: [] });
  console.log('session', Date.now() - t0, 'ms', JSON.stringify(s).slice(0, 1500));
  for (const text of ['say hello', 'read notes please']) {
    const r = await h.conn.agent.request('session/prompt', { sessionId: s.sessionId, prompt: [{ type: 'text', text }] });
    console.log('prompt', text, '->', JSON.stringify(r), Date.now() - t0, 'ms');
    console.log('TEXT:', h.takeText(s.sessionId));
  }
  console.log('kinds', h.updates.map((u) => u.update.sessionUpdate).join(','));
  console.log(
    'tool updates',
    JSON.stringify(h.updates.filter((u) => u.update.sessionUpdate.startsWith('tool_call')).map((u) => u.update)).slice(0, 2000),
  );
  console.log(
    'model log',
    JSON.stringify(model.script.log.map((l) => [l.path, l.userText.slice(0, 80), l.toolNames.length, l.reply.kind])),
  );
  console.log('unknown', model.unknown);
  console.log('tools', model.script.log.at(-1)?.toolNames.join(' '));
  console.log('stderr tail', h.stderr().slice(-1500));
  await h.close();
  await model.close();
}
void main().then(
  () => process.exit(0),
  (e) => {
    console.error('FAILED', e);
    process.exit(1);
  },
);
