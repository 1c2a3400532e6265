// One session/prompt turn: recognize a hook (hooks.ts) and run it, or chat with the ELIZA engine.
// Whatever happens, the turn ends with a stop reason — 'cancelled' once cancelled, the one
// `stop with <reason>` asked for, 'end_turn' otherwise; unexpected failures are reported as reply
// text so tests can see them. Only `fail this prompt` makes session/prompt answer with an error.
import * as path from 'node:path';
import { diskEditHook } from './diskEdits';
import * as acp from '@agentclientprotocol/sdk';
import { nextToolCallId, requestPermissionHook, readFileHook, runCommandHook, writeFileHook } from './client-calls';
import { demoReadToolHook, demoToolCallHook, HELP_TEXT, planHook, storyHook, streamChunksHook, thinkHook } from './demos';
import { respond } from './engine';
import { describeAttachments, parseHook } from './hooks';
import type { Hook } from './hooks';
import { UnknownServerError } from './mcp';
import { maybeResearch } from './research';
import { offerToggleHook, rawUsageHook, toggleState, usageHook } from './sessionReports';
import { locationsFromResult } from './toolLocations';
import { CancelledError } from './session';
import { embodimentReply, isEmbodimentPrompt } from './sparkle';
import { steeredReply } from './steering';
import { formHook, urlHook } from './elicitation';
import { errorMessage, sendUpdate, streamText } from './turn-context';
import type { Turn } from './turn-context';
import { logError } from './log';

/** The stop reasons `stop with <reason>` can produce (end_turn and cancelled happen anyway). */
export const STOP_REASONS = ['refusal', 'max_tokens', 'max_turn_requests'] as const satisfies readonly acp.StopReason[];

/**
 * Thrown by `fail this prompt`: the SDK turns a RequestError into the JSON-RPC error response
 * as is, so the client sees exactly code -32603 and our message (no "Internal error: " prefix).
 */
export class FailedPromptError extends acp.RequestError {
  constructor(message: string) {
    super(-32603, message);
  }
}

/** What a hook hands back: reply text (void if it already replied), or text plus a stop reason. */
type HookOutcome = string | void | { reply: string; stopReason: acp.StopReason };

