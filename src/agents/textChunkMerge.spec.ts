import * as assert from 'node:assert/strict';
import { PassThrough, Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { MAX_HELD_LINE, MAX_MERGED_TEXT, mergeTextChunkLines, TextChunkMerger } from './textChunkMerge';

/** A text chunk's line as an ACP SDK agent writes it (also read by conductor/test/message.spec.ts). */
export const chunk = (text: string, extra: { sessionId?: string; kind?: string; messageId?: string } = {}): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: {
      sessionId: extra.sessionId ?? 's1',
      update: {
        sessionUpdate: extra.kind ?? 'agent_message_chunk',
        content: { type: 'text', text },
        ...(extra.messageId ? { messageId: extra.messageId } : {}),
      },
    },
  });
const textsOf = (lines: string[]): string[] =>
  lines.map((l) => (JSON.parse(l) as { params: { update: { content: { text: string } } } }).params.update.content.text);

/** Feeds `reads` to a merger as separate reads; resolves with everything it wrote. */
async function throughMerger(reads: (string | Buffer)[]): Promise<string> {
  const merger = new TextChunkMerger();
  let out = '';
  merger.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const ended = new Promise((r) => merger.on('end', r));
  for (const r of reads) merger.write(r);
  merger.end();
  await ended;
  return out;
}

