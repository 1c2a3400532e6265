// One session/prompt turn: recognize a hook (hooks.ts) and run it, or chat with the ELIZA engine.
// Whatever happens, the turn ends with a stop reason — 'cancelled' once cancelled, 'end_turn'
// otherwise; unexpected failures are reported as reply text so tests can see them.
import type * as acp from '@agentclientprotocol/sdk';
import { nextToolCallId, requestPermissionHook, readFileHook, runCommandHook, writeFileHook } from './client-calls';
import { demoToolCallHook, HELP_TEXT, planHook, storyHook, streamChunksHook, thinkHook } from './demos';
import { respond } from './engine';
import { describeAttachments, parseHook } from './hooks';
import type { Hook } from './hooks';
import { UnknownServerError } from './mcp';
import { maybeResearch } from './research';
import { CancelledError } from './session';
import { errorMessage, sendUpdate, streamText } from './turn-context';
import type { Turn } from './turn-context';
import { logError } from './version';

export async function runTurn(turn: Turn): Promise<acp.StopReason> {
  // A prompt that was queued behind another one may have been cancelled before it started.
  if (turn.signal.aborted) return 'cancelled';
  try {
    const hook = parseHook(turn.text);
    const reply = hook ? await runHook(turn, hook) : await converse(turn);
    if (typeof reply === 'string') await streamText(turn, reply);
  } catch (err) {
    if (turn.signal.aborted || err instanceof CancelledError) return 'cancelled';
    logError(`prompt failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    try {
      await streamText(turn, `ElizACP error: ${errorMessage(err)}`);
    } catch {
      // cancelled while reporting; the stop reason below says so
    }
  }
  return turn.signal.aborted ? 'cancelled' : 'end_turn';
}

async function converse(turn: Turn): Promise<string | undefined> {
  if (await maybeResearch(turn)) return undefined;
  return respond(turn.text, { deterministic: turn.options.deterministic, verbose: turn.session.model === 'eliza-verbose' });
}

/** Runs a hook. A returned string is streamed as the reply; void means the hook already replied. */
async function runHook(turn: Turn, hook: Hook): Promise<string | void> {
  switch (hook.kind) {
    case 'help':
      return HELP_TEXT;
    case 'story':
      return storyHook(turn);
    case 'plan':
      return planHook(turn);
    case 'think':
      return thinkHook(turn, hook.topic);
    case 'demo-tool-call':
      return demoToolCallHook(turn);
    case 'stream':
      return streamChunksHook(turn, hook.count);
    case 'permission':
      return requestPermissionHook(turn, hook.title);
    case 'read-file':
      return readFileHook(turn, hook.path, hook.line, hook.limit);
    case 'write-file':
      return writeFileHook(turn, hook.path, hook.content);
    case 'run-command':
      return runCommandHook(turn, hook.commandLine);
    case 'list-tools':
      return listTools(turn, hook.server);
    case 'use-tool':
      return useTool(turn, hook.server, hook.tool, hook.argsJson);
    case 'crash':
      // Deliberately abrupt: no response, no cleanup beyond the synchronous 'exit' handlers.
      process.stderr.write(`eliza: crashing as asked (exit code ${hook.code})\n`);
      process.exit(hook.code);
    case 'garbage':
      // Straight onto the protocol stream, bypassing the SDK: clients must survive a bad line.
      process.stdout.write('this is not json\n');
      return 'I printed a line of garbage to stdout.';
    case 'echo-meta':
      return JSON.stringify(turn.request._meta ?? null);
    case 'attachments': {
      const lines = describeAttachments(turn.request.prompt);
      return lines.length === 0
        ? 'You did not attach anything.'
        : `You attached ${lines.length} item${lines.length === 1 ? '' : 's'}:\n${lines.map((l) => `- ${l}`).join('\n')}`;
    }
  }
}

async function listTools(turn: Turn, server: string): Promise<string> {
  try {
    const names = await turn.session.mcp.toolNames(server, turn.signal);
    return `Tools from ${server}: ${names.length ? names.join(', ') : '(none)'}`;
  } catch (err) {
    if (turn.signal.aborted) throw new CancelledError();
    if (err instanceof UnknownServerError) return err.message;
    return `Error listing tools from ${server}: ${errorMessage(err)}`;
  }
}

async function useTool(turn: Turn, server: string, tool: string, argsJson: string): Promise<string> {
  let args: unknown;
  try {
    args = JSON.parse(argsJson);
  } catch (err) {
    return `Invalid JSON arguments for ${tool}: ${errorMessage(err)}`;
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    return `Invalid JSON arguments for ${tool}: expected a JSON object`;
  }
  // Like a real agent, show the MCP call as a tool call the client can render.
  const toolCallId = nextToolCallId('mcp');
  await sendUpdate(turn, { sessionUpdate: 'tool_call', toolCallId, title: `${server}::${tool}`, kind: 'other', status: 'in_progress', rawInput: args });
  const finish = async (text: string, ok: boolean): Promise<string> => {
    await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: ok ? 'completed' : 'failed', content: [{ type: 'content', content: { type: 'text', text } }], rawOutput: { text } });
    return ok ? text : `Tool error: ${text}`;
  };
  try {
    const result = await turn.session.mcp.callTool(server, tool, args as Record<string, unknown>, turn.signal);
    return await finish(result.text, !result.isError);
  } catch (err) {
    if (turn.signal.aborted) throw new CancelledError();
    if (err instanceof UnknownServerError) return finish(err.message, false).then(() => err.message);
    return finish(errorMessage(err), false);
  }
}
