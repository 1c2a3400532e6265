import * as assert from 'node:assert/strict';
import { ModelScript, type Reply, type Turn } from './script';
import { mcpStep } from './steps';

describe('the scripted model: a tool search that finds nothing is made again, as a model would', () => {
  const tools = new Map<string, Record<string, unknown> | undefined>([
    ['tool_search', undefined],
    ['tool_call', undefined],
  ]);
  const ask: Turn = { api: 'openai-chat', tools, userText: 'where is Shape defined' };
  const result = (reply: Reply, text: string): Turn => {
    assert.equal(reply.kind, 'tool');
    return { api: 'openai-chat', tools, userText: '', toolResult: { callId: reply.kind === 'tool' ? reply.callId : '', text } };
  };

  it('searches again after a pause while the result has only the query echoed back, then calls the name found', () => {
    const script = new ModelScript([mcpStep('where is Shape defined', 'symposium-ide', 'find_definitions', { symbol: 'Shape' })]);
    const first = script.answer(ask, '/');
    assert.deepEqual(first.kind === 'tool' && [first.name, first.delayMs], ['tool_search', undefined]);
    const again = script.answer(result(first, "No tools found matching 'find_definitions'."), '/');
    assert.deepEqual(again.kind === 'tool' && [again.name, again.delayMs], ['tool_search', 500]);
    const call = script.answer(result(again, '<functions>{"name": "mcp__symposium-ide__find_definitions"}</functions>'), '/');
    assert.deepEqual(call.kind === 'tool' && [call.name, call.args], [
      'tool_call',
      { name: 'mcp__symposium-ide__find_definitions', arguments: { symbol: 'Shape' } },
    ]);
  });

  it('gives up searching after twenty more tries and goes on with what it has', () => {
    const script = new ModelScript([mcpStep('where is Shape defined', 'symposium-ide', 'find_definitions', {})]);
    let reply = script.answer(ask, '/');
    const names: string[] = [];
    for (let i = 0; i < 22 && reply.kind === 'tool'; i++) {
      names.push(reply.name);
      reply = script.answer(result(reply, "No tools found matching 'find_definitions'."), '/');
    }
    assert.deepEqual(names, [...Array<string>(21).fill('tool_search'), 'tool_call']);
  });
});
