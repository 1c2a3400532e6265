// `--trace-dir D`: every message at every hop, as JSON lines
// `{timestamp, from, to, message}` where from/to are "editor", a component name, or "agent".
// Traces hold prompts and file contents, so the folder is created 0700 and each file 0600 (and
// created exclusively: never appended to an existing file or through a planted link). Credentials
// are masked in what is written: bearer tokens anywhere, Authorization values, and the values of
// `{name, value}` pairs (HTTP headers, env entries such as the MCP shim's SYMPOSIUM_MCP_TOKEN)
// whose name says secret. The messages themselves travel unchanged.
import { createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { isObject } from '../src/protocol/guards';
import type { RpcMessage } from './jsonrpc/message';

export const REDACTED = '[redacted]';
const BEARER = /\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const SECRET_NAME = /authorization|token|secret|password|passwd|api[-_]?key|credential|cookie/i;
const SECRET_KEY = /^(proxy-)?authorization$|^cookie$/i;

const maskBearer = (text: string): string => text.replace(BEARER, `$1 ${REDACTED}`);
/** A secret value: "Bearer [redacted]" keeps the scheme visible, anything else is all masked. */
const maskSecret = (text: string): string => (/^\s*Bearer\s/i.test(text) ? `Bearer ${REDACTED}` : REDACTED);

/** JSON.stringify replacer that masks credentials (see the header). */
function mask(key: string, value: unknown): unknown {
  if (typeof value === 'string') return SECRET_KEY.test(key) ? maskSecret(value) : maskBearer(value);
  if (isObject(value) && typeof value.name === 'string' && typeof value.value === 'string' && SECRET_NAME.test(value.name)) {
    return { ...value, value: maskSecret(value.value) };
  }
  return value;
}

/** The trace line for one message, credentials masked. */
export function traceLine(from: string, to: string, message: RpcMessage, timestamp = new Date().toISOString()): string {
  return JSON.stringify({ timestamp, from, to, message }, mask);
}

export class TraceWriter {
  private readonly stream: WriteStream;
  readonly path: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // an existing folder keeps its mode
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    this.path = join(dir, `conductor-${stamp}-${process.pid}.jsonl`);
    this.stream = createWriteStream('', { fd: openSync(this.path, 'wx', 0o600) });
  }

  record(from: string, to: string, message: RpcMessage): void {
    this.stream.write(traceLine(from, to, message) + '\n');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }
}
