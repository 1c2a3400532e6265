// Merges the streamed text chunks that reach the extension host together, before the ACP SDK reads
// them. Why here and by hand: the SDK checks every `session/update` against its zod schema twice
// (its session router, then the handler's parser) and walks each through its web-stream and
// handler machinery: about 20 µs a notification on the thread that also carries the chat. When an
// agent streams faster than that, the pipe fills and each read brings hundreds of lines; the
// editor then spent its time on per-line overhead while the reply waited (a 5000-chunk
// reply took 2.3–3.8× the stream). The SDK has no hook for this, so this transform sits between
// the conductor's stdout and the SDK's NDJSON stream.
//
// Only lines that arrived in the same read are merged, so nothing waits for a later read: a host
// that keeps pace sees every chunk as sent. Only plain text chunks merge (agent/thought/user
// message chunks whose content is `{type: 'text', text}`, with nothing else on the message, the
// params or the update but an equal `messageId`), and only consecutive ones of the same session and
// kind: the concatenated text is what the chat would have drawn from the pieces. Every other line
// passes through byte for byte, malformed ones included, so the SDK still validates and answers
// them; a merged line is still validated by the SDK like any other.
import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';
import { isObject } from '../protocol/guards';
import { matchTextChunkLine, textChunkLine as lineOf, type TextChunkLine as TextChunk } from '../protocol/textChunkLine';

const MERGEABLE = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);
/** A merged chunk stays far below the SDK's message limit (32 MiB) and the webview's drawing unit. */
export const MAX_MERGED_TEXT = 256 * 1024;
/**
 * The most of an unfinished line held back for the next read. A longer line (a big file the agent
 * writes, say) is passed on as it comes, unmerged, so it costs no more than without this
 * transform, and the SDK's own line limit still applies to it.
 */
export const MAX_HELD_LINE = 1024 * 1024;

const hasOnly = (o: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(o).every((k) => keys.includes(k));

/** The line as a plain text chunk, or undefined if it is anything else (which then passes untouched). */
export function textChunkOf(line: string): TextChunk | undefined {
  // Cheap tests first: most other lines are rejected without parsing.
  if (!line.includes('_chunk"') || !line.includes('"session/update"')) return undefined;
  // The SDK's own spelling, without parsing (its parts kept as JSON text, so a run of them merges
  // by concatenating escaped text); any other spelling is parsed, to the same result.
  const sdk = matchTextChunkLine(line);
  if (sdk) return sdk;
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(m) || m.jsonrpc !== '2.0' || m.method !== 'session/update' || !hasOnly(m, ['jsonrpc', 'method', 'params']))
    return undefined;
  const p = m.params;
  if (!isObject(p) || typeof p.sessionId !== 'string' || !hasOnly(p, ['sessionId', 'update'])) return undefined;
  const u = p.update;
  if (!isObject(u) || typeof u.sessionUpdate !== 'string' || !MERGEABLE.has(u.sessionUpdate)) return undefined;
  if (!hasOnly(u, ['sessionUpdate', 'content', 'messageId']) || (u.messageId !== undefined && typeof u.messageId !== 'string'))
    return undefined;
  const c = u.content;
  if (!isObject(c) || c.type !== 'text' || typeof c.text !== 'string' || !hasOnly(c, ['type', 'text'])) return undefined;
  return {
    sessionId: JSON.stringify(p.sessionId),
    kind: u.sessionUpdate as TextChunk['kind'],
    messageId: u.messageId === undefined ? undefined : JSON.stringify(u.messageId),
    text: JSON.stringify(c.text).slice(1, -1),
  };
}

/**
 * The lines with each run of consecutive, compatible text chunks replaced by one. A run of one is
 * kept as its original line. Pure: the transform below and the unit tests call it.
 */
export function mergeTextChunkLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let run: TextChunk | undefined;
  let runLine = ''; // the run's first line, kept while the run has one chunk
  let runCount = 0;
  const flush = (): void => {
    if (run) out.push(runCount === 1 ? runLine : lineOf(run));
    run = undefined;
    runCount = 0;
  };
  for (const line of lines) {
    const chunk = textChunkOf(line);
    if (!chunk) {
      flush();
      out.push(line);
      continue;
    }
    const joins =
      run !== undefined &&
      run.sessionId === chunk.sessionId &&
      run.kind === chunk.kind &&
      run.messageId === chunk.messageId &&
      run.text.length + chunk.text.length <= MAX_MERGED_TEXT;
    if (joins && run) {
      run.text += chunk.text;
      runCount++;
    } else {
      flush();
      run = chunk;
      runLine = line;
      runCount = 1;
    }
  }
  flush();
  return out;
}

/** Bytes in (NDJSON as read from the pipe), bytes out, with each read's text chunks merged. */
export class TextChunkMerger extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  /** The unfinished line held back for the next read. */
  private partial = '';
  /** The unfinished line was too long to hold and went on already: the rest of it follows as is. */
  private passing = false;

  override _transform(bytes: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    // Newlines are looked for in this read only: a long line arriving over many reads is scanned once.
    const piece = this.decoder.write(bytes);
    let out = '';
    let start = 0;
    if (this.passing) {
      const newline = piece.indexOf('\n');
      if (newline < 0) return done(null, piece || undefined);
      out = piece.slice(0, newline + 1);
      start = newline + 1;
      this.passing = false;
    }
    const end = piece.lastIndexOf('\n');
    if (end >= start) {
      const text = this.partial + piece.slice(start, end);
      this.partial = '';
      const lines = text.split('\n');
      // One line (a host keeping pace) passes as read.
      out += lines.length === 1 ? text + '\n' : mergeTextChunkLines(lines).join('\n') + '\n';
    }
    this.partial += piece.slice(Math.max(start, end + 1));
    if (this.partial.length > MAX_HELD_LINE) {
      out += this.partial;
      this.partial = '';
      this.passing = true;
    }
    done(null, out || undefined);
  }

  override _flush(done: TransformCallback): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    done(null, rest.length ? rest : undefined);
  }
}
