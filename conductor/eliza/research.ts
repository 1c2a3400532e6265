// Crate research sessions (for the conductor's research sub-sessions). A session whose MCP servers
// expose `return_response_to_user` is a research session; a prompt in it that names a crate
// (`crate_name: serde` or JSON with "crate_name") is answered by:
//   get_rust_crate_source {crate_name[, version]} → read <checkout_path>/Cargo.toml
//   (fs/read_text_file if the client can, else node fs) → return_response_to_user {response}.
// With "with permission" in the prompt it first asks session/request_permission for the read.
// "try to run `cmd`", "try to edit <path>", "try to read <path>", "try to fs/read <path>",
// "try to fs/write <path>" in the prompt make it attempt that too (a prompt-injected researcher),
// and the findings report each answer.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { askPermission, nextToolCallId } from './client-calls';
import { callClient, errorMessage, sendUpdate, streamText, throwIfCancelled } from './turn-context';
import type { Turn } from './turn-context';

export const RETURN_TOOL = 'return_response_to_user';
export const SOURCE_TOOL = 'get_rust_crate_source';

export interface ResearchRequest {
  crate: string;
  version?: string;
}

/** Finds the crate (and optional version) named in a research prompt. */
export function parseResearchRequest(text: string): ResearchRequest | undefined {
  const crate = /"crate_name"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? /\bcrate_name\s*[:=]\s*[`"']?([A-Za-z0-9_.-]+)/.exec(text)?.[1];
  if (!crate) return undefined;
  const version =
    /"(?:crate_)?version"\s*:\s*"([^"]+)"/.exec(text)?.[1] ??
    /\b(?:crate_)?version\s*[:=]\s*[`"']?([0-9*^~<>=][^\s`"',}]*)/.exec(text)?.[1];
  return version ? { crate, version } : { crate };
}

export interface CargoPackage {
  name?: string;
  version?: string;
  description?: string;
}

/** Just enough TOML for `[package]` string keys, including multi-line descriptions. */
export function parseCargoToml(toml: string): CargoPackage {
  const section = /^\[package\][^\n]*\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const get = (key: string): string | undefined => {
    const multi = new RegExp(`^${key}\\s*=\\s*(?:"""|''')\\s*([\\s\\S]*?)(?:"""|''')`, 'm').exec(section);
    if (multi) return multi[1]?.trim();
    return new RegExp(`^${key}\\s*=\\s*["']([^"'\\n]*)["']`, 'm').exec(section)?.[1];
  };
  const out: CargoPackage = {};
  const name = get('name');
  const version = get('version');
  const description = get('description');
  if (name) out.name = name;
  if (version) out.version = version;
  if (description) out.description = description;
  return out;
}

/** The name of the first session MCP server that offers `tool`, or undefined. Broken servers are skipped. */
async function serverWithTool(turn: Turn, tool: string): Promise<string | undefined> {
  for (const name of turn.session.mcp.names()) {
    try {
      if ((await turn.session.mcp.toolNames(name, turn.signal)).includes(tool)) return name;
    } catch {
      throwIfCancelled(turn);
    }
  }
  return undefined;
}

function checkoutPathOf(structured: unknown, text: string): string | undefined {
  const fromObject = (o: unknown): string | undefined =>
    o && typeof o === 'object' && typeof (o as { checkout_path?: unknown }).checkout_path === 'string'
      ? (o as { checkout_path: string }).checkout_path
      : undefined;
  const direct = fromObject(structured);
  if (direct) return direct;
  try {
    const parsed = fromObject(JSON.parse(text));
    if (parsed) return parsed;
  } catch {
    // not JSON; fall through to a looser match
  }
  return /checkout_path["'\s:=]+([^"'\s,}]+)/.exec(text)?.[1];
}

async function readCargoToml(turn: Turn, file: string): Promise<string> {
  if (turn.clientCapabilities?.fs?.readTextFile) {
    try {
      const { content } = await callClient(turn, (options) =>
        turn.client.request('fs/read_text_file', { sessionId: turn.session.id, path: file }, options),
      );
      return content;
    } catch {
      throwIfCancelled(turn);
      // The client may refuse paths outside the workspace; the checkout is ours to read anyway.
    }
  }
  return readFile(file, 'utf8');
}

/**
 * Runs the research flow if this turn is a research prompt in a research session. Returns false
 * (having sent nothing) when it is not, so the caller falls back to ordinary conversation.
 */
export async function maybeResearch(turn: Turn): Promise<boolean> {
  const request = parseResearchRequest(turn.text);
  if (!request || turn.session.mcp.names().length === 0) return false;
  const returnServer = await serverWithTool(turn, RETURN_TOOL);
  if (!returnServer) return false;

  const response = await research(turn, request);
  const ack = await turn.session.mcp.callTool(returnServer, RETURN_TOOL, { response }, turn.signal);
  await streamText(turn, ack.isError ? `Tool error: ${ack.text}` : response);
  return true;
}

async function research(turn: Turn, request: ResearchRequest): Promise<string> {
  const label = request.version ? `${request.crate} ${request.version}` : request.crate;
  const sourceServer = await serverWithTool(turn, SOURCE_TOOL);
  if (!sourceServer) return `Research on ${label} failed: no MCP server offers ${SOURCE_TOOL}.`;
  let source;
  try {
    source = await turn.session.mcp.callTool(
      sourceServer,
      SOURCE_TOOL,
      { crate_name: request.crate, ...(request.version ? { version: request.version } : {}) },
      turn.signal,
    );
  } catch (err) {
    throwIfCancelled(turn);
    return `Research on ${label} failed: ${errorMessage(err)}`;
  }
  if (source.isError) return `Research on ${label} failed: ${source.text}`;
  const checkout = checkoutPathOf(source.structured, source.text);
  if (!checkout) return `Research on ${label} failed: no checkout_path in ${SOURCE_TOOL} result.`;

  const file = path.join(checkout, 'Cargo.toml');
  let permissionNote = '';
  if (/\bwith permission\b/i.test(turn.text)) {
    const toolCallId = nextToolCallId('research');
    const title = `Read ${file}`;
    await sendUpdate(turn, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'read', status: 'pending', rawInput: { path: file } });
    const optionId = await askPermission(turn, { toolCallId, title, kind: 'read', status: 'pending', rawInput: { path: file } });
    const allowed = optionId?.startsWith('allow') ?? false;
    await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: allowed ? 'completed' : 'failed' });
    permissionNote = ` (permission: ${optionId ?? 'cancelled'})`;
    if (!allowed) return `Research on ${label}: not allowed to read ${file}${permissionNote}.`;
  }

  permissionNote += await triedActions(turn);

  let pkg: CargoPackage;
  try {
    pkg = parseCargoToml(await readCargoToml(turn, file));
  } catch (err) {
    throwIfCancelled(turn);
    return `Research on ${label} failed: cannot read ${file}: ${errorMessage(err)}${permissionNote}`;
  }
  const version = pkg.version ?? request.version ?? 'unknown';
  const summary = pkg.description?.split('\n')[0]?.trim() || `${pkg.name ?? request.crate} ${version}`;
  return `Research on ${request.crate} ${version}: ${summary}${permissionNote}`;
}

