import * as assert from 'node:assert/strict';
import { fenced } from './markdown';

describe('fenced', () => {
  it('uses three backticks, or one more than the longest run inside', () => {
    assert.equal(fenced('a', 'ts'), '```ts\na\n```');
    assert.equal(fenced('x\n```js\ny\n```'), '````\nx\n```js\ny\n```\n````');
    assert.equal(fenced('`````'), '``````\n`````\n``````');
  });
});
