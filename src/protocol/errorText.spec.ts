import * as assert from 'node:assert/strict';
import { errorText } from './errorText';

describe('errorText', () => {
  it("adds what a JSON-RPC error's data says", () => {
    const e = Object.assign(new Error('Internal error'), {
      code: -32603,
      data: { details: 'No previous sessions found for this project.' },
    });
    assert.equal(errorText(e), 'Internal error: No previous sessions found for this project.');
    assert.equal(
      errorText(Object.assign(new Error('Invalid params'), { data: 'cwd must be absolute' })),
      'Invalid params: cwd must be absolute',
    );
  });
  it('keeps a plain message, skips data that repeats it or is not text, and caps a long detail', () => {
    assert.equal(errorText(new Error('boom')), 'boom');
    assert.equal(errorText(Object.assign(new Error('boom: x'), { data: 'x' })), 'boom: x');
    assert.equal(errorText(Object.assign(new Error('boom'), { data: { details: 42 } })), 'boom');
    assert.equal(errorText('plain'), 'plain');
    assert.ok(errorText(Object.assign(new Error('e'), { data: 'y'.repeat(1000) })).length < 320);
  });
});