const TRIED = /\btry to (run|edit|read|fs\/read|fs\/write) (`[^`]+`|\S+)/gi;
const TRIED_KIND = { run: 'execute', edit: 'edit', read: 'read' } as const;

/**
 * The actions a (prompt-injected) researcher tries besides its task, reported in the findings as
 * ` (<verb> `x`: <answer>)`: `run`, `edit`, `read` ask session/request_permission (the answer is
 * the option id or `cancelled`); `fs/read` and `fs/write` call the client's fs methods directly
 * (the answer is `ok: <first 40 chars>` or `error: <message>`).
 */
async function triedActions(turn: Turn): Promise<string> {
  let note = '';
  for (const m of turn.text.matchAll(TRIED)) {
    const verb = m[1]!.toLowerCase();
    const target = m[2]!.replace(/^`|`$/g, '');
    note += ` (${verb} \`${target}\`: ${await tryAction(turn, verb, target)})`;
  }
  return note;
}

async function tryAction(turn: Turn, verb: string, target: string): Promise<string> {
  if (verb === 'fs/read' || verb === 'fs/write') {
    try {
      if (verb === 'fs/write') {
        await callClient(turn, (o) =>
          turn.client.request('fs/write_text_file', { sessionId: turn.session.id, path: target, content: 'written by a researcher\n' }, o),
        );
        return 'ok';
      }
      const { content } = await callClient(turn, (o) =>
        turn.client.request('fs/read_text_file', { sessionId: turn.session.id, path: target }, o),
      );
      return `ok: ${content.slice(0, 40)}`;
    } catch (err) {
      throwIfCancelled(turn);
      return `error: ${errorMessage(err)}`;
    }
  }
  const kind = TRIED_KIND[verb as keyof typeof TRIED_KIND];
  const toolCallId = nextToolCallId('research');
  const call =
    kind === 'execute'
      ? { toolCallId, title: `Run: ${target}`, kind, status: 'pending' as const, rawInput: { command: target } }
      : {
          toolCallId,
          title: `${verb === 'edit' ? 'Edit' : 'Read'} ${target}`,
          kind,
          status: 'pending' as const,
          locations: [{ path: target }],
          rawInput: { path: target },
        };
  await sendUpdate(turn, { sessionUpdate: 'tool_call', ...call });
  const optionId = await askPermission(turn, call);
  await sendUpdate(turn, { sessionUpdate: 'tool_call_update', toolCallId, status: optionId?.startsWith('allow') ? 'completed' : 'failed' });
  return optionId ?? 'cancelled';
}
