// `--trace-dir D`: every message at every hop, as JSON lines
// `{timestamp, from, to, message}` where from/to are "editor", a component name, or "agent".
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { RpcMessage } from '../jsonrpc/message';

export class TraceWriter {
  private readonly stream: WriteStream;
  readonly path: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    this.path = join(dir, `conductor-${stamp}-${process.pid}.jsonl`);
    this.stream = createWriteStream(this.path, { flags: 'a' });
  }

  record(from: string, to: string, message: RpcMessage): void {
    this.stream.write(JSON.stringify({ timestamp: new Date().toISOString(), from, to, message }) + '\n');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }
}
