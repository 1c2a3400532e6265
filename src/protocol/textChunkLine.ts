// The one line shape that dominates a streaming reply, recognized without JSON.parse: a plain text
// chunk exactly as JSON.stringify writes it from the ACP SDK (an agent's `sessionUpdate`, which
// the conductor forwards as it was written). Read by the conductor's line parser
// (conductor/jsonrpc/message.ts) and the extension's chunk merger (src/agents/textChunkMerge.ts),
// where parsing every line of a fast stream was the largest per-message cost. Any other spelling of
// the same message (key order, spaces, `_meta`) does not match and is parsed as usual. Pure.

/** A JSON string literal's body, exactly as JSON allows it: no raw control character, only JSON's escapes. */
const STRING_BODY = String.raw`(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*`;

const TEXT_CHUNK_LINE = new RegExp(
  String.raw`^\{"jsonrpc":"2\.0","method":"session/update","params":\{"sessionId":("${STRING_BODY}"),"update":\{"sessionUpdate":"(agent_message_chunk|agent_thought_chunk|user_message_chunk)","content":\{"type":"text","text":"(${STRING_BODY})"\}(?:,"messageId":("${STRING_BODY}"))?\}\}\}$`,
);

/** A matched line's parts, as JSON text: the ids as string literals, the text as a string's escaped body. */
export interface TextChunkLine {
  sessionId: string;
  kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk';
  text: string;
  messageId: string | undefined;
}

/** The line's parts if it is a plain text chunk in the SDK's shape (then it is also valid JSON), else undefined. */
export function matchTextChunkLine(line: string): TextChunkLine | undefined {
  // Cheap tests first: most other lines are rejected without running the expression.
  if (!line.startsWith('{"jsonrpc":"2.0","method":"session/update"') || !line.includes('_chunk"')) return undefined;
  const m = TEXT_CHUNK_LINE.exec(line);
  if (!m) return undefined;
  return { sessionId: m[1]!, kind: m[2] as TextChunkLine['kind'], text: m[3]!, messageId: m[4] };
}

/** The line for a text chunk given as JSON text (the inverse of matchTextChunkLine). */
export function textChunkLine(chunk: TextChunkLine): string {
  const messageId = chunk.messageId === undefined ? '' : `,"messageId":${chunk.messageId}`;
  return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${chunk.sessionId},"update":{"sessionUpdate":"${chunk.kind}","content":{"type":"text","text":"${chunk.text}"}${messageId}}}}`;
}
