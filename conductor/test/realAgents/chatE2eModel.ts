// The scripted model server of the real-chat e2e (scripts/agents-e2e.mjs), as a process of its own:
// the driver is plain ESM, and these modules need a CommonJS load (their paths hang off __dirname).
// `node --import tsx conductor/test/realAgents/chatE2eModel.ts <workspace>` prints one JSON line,
// {url, agents: {<id>: {command, env}}, texts: {hello, story}}, then serves until its stdin closes.
// Each model request is logged on stderr. The prompts the e2e types contain the rules' `when`s.
import { join } from 'node:path';
import { agentLaunch, type AgentId } from './agents';
import type { Rule } from './script';
import { startScriptedModelServer } from './server';
import { editStep, readStep, recallStep, shellStep, writeStep } from './steps';

const CHAT_E2E_AGENTS: AgentId[] = ['claude-code-acp', 'claude-agent-acp', 'codex', 'gemini', 'qwen', 'opencode'];

/** The word a conversation is asked to remember before a window reload (scripts/agents-e2e.mjs). */
const CODEWORD = 'zebra-42';
const HELLO = 'Hello from the scripted model, in a few streamed chunks for the chat.';
/** Long enough, at one chunk every 250 ms, that Stop comes well before its end. */
const STORY = Array.from({ length: 60 }, (_, i) => `Story sentence number ${i + 1} goes on.`).join(' ');

/**
 * The rules, the prompt the e2e types last first: after a Stop or a refusal Claude Code sends the
 * interrupted prompt again with the next one, in one user message, and the newer prompt must win.
 * Files are named after the agent, so each agent's write is a new file.
 */
function rules(ws: string): Rule[] {
  const file = (id: AgentId, name: string): string => join(ws, `${id}-${name}`);
  const each = (rule: (id: AgentId) => Rule): Rule[] => CHAT_E2E_AGENTS.map(rule);
  return [
    recallStep('what was the codeword', CODEWORD),
    { when: 'remember the codeword', text: 'I will remember it.' },
    ...each((id) => {
      const refused = writeStep(`write the refused file for ${id}`, file(id, 'refused.txt'), 'must-not-exist');
      // What the agent's tool result said, as the model's next text: the chat shows the agent was told.
      return { ...refused, tool: { ...refused.tool!, after: (r) => `The write did not happen; the tool said: ${r.slice(0, 300)}` } };
    }),
    { when: 'tell me a long story', text: STORY, chunkDelayMs: 250 },
    ...each((id) => editStep(`edit the notes for ${id}`, join(ws, 'notes.txt'), 'pelican', `pelican-edited-by-${id}`)),
    ...each((id) => writeStep(`write the reviewed file for ${id}`, file(id, 'reviewed.txt'), 'reviewed-content')),
    ...each((id) => writeStep(`write the greeting file for ${id}`, file(id, 'greeting.txt'), 'hello-from-the-agent')),
    shellStep('run echo hi-from-shell', 'echo hi-from-shell'),
    readStep('read the notes', join(ws, 'notes.txt')),
    { when: 'say hello', text: HELLO },
  ];
}

async function main(): Promise<void> {
  const ws = process.argv[2];
  if (!ws) throw new Error('usage: chatE2eModel.ts <workspace folder>');
  const model = await startScriptedModelServer(rules(ws));
  let logged = 0;
  const logTimer = setInterval(() => {
    for (const r of model.script.log.slice(logged))
      console.error(
        `[model] ${r.api} ${JSON.stringify(r.userText.slice(0, 60))} → ${r.reply.kind === 'tool' ? `tool ${r.reply.name}` : 'text'}`,
      );
    logged = model.script.log.length;
  }, 200);
  const agents = Object.fromEntries(
    CHAT_E2E_AGENTS.map((id) => {
      const launch = agentLaunch(id, model.url);
      return [id, { command: launch.command, env: launch.env }];
    }),
  );
  console.log(JSON.stringify({ url: model.url, agents, texts: { hello: HELLO, story: STORY } }));
  process.stdin.resume();
  process.stdin.on('end', () => {
    clearInterval(logTimer);
    void model.close().then(() => process.exit(0));
  });
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