describe('the text chunks that reach the editor together are merged before the ACP SDK reads them (textChunkMerge.ts)', () => {
  it('merges consecutive text chunks of one session and kind into one, their text concatenated in order', () => {
    const out = mergeTextChunkLines([chunk('a'), chunk('b'), chunk('c')]);
    assert.equal(out.length, 1);
    assert.deepEqual(textsOf(out), ['abc']);
  });

  it('keeps a lone chunk as its original line, byte for byte', () => {
    const line = chunk('alone').replace('{"jsonrpc"', '{ "jsonrpc"');
    assert.deepEqual(mergeTextChunkLines([line]), [line]);
  });

  it('does not merge across sessions, kinds or message ids, and keeps the order', () => {
    const lines = [
      chunk('1'),
      chunk('2', { sessionId: 's2' }),
      chunk('3', { kind: 'agent_thought_chunk' }),
      chunk('4', { kind: 'agent_thought_chunk' }),
      chunk('5', { messageId: 'm1' }),
      chunk('6', { messageId: 'm2' }),
      chunk('7', { messageId: 'm2' }),
    ];
    assert.deepEqual(textsOf(mergeTextChunkLines(lines)), ['1', '2', '34', '5', '67']);
  });

  it('passes every other line through untouched and never merges across it', () => {
    const toolCall = JSON.stringify({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x' } },
    });
    const response = '{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}';
    const out = mergeTextChunkLines([chunk('a'), chunk('b'), toolCall, chunk('c'), response, chunk('d'), chunk('e')]);
    assert.deepEqual(out.length, 5);
    assert.equal(out[1], toolCall);
    assert.equal(out[3], response);
    assert.deepEqual(textsOf([out[0]!, out[2]!, out[4]!]), ['ab', 'c', 'de']);
  });

  it('leaves alone chunks with anything a merge would lose: _meta, annotations, non-text content, a request id', () => {
    const text = { type: 'text', text: 'x' };
    const line = (params: object, extra: object = {}): string =>
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params, ...extra });
    const update = (u: object): object => ({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: text, ...u } });
    const odd = [
      line({ ...update({}), _meta: { x: 1 } }),
      line(update({ _meta: { x: 1 } })),
      line(update({ content: { ...text, annotations: { priority: 1 } } })),
      line(update({ content: { type: 'image', data: 'AA==', mimeType: 'image/png' } })),
      line(update({ content: { type: 'text', text: 5 } })),
      line(update({}), { id: 9 }),
    ];
    for (const line of odd) assert.deepEqual(mergeTextChunkLines([chunk('a'), line, chunk('b')]), [chunk('a'), line, chunk('b')]);
  });

  it('merges chunks the same whether written in the SDK shape (matched without parsing) or any other spelling', () => {
    const respelled = (text: string): string =>
      JSON.stringify({
        params: { update: { content: { text, type: 'text' }, sessionUpdate: 'agent_message_chunk' }, sessionId: 's1' },
        method: 'session/update',
        jsonrpc: '2.0',
      });
    const spaced = (text: string): string => chunk(text).replace(/":/g, '": ');
    const out = mergeTextChunkLines([chunk('a'), respelled('b'), spaced('c'), chunk('d') + '\r', chunk('e')]);
    assert.deepEqual(textsOf(out), ['abcde']);
    assert.deepEqual(JSON.parse(out[0]!), JSON.parse(chunk('abcde')));
    assert.deepEqual(mergeTextChunkLines([chunk('x', { messageId: 'm' }), respelled('y')]).length, 2, 'a message id still separates');
  });

  it('keeps every character through a merge: quotes, backslashes, newlines, control characters, non-ASCII, a surrogate pair split across chunks', () => {
    const pieces = ['say \\"hi\\"\\n', '\\\\ back\\\\slash\\t', '\\u0001\\u001f', 'é 漢字 ', '\\ud83d', '\\ude00', ' \\/ </script>'];
    const decoded = pieces.map((p) => JSON.parse(`"${p}"`) as string);
    const sdk = pieces.map((p) => chunk('PIECE').replace('PIECE', p));
    const out = mergeTextChunkLines(sdk);
    assert.equal(out.length, 1);
    assert.equal(textsOf(out)[0], decoded.join(''));
    assert.equal(textsOf(mergeTextChunkLines(decoded.map((t) => chunk(t))))[0], decoded.join(''), 'the same through JSON.stringify');
  });

  it('never merges a line that is not valid JSON, however much it looks like a chunk', () => {
    const bad = [
      chunk('X').replace('X', 'raw	tab'),
      chunk('X').replace('X', 'bad \\x escape'),
      chunk('X').replace('X', 'short \\u12'),
      chunk('X').replace('"X"}}}}', '"X"}}}'),
    ];
    for (const line of bad) {
      assert.throws(() => JSON.parse(line), SyntaxError, line);
      assert.deepEqual(mergeTextChunkLines([chunk('a'), line, chunk('b')]), [chunk('a'), line, chunk('b')]);
    }
  });

  it('passes malformed lines through byte for byte (the SDK answers them), without merging across them', () => {
    const bad = ['{"jsonrpc":"2.0","method":"session/update", "agent_message_chunk" broken', '', '[1,2]'];
    assert.deepEqual(mergeTextChunkLines([chunk('a'), ...bad, chunk('b')]), [chunk('a'), ...bad, chunk('b')]);
  });

  it(`stops a merged chunk at ${MAX_MERGED_TEXT} characters and starts the next`, () => {
    const piece = 'x'.repeat(MAX_MERGED_TEXT / 4);
    const out = mergeTextChunkLines(Array.from({ length: 6 }, () => chunk(piece)));
    assert.deepEqual(
      textsOf(out).map((t) => t.length),
      [MAX_MERGED_TEXT, MAX_MERGED_TEXT / 2],
    );
  });

  it('as a stream: merges only within a read, holds a partial line for the next read, and splits no UTF-8 character', async () => {
    const one = chunk('héllo ✓ ');
    const bytes = Buffer.from(`${one}\n${one}\n${one}`, 'utf8');
    const cut = bytes.lastIndexOf('✓') + 1; // inside the last line's three-byte character
    const out = await throughMerger([bytes.subarray(0, cut), Buffer.concat([bytes.subarray(cut), Buffer.from('\n')])]);
    const lines = out.split('\n').filter(Boolean);
    // The first read brings two whole lines (merged) and part of the third, which the second completes.
    assert.deepEqual(textsOf(lines), ['héllo ✓ héllo ✓ ', 'héllo ✓ ']);
    assert.ok(out.endsWith('\n'));
  });

  it('as a stream: a host keeping pace (one line per read) gets each line as read, and an unterminated tail at the end', async () => {
    const out = await throughMerger([`${chunk('a')}\n`, `${chunk('b')}\n`, 'tail-without-newline']);
    assert.equal(out, `${chunk('a')}\n${chunk('b')}\n` + 'tail-without-newline');
  });

  it(`as a stream: a line longer than ${MAX_HELD_LINE} characters is passed on as it comes, byte for byte, and the lines after it merge again`, async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      method: 'fs/write_text_file',
      params: { path: '/w/f', content: 'y'.repeat(3 * MAX_HELD_LINE) },
    });
    const bytes = Buffer.from(`${chunk('a')}\n${big}\n${chunk('b')}\n${chunk('c')}\n`);
    const merger = new TextChunkMerger();
    const outputs: number[] = [];
    let out = '';
    merger.on('data', (b: Buffer) => {
      outputs.push(b.length);
      out += b.toString('utf8');
    });
    const ended = new Promise((r) => merger.on('end', r));
    // 64 KiB reads, as from a pipe: the big line must not wait for its newline.
    for (let at = 0; at < bytes.length; at += 65536) merger.write(bytes.subarray(at, at + 65536));
    const before = out.length;
    merger.end();
    await ended;
    assert.equal(out.length, before, 'everything was passed on before the end');
    assert.ok(outputs.length >= 30, `${outputs.length} writes: the long line went on piece by piece`);
    assert.ok(
      Math.max(...outputs) <= MAX_HELD_LINE + 2 * 65536,
      `at most ${MAX_HELD_LINE} characters held back, not ${Math.max(...outputs)}`,
    );
    const lines = out.split('\n');
    assert.equal(lines[1], big);
    assert.deepEqual(textsOf([lines[0]!, lines[2]!]), ['a', 'bc']);
  });

  it('through a real ACP SDK client: 2000 chunks in one read arrive as a few notifications with the same text', async () => {
    const stdout = new PassThrough();
    const stdin = new PassThrough();
    stdin.resume();
    let text = '';
    let notifications = 0;
    const merged = stdout.pipe(new TextChunkMerger());
    acp
      .client()
      .onNotification('session/update', ({ params }) => {
        notifications++;
        if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text')
          text += params.update.content.text;
      })
      .connect(acp.ndJsonStream(Writable.toWeb(stdin), Readable.toWeb(merged) as ReadableStream<Uint8Array>));
    const expected = Array.from({ length: 2000 }, (_, i) => `chunk ${i} `);
    stdout.write(expected.map((t) => chunk(t)).join('\n') + '\n');
    const deadline = Date.now() + 5000;
    while (text.length < expected.join('').length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(text, expected.join(''));
    assert.ok(notifications < 20, `${notifications} notifications for 2000 chunks`);
    stdout.end();
  });
});
