// Hooks that call back into the client: permission requests, file reads/writes and terminals.
// Each returns the reply text; protocol errors from the client become part of the reply (the
// point is to let tests see what the client answered), cancellation propagates as CancelledError.
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { fenced } from '../../src/protocol/markdown';
import { DEFAULT_PERMISSION_KIND, pathInTitle, splitCommandLine } from './hooks';
import { FEEDBACK_WAIT_MS } from './steering';
import { callClient, errorMessage, sendUpdate, streamText, throwIfCancelled } from './turn-context';
import type { Turn } from './turn-context';

let toolCallCounter = 0;
/** Tool-call ids only need to be unique within a session; a process-wide counter is enough. */
export function nextToolCallId(prefix: string): string {
  return `${prefix}-${++toolCallCounter}`;
}

export const PERMISSION_OPTIONS: readonly acp.PermissionOption[] = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject once', kind: 'reject_once' },
  { optionId: 'reject-always', name: 'Reject always', kind: 'reject_always' },
];

/** Resolves a path the user typed against the session cwd (ACP wants absolute paths). */
export function resolvePath(turn: Turn, p: string): string {
  return path.isAbsolute(p) ? p : path.resolve(turn.session.cwd, p);
}

/** Asks the client; returns the selected option id, or undefined if the client answered `cancelled`. */
export async function askPermission(turn: Turn, toolCall: acp.ToolCallUpdate): Promise<string | undefined> {
  const response = await callClient(turn, (options) =>
    turn.client.request('session/request_permission', { sessionId: turn.session.id, toolCall, options: [...PERMISSION_OPTIONS] }, options),
  );
  return response.outcome.outcome === 'selected' ? response.outcome.optionId : undefined;
}

const isAllowed = (optionId: string | undefined): boolean =>
  optionId !== undefined && PERMISSION_OPTIONS.some((o) => o.optionId === optionId && o.kind.startsWith('allow'));

/**
 * `request permission [for <title>] [kind <kind>]`: tool_call (pending) → session/request_permission
 * → reply text → tool_call_update (completed if an allow option was picked, failed otherwise).
 * The tool call carries rawInput and, when the title names a file, a location, so a client can
 * show the parameters on the permission card; the permission request repeats all of it.
 */
export async function requestPermissionHook(turn: Turn, title: string, kind: acp.ToolKind = DEFAULT_PERMISSION_KIND): Promise<void> {
  const toolCallId = nextToolCallId('permission');
  const file = pathInTitle(title);
  const abs = file === undefined ? undefined : resolvePath(turn, file);
  const rawInput = { title, kind, ...(abs ? { path: abs } : {}), reason: 'ElizACP test hook: request permission' };
  const call = { toolCallId, title, kind, status: 'pending' as const, rawInput, ...(abs ? { locations: [{ path: abs }] } : {}) };
  await sendUpdate(turn, { sessionUpdate: 'tool_call', ...call });
  let optionId: string | undefined;
  try {
    optionId = await askPermission(turn, call);
  } catch (err) {
    // Even a cancelled turn should not leave a dangling "pending" tool call in the client's UI.
    await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    throw err;
  }
  await streamText(turn, optionId === undefined ? 'Permission outcome: cancelled' : `Permission outcome: selected ${optionId}`);
  await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: isAllowed(optionId) ? 'completed' : 'failed' });
  // A client may follow a rejection with the user's reason, steered into this turn.
  if (turn.options.steering && optionId !== undefined && !isAllowed(optionId))
    await turn.session.steering.waitForInput(FEEDBACK_WAIT_MS, turn.signal);
}

export async function readFileHook(turn: Turn, p: string, line?: number, limit?: number): Promise<string> {
  const abs = resolvePath(turn, p);
  try {
    const { content } = await callClient(turn, (options) =>
      turn.client.request(
        'fs/read_text_file',
        {
          sessionId: turn.session.id,
          path: abs,
          ...(line !== undefined ? { line } : {}),
          ...(limit !== undefined ? { limit } : {}),
        },
        options,
      ),
    );
    // In a fence longer than any run of backticks in the file: the file's own fences would end it.
    return `Contents of ${abs}:\n${fenced(content)}`;
  } catch (err) {
    throwIfCancelled(turn);
    return `Error reading ${abs}: ${errorMessage(err)}`;
  }
}

export async function writeFileHook(turn: Turn, p: string, content: string): Promise<string> {
  const abs = resolvePath(turn, p);
  try {
    await callClient(turn, (options) =>
      turn.client.request('fs/write_text_file', { sessionId: turn.session.id, path: abs, content }, options),
    );
    return `Wrote ${abs}`;
  } catch (err) {
    throwIfCancelled(turn);
    return `Error writing ${abs}: ${errorMessage(err)}`;
  }
}

/**
 * `run command <line>`: terminal/create → tool_call (kind execute, terminal content) →
 * terminal/wait_for_exit → terminal/output → terminal/release → tool_call_update → reply.
 */
export async function runCommandHook(turn: Turn, commandLine: string): Promise<string> {
  const [command, ...args] = splitCommandLine(commandLine);
  if (!command) return 'Run what? Try: run command echo hello';
  const sessionId = turn.session.id;
  const toolCallId = nextToolCallId('terminal');
  let terminalId: string;
  try {
    ({ terminalId } = await callClient(turn, (options) =>
      turn.client.request('terminal/create', { sessionId, command, args, cwd: turn.session.cwd }, options),
    ));
  } catch (err) {
    throwIfCancelled(turn);
    return `Error running ${commandLine}: ${errorMessage(err)}`;
  }
  const release = (): Promise<unknown> => turn.client.request('terminal/release', { sessionId, terminalId }).catch(() => undefined);
  try {
    await sendUpdate(turn, {
      sessionUpdate: 'tool_call',
      toolCallId,
      title: `Run ${commandLine}`,
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command, args, cwd: turn.session.cwd },
      content: [{ type: 'terminal', terminalId }],
    });
    const exit = await callClient(turn, (options) => turn.client.request('terminal/wait_for_exit', { sessionId, terminalId }, options));
    const out = await callClient(turn, (options) => turn.client.request('terminal/output', { sessionId, terminalId }, options));
    await release();
    const ok = exit.exitCode === 0;
    await sendUpdate(turn, {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: ok ? 'completed' : 'failed',
      rawOutput: { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null, output: out.output },
    });
    const how =
      exit.exitCode !== undefined && exit.exitCode !== null
        ? `exited with code ${exit.exitCode}`
        : `was killed by signal ${exit.signal ?? 'unknown'}`;
    return `Command ${how}.\n${fenced(`${out.output}${out.truncated ? '\n[output truncated]' : ''}`)}`;
  } catch (err) {
    // Cancelled or failed mid-way: do not leave the process running in the client. Fire and
    // forget, so a slow client cannot delay the cancelled response.
    void release();
    await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' }).catch(() => undefined);
    throwIfCancelled(turn);
    return `Error running ${commandLine}: ${errorMessage(err)}`;
  }
}
