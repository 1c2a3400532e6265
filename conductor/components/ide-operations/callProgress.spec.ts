// One ide tool call's progress (pure logic with a recording context): the answerer's steps are
// shown as they come, an unfinished one repeated with the elapsed time, a silent answerer gets
// "Waiting for …" past the slow threshold, and nothing is sent after the call finished.
import * as assert from 'node:assert/strict';
import { mock } from 'node:test';
import { TOOL_PROGRESS_METHOD, type ToolProgressParams } from '../../../src/protocol/symposium-ext';
import type { ComponentContext } from '../../chain/component';
import { IdeCallProgress, type ProgressTokens } from './callProgress';

/** Time passes on the mocked clock (setTimeout and Date), 10 ms at a time, as it would. */
const sleep = (ms: number): void => {
  for (let t = 0; t < ms; t += 10) mock.timers.tick(10);
};

function recording(): { cx: ComponentContext; sent: ToolProgressParams[] } {
  const sent: ToolProgressParams[] = [];
  const cx = {
    notify: (_direction: string, method: string, params: unknown) =>
      method === TOOL_PROGRESS_METHOD && sent.push(params as ToolProgressParams),
  } as unknown as ComponentContext;
  return { cx, sent };
}

describe('ide tool call progress', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  it("routes the answerer's steps by token, repeats an unfinished one with the time, stops when finished", () => {
    const { cx, sent } = recording();
    const tokens: ProgressTokens = new Map();
    const call = new IdeCallProgress(
      { cx, sessionId: 's1', server: 'symposium-ide', tool: 'hover', intervalMs: 0 },
      tokens,
      'Waiting for X',
      50,
    );
    const req = call.openRequest();
    assert.equal(tokens.get(req.token), call);
    tokens.get(req.token)!.upstream({ token: req.token, message: 'tsls: Initializing…', percentage: 40 });
    sleep(1100);
    tokens.get(req.token)!.upstream({ token: req.token, message: 'tsls: Initializing: done', finished: true });
    req.release();
    assert.equal(tokens.size, 0);
    call.finish();
    sleep(1100);
    assert.deepEqual(
      sent.map((p) => [p.message, p.progress, p.total]),
      [
        ['tsls: Initializing…', 40, 100],
        ['tsls: Initializing… 0 s', 40, 100],
        ['tsls: Initializing… 1 s', 40, 100],
        ['tsls: Initializing: done', undefined, undefined],
      ],
    );
    assert.ok(sent.every((p) => p.sessionId === 's1' && p.server === 'symposium-ide' && p.tool === 'hover'));
  });

  it('a silent answerer: "Waiting for …" past the threshold, nothing for a quick answer', () => {
    const { cx, sent } = recording();
    const tokens: ProgressTokens = new Map();
    const quick = new IdeCallProgress(
      { cx, sessionId: 's', server: 'symposium-ide', tool: 'hover', intervalMs: 0 },
      tokens,
      'Waiting for X',
      100,
    );
    quick.openRequest().release();
    quick.finish();
    sleep(150);
    assert.equal(sent.length, 0);
    const slow = new IdeCallProgress(
      { cx, sessionId: 's', server: 'symposium-ide', tool: 'hover', intervalMs: 0 },
      tokens,
      'Waiting for X',
      100,
    );
    const req = slow.openRequest();
    sleep(180);
    req.release();
    slow.finish();
    assert.deepEqual(
      sent.map((p) => p.message),
      ['Waiting for X… 0 s'],
    );
  });
});