export async function runTurn(turn: Turn): Promise<acp.StopReason> {
  // A prompt that was queued behind another one may have been cancelled before it started.
  if (turn.signal.aborted) return 'cancelled';
  let stopReason: acp.StopReason = 'end_turn';
  try {
    const hook = parseHook(turn.text);
    const outcome = isEmbodimentPrompt(turn.request)
      ? await embodimentReply(turn)
      : hook
        ? await runHook(turn, hook)
        : await converse(turn);
    const reply = typeof outcome === 'object' ? outcome.reply : outcome;
    if (typeof reply === 'string') await streamText(turn, reply);
    if (typeof outcome === 'object') stopReason = outcome.stopReason;
    // What the user steered into this turn is answered before it ends.
    const steered = turn.session.steering.drain();
    if (steered.length > 0) await streamText(turn, steeredReply(steered));
  } catch (err) {
    if (turn.signal.aborted || err instanceof CancelledError) return 'cancelled';
    // The error response is the whole point of `fail this prompt`; it must not become reply text.
    if (err instanceof FailedPromptError) throw err;
    logError(`prompt failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    try {
      await streamText(turn, `ElizACP error: ${errorMessage(err)}`);
    } catch {
      // cancelled while reporting; the stop reason below says so
    }
  }
  return turn.signal.aborted ? 'cancelled' : stopReason;
}

async function converse(turn: Turn): Promise<string | undefined> {
  if (await maybeResearch(turn)) return undefined;
  return respond(turn.text, { deterministic: turn.options.deterministic, verbose: turn.session.model === 'eliza-verbose' });
}

/** Runs a hook. A returned string is streamed as the reply; void means the hook already replied. */
async function runHook(turn: Turn, hook: Hook): Promise<HookOutcome> {
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
    case 'demo-read-tool':
      return demoReadToolHook(turn);
    case 'stop':
      return stopHook(hook.reason);
    case 'fail':
      throw new FailedPromptError(hook.message);
    case 'what-mode':
      // Lets a client test prove that set_mode / set_config_option / set_model reached us.
      return `Mode: ${turn.session.modeId}. Model: ${turn.session.model}.${toggleState(turn)}`;
    case 'session-info':
      // Lets the LM provider's tests prove that a follow-up reused the ACP session (or did not).
      return `Session ${turn.session.id}, prompt ${turn.session.prompts}.`;
    case 'recall':
      // Lets fork and resume tests prove what the session remembers of its earlier prompts.
      return recallHook(turn, hook.word);
    case 'sign-in-status':
      // Lets the sign-in tests prove that the client's authenticate reached the agent.
      return turn.signInStatus?.() ?? 'Not signed in.';
    case 'use-tools': {
      const results = await Promise.all(hook.calls.map((c) => useTool(turn, c.server, c.tool, c.argsJson)));
      return results.map((r, i) => `${hook.calls[i]?.tool ?? '?'}: ${r}`).join('\n');
    }
    case 'permission':
      return requestPermissionHook(turn, hook.title, hook.toolKind);
    case 'read-file': {
      if (hook.additionalFolder === undefined) return readFileHook(turn, hook.path, hook.line, hook.limit);
      const folder = turn.session.additionalDirectories[hook.additionalFolder - 1];
      if (folder === undefined) return `This session has no additional folder ${hook.additionalFolder}.`;
      return readFileHook(turn, path.resolve(folder, hook.path));
    }
    case 'folders':
      // Lets a client test prove which folders the session was set up with (additionalDirectories).
      return foldersReply(turn.session.cwd, turn.session.additionalDirectories);
    case 'write-file':
      return writeFileHook(turn, hook.path, hook.content);
    case 'disk-edit':
      return diskEditHook(turn, hook.edit);
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
    case 'usage':
      return usageHook(turn, { used: hook.used, size: hook.size, ...(hook.cost ? { cost: hook.cost } : {}) });
    case 'raw-usage':
      return rawUsageHook(turn, hook.json);
    case 'offer-toggle':
      return offerToggleHook(turn);
    case 'form':
      return formHook(turn, hook.schemaJson);
    case 'url':
      return urlHook(turn, hook.url);
    case 'mcp-servers':
      // Lets tests prove which MCP servers (and of which transport) reached the agent.
      return turn.session.mcp.describe();
    case 'previous-prompt':
      return JSON.stringify(turn.session.previousPromptTexts ?? null);
    case 'attachments': {
      const lines = describeAttachments(turn.request.prompt);
      return lines.length === 0
        ? 'You did not attach anything.'
        : `You attached ${lines.length} item${lines.length === 1 ? '' : 's'}:\n${lines.map((l) => `- ${l}`).join('\n')}`;
    }
  }
}

function stopHook(reason: string): HookOutcome {
  const known = STOP_REASONS.find((r) => r === reason);
  if (known) return { reply: `Stopping with ${known}.`, stopReason: known };
  return `Unknown stop reason '${reason}'. Known reasons: ${STOP_REASONS.join(', ')}.`;
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
  await sendUpdate(turn, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `${server}::${tool}`,
    kind: 'other',
    status: 'in_progress',
    rawInput: args,
  });
  const finish = async (text: string, ok: boolean, locations: acp.ToolCallLocation[] = []): Promise<string> => {
    await sendUpdate(turn, {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: ok ? 'completed' : 'failed',
      content: [{ type: 'content', content: { type: 'text', text } }],
      rawOutput: { text },
      ...(locations.length ? { locations } : {}),
    });
    return ok ? text : `Tool error: ${text}`;
  };
  try {
    const result = await turn.session.mcp.callTool(server, tool, args as Record<string, unknown>, turn.signal);
    // The files a result names (the `ide` tools' definitions and references) become the card's locations.
    // Progress the server reported during the call is shown after the result (MCP progress relayed end to end).
    const text = result.progress.length > 0 ? `${result.text}\n(progress: ${result.progress.join(', ')})` : result.text;
    return await finish(text, !result.isError, result.isError ? [] : locationsFromResult(result.structured, turn.session.cwd));
  } catch (err) {
    if (turn.signal.aborted) throw new CancelledError();
    if (err instanceof UnknownServerError) return finish(err.message, false).then(() => err.message);
    return finish(errorMessage(err), false);
  }
}

/** Searches the session's earlier prompts (not this one, the last recorded) for `word`. */
function recallHook(turn: Turn, word: string): string {
  const prompts = turn.session.history.filter((u) => u.sessionUpdate === 'user_message_chunk');
  const earlier = prompts.slice(0, -1).map((u) => (u.content.type === 'text' ? u.content.text : ''));
  const needle = word.toLowerCase();
  return earlier.some((text) => text.toLowerCase().includes(needle))
    ? `Yes: you said "${word}" earlier in this session.`
    : `No: you did not say "${word}" earlier in this session.`;
}

/** `what folders do you see`: the session's cwd, then its additional directories, one per line. */
function foldersReply(cwd: string, additional: readonly string[]): string {
  const lines = [`- ${cwd} (working directory)`, ...additional.map((d) => `- ${d}`)];
  return `I see ${lines.length === 1 ? '1 folder' : `${lines.length} folders`}:\n${lines.join('\n')}`;
}
